package main

// The in-process command runs of this package's tests (extCLI, runLola)
// verify signature bundles in this test binary, as lola-sigstore does:
// host/signature registers itself with host/sigverify when linked. The
// built lola links neither, and runs bin/lola-sigstore; the tests that run
// the built binary cover that path (TestBuiltLolaVerifiesThroughLolaSigstore).
import _ "github.com/lola-pm/lola/host/signature"

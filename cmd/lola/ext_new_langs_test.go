package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// extTestShippedSDK is the SDK set `make build` ships in bin/sdk/.
func extTestShippedSDK(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../../bin/sdk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := extShippedSDKAt(d); err != nil {
		t.Fatalf("no shipped SDK (run `make build` first): %v", err)
	}
	return d
}

// extOfflineAuthorEnv is an author's machine with no network for Go
// modules and only the shipped SDK: a fresh LOLA_HOME, the module proxy
// off, no workspace; ext run's child is this test binary. It returns the
// shipped SDK's directory.
func extOfflineAuthorEnv(t *testing.T) string {
	t.Helper()
	sdk := extTestShippedSDK(t)
	extRunTestEnv = []string{extHostChildEnv + "=1"} // the test binary serves as the shim
	t.Cleanup(func() { extRunTestEnv = nil })
	t.Setenv("LOLA_HOME", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	return sdk
}

// TestExtNewRefusesAnIncompleteShippedSDK: --sdk naming a directory without
// all three SDKs is a usage error and writes nothing, rather than quietly
// scaffolding against some other copy.
func TestExtNewRefusesAnIncompleteShippedSDK(t *testing.T) {
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "go", "sdk-go"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "x")
	code, _, errOut := extCLI(t, "ext", "new", "--lang", "rust", "--sdk", bad, "x", dir)
	if code != exitUsage || !strings.Contains(errOut, "--sdk") || !strings.Contains(errOut, "go/sdk-go") {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s was created", dir)
	}
}

// extNewGoScaffoldNeedsNoHost: the Go scaffold's module graph holds the SDK
// and its own small dependencies, never the host or the host's (go-git,
// sigstore, ...): those are in a module cache only on a machine that built
// lola, so a scaffold needing them would not build or test offline
// elsewhere. Its own tests then pass with the module proxy off.
func extNewGoScaffoldNeedsNoHost(t *testing.T, dir string) {
	t.Helper()
	list := exec.Command("go", "list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}} {{end}}", "./...")
	list.Dir = dir
	mods, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps -test: %v\n%s", err, mods)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"github.com/lola-pm/lola/host ", "github.com/lola-pm/lola/sdk-go/lolatest ", "github.com/go-git/", "github.com/sigstore/"} {
		if strings.Contains(string(mods), m) || strings.Contains(string(sum), m) {
			t.Errorf("the scaffold's build or go.sum needs %s:\n%s\n%s", strings.TrimSpace(m), mods, sum)
		}
	}
	test := exec.Command("go", "test", "./...")
	test.Dir = dir
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("go test in the scaffold, proxy off: %v\n%s", err, out)
	}
}

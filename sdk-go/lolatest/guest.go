package lolatest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testOnly are the markers of code that belongs in test binaries only: a
// guest carrying one of them links lolatest, or what lolatest links. The
// lolatest marker ends in the dot that starts a symbol name, so that a
// package below lolatest/ (its own fixture) is not mistaken for it.
var testOnly = []string{"lola-pm/lola/sdk-go/lolatest.", "lola-pm/lola/host/", "tetratelabs/wazero", "santhosh-tekuri/jsonschema"}

// CheckGuest fails t unless both builds of an extension (paths from
// Build; either may be empty to skip it) link nothing but the SDK, schema
// and the standard library: no lolatest, wazero or jsonschema, whether as
// a module (`go version -m`) or as package paths in the binary's symbol
// table. Since lolatest imports wazero and the host, this is the proof that lolatest
// was only imported from _test.go files.
func CheckGuest(t testing.TB, native, wasm string) {
	t.Helper()
	if err := guestLeaks(native, wasm); err != nil {
		t.Fatal(err)
	}
}

func guestLeaks(native, wasm string) error {
	if native != "" {
		out, err := exec.Command(goTool(), "version", "-m", native).CombinedOutput()
		if err != nil {
			return fmt.Errorf("go version -m: %v\n%s", err, out)
		}
		for _, bad := range []string{"lola-pm/lola/host", "tetratelabs/wazero", "santhosh-tekuri/jsonschema"} {
			if strings.Contains(string(out), bad) {
				return fmt.Errorf("the native build links %s (is lolatest imported from a non-test file?):\n%s", bad, out)
			}
		}
	}
	for _, bin := range []string{native, wasm} {
		if bin == "" {
			continue
		}
		b, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte("lola-pm/lola/sdk-go")) {
			return fmt.Errorf("%s carries no package paths: the check would be vacuous", filepath.Base(bin))
		}
		for _, bad := range testOnly {
			if bytes.Contains(b, []byte(bad)) {
				return fmt.Errorf("a guest build carries %s (is lolatest imported from a non-test file?)", bad)
			}
		}
	}
	return nil
}

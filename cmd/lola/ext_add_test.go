package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/schema"
)

// The author path for a native extension, end to end through the CLI:
// ext sign -> ext add (trusted key) -> ext ls shows the signer -> ext run
// runs the pinned bytes -> the artifact is swapped -> ext run refuses it
// (extension.changed, exit 4, audited, the swapped program never ran) ->
// ext rm.
func TestExtSignAddRunSwapRm(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	src := filepath.Join(work, "demo")
	marker := filepath.Join(work, "swapped-ran")
	script := "#!/bin/sh\ncat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[]}'\n"
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml": "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/demo\npaths: [demo/]\n",
	})
	os.MkdirAll(filepath.Join(src, "dist"), 0o755)
	if err := os.WriteFile(filepath.Join(src, "dist", "demo"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	keyFile, pub := authorKey(t, work)
	os.WriteFile(filepath.Join(home, "alice.pub"), pub, 0o644)

	// Unsigned: refused, nothing installed.
	if code, _, errOut := extLsLola(t, home, "ext", "add", src); code != exitUsage || !strings.Contains(errOut, "not signed") {
		t.Fatalf("unsigned add: %d %s", code, errOut)
	}
	if code, _, errOut := extLsLola(t, home, "ext", "sign", "--key", keyFile, filepath.Join(src, "dist", "demo")); code != 0 {
		t.Fatalf("sign: %d %s", code, errOut)
	}
	// Signed, but the key is not trusted yet.
	if code, _, errOut := extLsLola(t, home, "ext", "add", src); code != exitUsage || !strings.Contains(errOut, "does not trust") {
		t.Fatalf("untrusted add: %d %s", code, errOut)
	}
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("trust:\n  keys: [{name: alice, file: alice.pub}]\n"), 0o644)
	if code, out, errOut := extLsLola(t, home, "ext", "add", src); code != 0 || !strings.Contains(out, "signed by key alice") {
		t.Fatalf("add: %d %s %s", code, out, errOut)
	}
	if code, out, _ := extLsLola(t, home, "ext", "ls"); code != 0 || !strings.Contains(out, "verified:key:alice") {
		t.Fatalf("ls: %d %s", code, out)
	}
	root := t.TempDir()
	if code, _, errOut := extLsLola(t, home, "ext", "run", "--root", root, "demo"); code != 0 {
		t.Fatalf("pinned run: %d %s", code, errOut)
	}

	installed := filepath.Join(home, "extensions", "demo", "dist", "demo")
	os.WriteFile(installed, []byte("#!/bin/sh\ntouch "+marker+"\n"+script[len("#!/bin/sh\n"):]), 0o755)
	code, _, errOut := extLsLola(t, home, "ext", "run", "--root", root, "demo")
	if code != exitExtension || !strings.Contains(errOut, "extension.changed") {
		t.Fatalf("swapped run: %d %s", code, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the swapped artifact ran")
	}
	entries, err := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Rejected == nil || len(last.Rejected.Violations) != 1 || last.Rejected.Violations[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("audit tail %+v", last)
	}
	if code, _, errOut := extLsLola(t, home, "ext", "rm", "demo"); code != 0 {
		t.Fatalf("rm: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "extensions", "demo")); err == nil {
		t.Fatal("rm left the directory")
	}
}

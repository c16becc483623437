package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExtPackThenAddTheArchive: ext pack writes NAME-VERSION.tar.gz in the
// working directory (the same bytes twice, whatever the files' times),
// warns about an unsigned native artifact and an unbuilt tier, refuses an
// output name ext add would not recognise; ext add of the archive installs
// only what the manifest names, while the project's own files stay out.
func TestExtPackThenAddTheArchive(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Chdir(work)
	src := filepath.Join(work, "demo")
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml":   "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/demo.wasm\n  tier2: dist/demo\npaths: [demo/]\n",
		"dist/demo":             "#!/bin/sh\n",
		"src/main.rs":           "fn main() {}\n",
		"target/release/demo.d": "deps\n",
		"node_modules/.keep":    "",
	})
	os.Symlink("../x/bin/asc.js", filepath.Join(src, "node_modules", "asc"))

	code, out, errOut := extLsLola(t, home, "ext", "pack", src)
	if code != exitOK || !strings.Contains(out, "packed demo 1.0.0 into demo-1.0.0.tar.gz") ||
		!strings.Contains(errOut, "tier1 artifact is not built") || !strings.Contains(errOut, "tier2 (native) artifact has no .sigstore.json bundle") {
		t.Fatalf("pack: exit %d\n%s%s", code, out, errOut)
	}
	first, err := os.ReadFile(filepath.Join(work, "demo-1.0.0.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(48 * time.Hour)
	os.Chtimes(filepath.Join(src, "dist", "demo"), later, later)
	if code, _, errOut := extLsLola(t, home, "ext", "pack", "-o", "again.tgz", src); code != exitOK {
		t.Fatalf("second pack: %d %s", code, errOut)
	}
	if again, _ := os.ReadFile(filepath.Join(work, "again.tgz")); !bytes.Equal(again, first) {
		t.Fatal("packing the same files twice gave different bytes")
	}
	if code, _, errOut := extLsLola(t, home, "ext", "pack", "-o", "demo.zip", src); code != exitUsage || !strings.Contains(errOut, ".tar.gz or .tgz") {
		t.Fatalf("pack -o demo.zip: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "demo.zip")); err == nil {
		t.Fatal("a refused pack wrote its output")
	}

	if code, out, errOut := extLsLola(t, home, "ext", "add", "--allow-unsigned", "demo-1.0.0.tar.gz"); code != exitOK || !strings.Contains(out, "added demo 1.0.0") {
		t.Fatalf("add the archive: %d\n%s%s", code, out, errOut)
	}
	got := extTreeSnapshot(t, filepath.Join(home, "extensions", "demo"))
	if len(got) != 2 || got[filepath.Join(home, "extensions", "demo", "dist", "demo")] != "#!/bin/sh\n" {
		t.Fatalf("installed %v", got)
	}
}

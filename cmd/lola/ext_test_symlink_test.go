package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// ext test --update refuses a golden that is a symbolic link: the case
// fails by path.symlink, the command exits 3, and the file the link
// points to keeps its bytes.
func TestExtTestUpdateRefusesASymlinkedGolden(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	src := filepath.Join(work, "demo")
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml":           "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/demo\npaths: [demo/]\n",
		"testdata/install.request.json": `{"protocol":1,"operation":"install","modules":[]}`,
	})
	os.MkdirAll(filepath.Join(src, "dist"), 0o755)
	os.WriteFile(filepath.Join(src, "dist", "demo"), []byte("#!/bin/sh\ncat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[{\"op\":\"write\",\"path\":\"demo/x\",\"content\":\"export EVIL=1\"}]}'\n"), 0o755)
	victim := filepath.Join(work, ".profile")
	os.WriteFile(victim, []byte("# mine\n"), 0o644)
	if err := os.Symlink(victim, filepath.Join(src, "testdata", "install.plan.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := extLsLola(t, home, "ext", "test", "--update", src)
	if code != exitRejected || !strings.Contains(out, "path.symlink") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(victim); string(b) != "# mine\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scenario of today's Lola: init creates the folder and says so; a
// second init of the same name is refused with exit 1 and changes nothing;
// the scaffold is a module `mod add` accepts.
func TestModInitCLI(t *testing.T) {
	modTestHome(t)
	work := t.TempDir()
	t.Chdir(work)
	code, out, errOut := runModCLI(t, "init", "test-module")
	if code != exitOK || !strings.Contains(out, "Initialized module test-module") {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	readme := filepath.Join(work, "test-module", "README.md")
	if err := os.WriteFile(readme, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runModCLI(t, "init", "test-module")
	if code != exitInternal || !strings.Contains(out+errOut, "already exists") {
		t.Fatalf("second init: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(readme); string(b) != "mine\n" {
		t.Fatalf("refused init changed README.md: %q", b)
	}
	if code, out, errOut = runModCLI(t, "init", "test-module", "--force"); code != exitOK || !strings.Contains(out, "README.md (exists, kept)") {
		t.Fatalf("init --force: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(readme); string(b) != "mine\n" {
		t.Fatalf("init --force overwrote README.md: %q", b)
	}
	if code, out, errOut = runModCLI(t, "add", "./test-module"); code != exitOK {
		t.Fatalf("mod add of the scaffold: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut = runModCLI(t, "init", "Bad Name"); code != exitUsage {
		t.Fatalf("init \"Bad Name\": exit %d %s", code, errOut)
	}
}

package modinit

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/module"
)

func full() Options {
	return Options{Skill: "example-skill", Command: "example-command", Agent: "example-agent"}
}

// A scaffold is a module lola's own reader accepts, with what was asked.
func TestInitIsAModule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-mod")
	r, err := Init(dir, full())
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "my-mod" || len(r.Skipped) != 0 {
		t.Fatalf("%+v", r)
	}
	l, err := module.Discover(dir, "my-mod")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) != 1 || l.Skills[0].Name != "example-skill" || len(l.Commands) != 1 || len(l.Agents) != 1 || !l.Instructions || len(l.MCPs) != 1 {
		t.Fatalf("layout %+v", l)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatal(err)
	}
}

func TestInitMinimal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	r, err := Init(dir, Options{NoMCPs: true, NoInstructions: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Created {
		if p != "README.md" {
			t.Errorf("minimal created %s", p)
		}
	}
	for _, d := range []string{"module/skills", "module/commands", "module/agents"} {
		if st, err := os.Stat(filepath.Join(dir, d)); err != nil || !st.IsDir() {
			t.Errorf("%s missing", d)
		}
	}
}

// An existing directory is refused and left exactly as it was.
func TestInitRefusesExisting(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(dir, full()); !errors.Is(err, ErrExists) {
		t.Fatalf("got %v, want ErrExists", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Fatalf("refused init wrote %v", es)
	}
}

// With Existing, files the author has are never overwritten.
func TestInitExistingNeverOverwrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(filepath.Join(dir, "module"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"README.md", "module/AGENTS.md"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Init(dir, Options{Existing: true, Skill: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Skipped) != 2 {
		t.Fatalf("skipped %v", r.Skipped)
	}
	for _, p := range []string{"README.md", "module/AGENTS.md"} {
		if b, _ := os.ReadFile(filepath.Join(dir, p)); string(b) != "mine\n" {
			t.Errorf("%s overwritten: %q", p, b)
		}
	}
}

// A symbolic link inside an existing directory does not carry writes out.
func TestInitExistingSymlinkEscape(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	dir := filepath.Join(base, "mine")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "module")); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(dir, Options{Existing: true, Skill: "s"}); err == nil {
		t.Fatal("init followed a symlink out of the module directory")
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Fatalf("wrote outside: %v", es)
	}
}

func TestInitRefusesBadNames(t *testing.T) {
	base := t.TempDir()
	for _, o := range []Options{{Skill: "../x"}, {Command: "a/b"}, {Agent: ".hidden"}} {
		if _, err := Init(filepath.Join(base, "ok"), o); !errors.Is(err, module.ErrName) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if _, err := Init(filepath.Join(base, "Bad Name"), Options{}); !errors.Is(err, module.ErrName) {
		t.Errorf("bad module name: %v", err)
	}
	if es, _ := os.ReadDir(base); len(es) != 0 {
		t.Fatalf("refused inits wrote %v", es)
	}
}

package modrm

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/module"
)

func storeWith(t *testing.T, home, name string) (*module.Store, module.Name) {
	t.Helper()
	src := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(src, "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "commands", "one.md"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := module.OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	source, err := module.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(context.Background(), source, module.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	n, _ := module.ParseName(name)
	return s, n
}

// Refuse by default: with installs recorded and no consent nothing is
// uninstalled or removed; a gone project's install only loses its record;
// without installs the module goes.
func TestRemove(t *testing.T) {
	home := t.TempDir()
	s, n := storeWith(t, home, "m")
	gone := filepath.Join(t.TempDir(), "gone")
	rec := "version: '1.0'\ninstallations:\n  - module: m\n    assistant: claude-code\n    scope: project\n    project_path: " + gone + "\n    skills: []\n"
	if err := os.WriteFile(filepath.Join(home, "installed.yml"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Base: install.Options{Home: home}}
	var inUse *install.InUseError
	if _, err := Remove(context.Background(), s, n, o); !errors.As(err, &inUse) || len(inUse.Installs) != 1 {
		t.Fatalf("without consent: %v", err)
	}
	if _, err := s.Get(n); err != nil {
		t.Fatal("a refused removal removed the module")
	}
	o.Uninstall = true
	res, err := Remove(context.Background(), s, n, o)
	if err != nil || len(res.Stale) != 1 || !res.Removed {
		t.Fatalf("with consent: %+v %v", res, err)
	}
	if _, err := s.Get(n); !errors.Is(err, module.ErrNotFound) {
		t.Fatalf("the module is still in the store: %v", err)
	}
	reg, err := install.ReadRegistry(home)
	if err != nil || len(reg.All()) != 0 {
		t.Fatalf("records left: %v %v", reg.All(), err)
	}
	if _, err := Remove(context.Background(), s, n, o); !errors.Is(err, module.ErrNotFound) {
		t.Fatalf("removing it again: %v", err)
	}
}

// Confirm is asked before anything changes, even for a module installed
// nowhere (as today's Lola asks); its refusal leaves the store and
// installed.yml as they were, and its consent uninstalls and removes.
func TestRemoveAsksConfirmFirst(t *testing.T) {
	home := t.TempDir()
	s, n := storeWith(t, home, "m")
	var asked [][]install.Record
	no := errors.New("no")
	o := Options{Base: install.Options{Home: home}, Confirm: func(r []install.Record) error {
		asked = append(asked, r)
		return no
	}}
	if _, err := Remove(context.Background(), s, n, o); !errors.Is(err, no) {
		t.Fatalf("a refused confirmation: %v", err)
	}
	if len(asked) != 1 || len(asked[0]) != 0 {
		t.Fatalf("confirm was asked %v", asked)
	}
	if _, err := s.Get(n); err != nil {
		t.Fatalf("a refused confirmation removed the module: %v", err)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	rec := "version: '1.0'\ninstallations:\n  - module: m\n    assistant: claude-code\n    scope: project\n    project_path: " + gone + "\n    skills: []\n"
	if err := os.WriteFile(filepath.Join(home, "installed.yml"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Remove(context.Background(), s, n, o); !errors.Is(err, no) || len(asked) != 2 || len(asked[1]) != 1 {
		t.Fatalf("refused with an install recorded: %v, asked %v", err, asked)
	}
	if reg, err := install.ReadRegistry(home); err != nil || len(reg.All()) != 1 {
		t.Fatalf("a refused confirmation changed installed.yml: %v %v", reg, err)
	}
	if _, err := Remove(context.Background(), noSuchStore(t, home), n, o); !errors.Is(err, module.ErrNotFound) || len(asked) != 2 {
		t.Fatalf("a missing module must be not found before any question: %v, asked %d", err, len(asked))
	}
	o.Confirm = func([]install.Record) error { return nil }
	if res, err := Remove(context.Background(), s, n, o); err != nil || !res.Removed || len(res.Stale) != 1 {
		t.Fatalf("with consent: %+v %v", res, err)
	}
}

func noSuchStore(t *testing.T, home string) *module.Store {
	t.Helper()
	s, err := module.OpenStore(filepath.Join(home, "other"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

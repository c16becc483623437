package modsource

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/module"
)

func setup(t *testing.T) (home, src string, store *module.Store, name module.Name) {
	t.Helper()
	home, src = t.TempDir(), filepath.Join(t.TempDir(), "mymod")
	write(t, src, "skills/one/SKILL.md", "---\ndescription: one\n---\n")
	store, err := module.OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	s, err := module.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	added, err := store.Add(context.Background(), s, module.AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(home, added.Module.Name(), Of(s, "", "", added)); err != nil {
		t.Fatal(err)
	}
	return home, src, store, added.Module.Name()
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skills(t *testing.T, store *module.Store, name module.Name) []string {
	t.Helper()
	m, err := store.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range m.Layout().Skills {
		out = append(out, s.Name)
	}
	return out
}

func TestUpdateRefetches(t *testing.T) {
	home, src, store, name := setup(t)
	write(t, src, "skills/two/SKILL.md", "---\ndescription: two\n---\n")
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := skills(t, store, name); len(got) != 2 {
		t.Fatalf("after update: %v", got)
	}
}

// A source that now fails the store's rules leaves the module as it was.
func TestUpdateRefusedKeepsModule(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	home, src, store, name := setup(t)
	write(t, src, "skills/two/SKILL.md", "x")
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "skills/one/leak")); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{}); err == nil {
		t.Fatal("update accepted a symlink")
	}
	if got := skills(t, store, name); len(got) != 1 || got[0] != "one" {
		t.Fatalf("refused update changed the module: %v", got)
	}
}

func TestUpdateRefusals(t *testing.T) {
	home, _, store, name := setup(t)
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{Ref: "v1"}); !errors.Is(err, ErrNotGit) {
		t.Errorf("ref on a folder module: %v", err)
	}
	if err := Remove(home, name); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{}); !errors.Is(err, ErrNoRecord) {
		t.Errorf("no record: %v", err)
	}
	if err := os.WriteFile(filepath.Join(home, Dir, name.String()+".yml"), []byte("source: /x\nkind: folder\nextra: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(home, name); err == nil {
		t.Error("a record with an unknown key was accepted")
	}
	other, _ := module.ParseName("absent")
	if _, err := Update(context.Background(), store, home, other, UpdateOptions{}); !errors.Is(err, module.ErrNotFound) {
		t.Errorf("absent module: %v", err)
	}
}

package modsource

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
	if err := os.Remove(filepath.Join(home, module.ModulesDir, name.String(), filepath.FromSlash(module.SourceInfoFile))); err != nil {
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

// upstreamStored writes a module as today's Lola stores one: the whole
// source tree and its .lola/source.yml, with no record of ours.
func upstreamStored(t *testing.T, home, name, sourceYML string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(home, module.ModulesDir, name)
	for rel, body := range files {
		write(t, dir, rel, body)
	}
	write(t, dir, module.SourceInfoFile, sourceYML)
}

// A module today's Lola added has no record of ours: its .lola/source.yml
// is adopted (marked Upstream) with its content directory, Update fetches
// from it, and afterwards the record is ours and the module's
// .lola/source.yml is lola's rewrite of it.
func TestUpdateAdoptsTodaysLolaRecord(t *testing.T) {
	home := t.TempDir()
	store, err := module.OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(t.TempDir(), "mono")
	write(t, repo, "plugins/dev/skills/one/SKILL.md", "---\ndescription: one\n---\n")
	write(t, repo, "plugins/dev/skills/two/SKILL.md", "---\ndescription: two\n---\n")
	write(t, repo, "scripts/shared.sh", "echo\n")
	upstreamStored(t, home, "dev", "content_dirname: plugins/dev\nsource: "+repo+"\ntype: folder\n",
		map[string]string{"plugins/dev/skills/one/SKILL.md": "---\ndescription: one\n---\n"})
	name, _ := module.ParseName("dev")
	r, err := Read(home, name)
	if err != nil || !r.Upstream || r.Source != repo || r.Kind != "folder" || r.Content != "plugins/dev" {
		t.Fatalf("adopted record %+v %v", r, err)
	}
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := skills(t, store, name); len(got) != 2 {
		t.Fatalf("after update: %v", got)
	}
	if r, err := Read(home, name); err != nil || r.Upstream || r.Content != "plugins/dev" {
		t.Fatalf("record after the update %+v %v", r, err)
	}
	b, err := os.ReadFile(filepath.Join(home, module.ModulesDir, "dev", filepath.FromSlash(module.SourceInfoFile)))
	if err != nil || string(b) != "content_dirname: plugins/dev\nsource: "+repo+"\ntype: folder\n" {
		t.Fatalf("the module's source.yml after the update:\n%s %v", b, err)
	}
}

// Our record, when there is one, is the only one read: a module's
// .lola/source.yml naming another source changes nothing. An adopted
// record fetches only what 'lola mod add' would: a type lola does not
// fetch, a source whose kind is not its type, or a source ParseSource
// refuses is refused, and the module stays as it was.
func TestUpdateRefusesWhatTodaysLolaRecordCannotName(t *testing.T) {
	home, src, store, name := setup(t)
	forged := filepath.Join(t.TempDir(), "forged")
	write(t, forged, "skills/planted/SKILL.md", "x")
	write(t, filepath.Join(home, module.ModulesDir, name.String()), module.SourceInfoFile, "source: "+forged+"\ntype: folder\n")
	if r, err := Read(home, name); err != nil || r.Upstream || r.Source != src {
		t.Fatalf("our record lost to the module's: %+v %v", r, err)
	}
	if _, err := Update(context.Background(), store, home, name, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := skills(t, store, name); len(got) != 1 || got[0] != "one" {
		t.Fatalf("updated from the module's own record: %v", got)
	}

	for i, tc := range []struct {
		yml  string
		want func(error) bool
	}{
		{"source: " + forged + "\ntype: svn\n", func(err error) bool { return errors.Is(err, ErrSourceType) }},
		{"source: https://example.org/x.git\ntype: folder\n", func(err error) bool { return errors.Is(err, ErrSourceType) }},
		{"source: " + forged + "\ntype: git\n", func(err error) bool { return errors.Is(err, ErrSourceType) }},
		{"source: http://example.org/x.git\ntype: git\n", func(err error) bool { return err != nil && strings.Contains(err.Error(), "remote.scheme") }},
		{"source: file:///etc\ntype: git\n", func(err error) bool { return err != nil && strings.Contains(err.Error(), "remote.scheme") }},
		{"source: " + filepath.Join(forged, "gone") + "\ntype: folder\n", func(err error) bool { return err != nil && strings.Contains(err.Error(), "not found") }},
		{"type: folder\n", func(err error) bool { return errors.Is(err, ErrNoRecord) }},
	} {
		n, _ := module.ParseName(fmt.Sprintf("m%d", i))
		upstreamStored(t, home, n.String(), tc.yml, map[string]string{"skills/kept/SKILL.md": "x"})
		_, err := Update(context.Background(), store, home, n, UpdateOptions{})
		if !tc.want(err) {
			t.Errorf("%q: %v", tc.yml, err)
		}
		if got := skills(t, store, n); len(got) != 1 || got[0] != "kept" {
			t.Errorf("%q: the refused update changed the module: %v", tc.yml, got)
		}
		if _, err := os.Stat(filepath.Join(home, Dir, n.String()+".yml")); err == nil {
			t.Errorf("%q: a refused update recorded a source", tc.yml)
		}
	}
}

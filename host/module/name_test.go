package module

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

func TestParseName(t *testing.T) {
	for _, ok := range []string{"a", "0", "my-skills", "a.b_c-d", "x123456789012345678901234567890123456789012345678901234567890ab"} {
		if _, err := ParseName(ok); err != nil {
			t.Errorf("ParseName(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", ".hidden", "-x", "_x", "A", "My", "a/b", `a\b`, "a b", "a\x00", "con.", "x.", "é",
		"x1234567890123456789012345678901234567890123456789012345678901234"} {
		if _, err := ParseName(bad); !errors.Is(err, ErrName) {
			t.Errorf("ParseName(%q) = %v; want ErrName", bad, err)
		}
	}
}

func TestDeriveName(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/user/My-Skills.git": "my-skills",
		"https://github.com/user/repo/":         "repo",
		"git@github.com:user/tools.git":         "tools",
		"ssh://git@host/org/team-skills.git":    "team-skills",
		"/home/u/Downloads/skills.zip":          "skills",
		"./bundle.tar.gz":                       "bundle",
		"./bundle.TGZ":                          "bundle",
		"/srv/modules/pdf.tar":                  "pdf",
		"https://host/r.git?x=1#frag":           "r",
		`C:\Users\u\mods\win-mod`:               "win-mod",
	} {
		n, err := DeriveName(in)
		if err != nil || n.String() != want {
			t.Errorf("DeriveName(%q) = %q, %v; want %q", in, n, err, want)
		}
	}
	for _, bad := range []string{"/", "https://host/.git", "/x/Sp ace"} {
		if _, err := DeriveName(bad); !errors.Is(err, ErrName) {
			t.Errorf("DeriveName(%q): %v; want ErrName", bad, err)
		}
	}
}

func TestLimitVocabularyRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range AllLimits() {
		s := l.String()
		if s == "" || seen[s] {
			t.Fatalf("limit %d spelled %q", l, s)
		}
		seen[s] = true
		if back, ok := ParseLimit(s); !ok || back != l {
			t.Fatalf("ParseLimit(%q) = %v, %v", s, back, ok)
		}
	}
	if len(seen) != int(limitEnd)-1 {
		t.Fatalf("AllLimits lists %d of %d", len(seen), int(limitEnd)-1)
	}
	if _, ok := ParseLimit("module.nope"); ok {
		t.Fatal("unknown limit parsed")
	}
	for k := sourceUnknown + 1; k < sourceEnd; k++ {
		if k.String() == "" || k.String() == "source(?)" {
			t.Fatalf("source kind %d unspelled", k)
		}
	}
}

func TestParseSource(t *testing.T) {
	dir := t.TempDir()
	for name, kind := range map[string]SourceKind{"m.zip": SourceZip, "m.tar": SourceTar, "m.tar.gz": SourceTar, "m.TGZ": SourceTar} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, nil, 0o600)
		if src, err := ParseSource(p); err != nil || src.Kind() != kind {
			t.Errorf("ParseSource(%s) = %v, %v; want %v", name, src.Kind(), err, kind)
		}
	}
	if src, err := ParseSource(dir); err != nil || src.Kind() != SourceFolder {
		t.Errorf("folder: %v, %v", src.Kind(), err)
	}
	os.WriteFile(filepath.Join(dir, "m.rar"), nil, 0o600)
	if _, err := ParseSource(filepath.Join(dir, "m.rar")); err == nil {
		t.Error("a .rar accepted")
	}
	if _, err := ParseSource(filepath.Join(dir, "absent")); err == nil {
		t.Error("a missing path accepted")
	}
	for in, want := range map[string]string{
		"https://github.com/u/r.git": "https://github.com/u/r.git",
		"ssh://git@host/u/r.git":     "ssh://git@host/u/r.git",
		"git@github.com:u/r.git":     "ssh://git@github.com/u/r.git",
		"git@[::1]:r.git":            "ssh://git@[::1]/r.git",
		"git@[fe80::1]:/srv/r.git":   "ssh://git@[fe80::1]/srv/r.git",
		"git@host:[x]/r.git":         "ssh://git@host/[x]/r.git",
	} {
		src, err := ParseSource(in)
		if err != nil || src.Kind() != SourceGit || src.Location() != want {
			t.Errorf("ParseSource(%q) = %v %q, %v; want git %q", in, src.Kind(), src.Location(), err, want)
		}
	}
	for _, in := range []string{"http://example.org/r.git", "git://example.org/r.git", "file:///tmp/r"} {
		_, err := ParseSource(in)
		assertRule(t, err, schema.RuleRemoteScheme)
	}
	// Not scp-like: a local path (absent here, so "not found").
	for _, in := range []string{"git@[::1]r.git", "git@[]:r.git", "a/git@host:r", "git@:r", "u:x@host:r"} {
		if src, err := ParseSource(in); err == nil || src.Kind() == SourceGit {
			t.Errorf("ParseSource(%q) = %v %q: not an scp-like URL", in, src.Kind(), src.Location())
		}
	}
	if n, err := DeriveName("git@[::1]:team/tools.git"); err != nil || n.String() != "tools" {
		t.Errorf("DeriveName of a bracketed host: %v %v", n, err)
	}
	// An https URL whose path names an archive is fetched, not cloned; the
	// query does not decide.
	for in, want := range map[string]SourceKind{
		"https://example.org/m.zip":          SourceZip,
		"https://example.org/m.TAR.GZ?x=1":   SourceTar,
		"https://example.org/r/v1.tgz":       SourceTar,
		"https://example.org/m.tar":          SourceTar,
		"https://example.org/dl?file=m.zip":  sourceUnknown, // a git URL
		"https://example.org/m.zip/repo.git": sourceUnknown,
	} {
		src, err := ParseSource(in)
		if want == sourceUnknown {
			if err != nil || src.Kind() != SourceGit {
				t.Errorf("ParseSource(%q) = %v, %v; want git", in, src.Kind(), err)
			}
			continue
		}
		if err != nil || src.Kind() != SourceArchiveURL || src.archive != want || src.Location() != in || !src.IsRemote() {
			t.Errorf("ParseSource(%q) = %v/%v %q, %v; want archive-url of %v", in, src.Kind(), src.archive, src.Location(), err, want)
		}
	}
	// An archive over anything but https is refused by scheme.
	for _, in := range []string{"ssh://git@example.org/m.zip", "http://example.org/m.tar.gz"} {
		_, err := ParseSource(in)
		assertRule(t, err, schema.RuleRemoteScheme)
	}
}

// fakeCloner writes a checkout into dir, as host/remote would, and records
// the request it was handed.
type fakeCloner struct {
	got     remote.CloneRequest
	entries []entry
	link    string // when set, also plants a symlink at this path
	err     error
}

func (f *fakeCloner) Clone(_ context.Context, req remote.CloneRequest, dir string, _ remote.HopObserver) (remote.CloneReport, error) {
	f.got = req
	if f.err != nil {
		return remote.CloneReport{}, f.err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return remote.CloneReport{}, err
	}
	for _, e := range f.entries {
		p := filepath.Join(dir, filepath.FromSlash(e.name))
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte(e.body), 0o600)
	}
	if f.link != "" {
		os.Symlink("/etc", filepath.Join(dir, f.link))
	}
	return remote.CloneReport{Commit: "0123456789abcdef0123456789abcdef01234567"}, nil
}

func TestGitSourceThroughCloner(t *testing.T) {
	s, _ := newStore(t)
	c := &fakeCloner{entries: []entry{file("skills/alpha/SKILL.md", "---\ndescription: A\n---\n"), file(".git/HEAD", "ref")}}
	added, err := s.Add(context.Background(), mustSource(t, "git@github.com:u/team-skills.git"), AddOptions{Cloner: c, Ref: "v1.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	if c.got.Clone.URL != "ssh://git@github.com/u/team-skills.git" || c.got.Clone.Ref != "v1.2.0" || c.got.Clone.Depth != 1 || c.got.Intent.Op != schema.OpClone {
		t.Fatalf("clone request %+v", c.got)
	}
	if added.Module.Name().String() != "team-skills" || added.Clone == nil || added.Clone.Commit == "" {
		t.Fatalf("added %+v", added)
	}
	if _, err := os.Stat(filepath.Join(added.Module.Dir(), ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal(".git kept in the store")
	}
	if got := storeEntries(t, s); len(got) != 1 {
		t.Fatalf("store holds %v", got)
	}
}

func TestGitSourceRefusals(t *testing.T) {
	t.Run("symlink-in-checkout", func(t *testing.T) {
		s, _ := newStore(t)
		c := &fakeCloner{entries: goodEntries, link: "skills/alpha/etc"}
		_, err := s.Add(context.Background(), mustSource(t, "https://example.org/r.git"), AddOptions{Cloner: c})
		assertRule(t, err, schema.RulePathAbsolute)
		if !c.got.KeepLinks {
			t.Error("module intake did not ask the clone to keep its links")
		}
		assertStoreEmpty(t, s)
	})
	t.Run("clone-refused", func(t *testing.T) {
		s, _ := newStore(t)
		c := &fakeCloner{err: errors.New("remote.destination: refused")}
		if _, err := s.Add(context.Background(), mustSource(t, "https://example.org/r.git"), AddOptions{Cloner: c}); err == nil {
			t.Fatal("accepted")
		}
		assertStoreEmpty(t, s)
	})
	t.Run("no-cloner", func(t *testing.T) {
		s, _ := newStore(t)
		if _, err := s.Add(context.Background(), mustSource(t, "https://example.org/r.git"), AddOptions{}); err == nil {
			t.Fatal("accepted")
		}
		assertStoreEmpty(t, s)
	})
	t.Run("commit-ref-clones-full-depth", func(t *testing.T) {
		s, _ := newStore(t)
		c := &fakeCloner{entries: goodEntries}
		if _, err := s.Add(context.Background(), mustSource(t, "https://example.org/r.git"), AddOptions{Cloner: c, Ref: "0123456789abcdef0123456789abcdef01234567"}); err != nil {
			t.Fatal(err)
		}
		if c.got.Clone.Depth != 0 {
			t.Fatalf("depth %d for a commit ref", c.got.Clone.Depth)
		}
	})
}

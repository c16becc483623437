package market

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote"
)

// fakeCloner writes files ("->target" a symbolic link) as a checkout, as
// a cloner that let a link through would; it records the request.
type fakeCloner struct {
	files map[string]string
	got   remote.CloneRequest
}

func (f *fakeCloner) Clone(_ context.Context, req remote.CloneRequest, dir string, _ remote.HopObserver) (remote.CloneReport, error) {
	f.got = req
	for name, body := range f.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o700)
		if target, ok := strings.CutPrefix(body, "->"); ok {
			os.Symlink(target, p)
			continue
		}
		os.WriteFile(p, []byte(body), 0o600)
	}
	return remote.CloneReport{}, nil
}

func gitRegistry(t *testing.T, files map[string]string) (*Registry, *fakeCloner, string) {
	t.Helper()
	home := t.TempDir()
	c := &fakeCloner{files: files}
	r := Open(home, nil, nil)
	r.cloner = c
	return r, c, home
}

func TestGitCatalogRefusals(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.yml")
	os.WriteFile(outside, []byte(goodCatalog), 0o600)
	huge := "name: x\nmodules: []\ndescription: '" + strings.Repeat("a", MaxCatalogBytes) + "'\n"
	for _, tc := range []struct {
		name, url string
		files     map[string]string
		rule      string
		noFile    bool
		want      string
	}{
		{"fragment traversal", "git+https://example.com/m.git#../../outside.yml", map[string]string{"a.yml": goodCatalog}, "path.traversal", false, ""},
		{"fragment absolute", "git+https://example.com/m.git#/etc/passwd", nil, "path.absolute", false, ""},
		{"symlinked catalog", "git+https://example.com/m.git", map[string]string{"community.yml": "->" + outside}, "path.symlink", false, ""},
		{"symlinked directory", "git+https://example.com/m.git#cat/market.yml", map[string]string{"cat": "->" + filepath.Dir(outside)}, "path.symlink", false, ""},
		{"over the bound", "git+https://example.com/m.git", map[string]string{"marketplace.yml": huge}, "remote.bound", false, ""},
		{"ambiguous", "git+https://example.com/m.git", map[string]string{"one.yml": goodCatalog, "two.yaml": goodCatalog}, "", true, `multiple YAML files found in repository root: "one.yml", "two.yaml"`},
		{"none", "git+https://example.com/m.git", map[string]string{"README.md": "x", ".pre-commit-config.yaml": "x"}, "", true, "no YAML files found"},
		{"fragment missing", "git+https://example.com/m.git#cat/market.yml", map[string]string{"a.yml": goodCatalog}, "", true, `file "cat/market.yml" not found in repository`},
		{"git+http", "git+http://example.com/m.git", nil, "remote.scheme", false, ""},
		{"git+file", "git+file:///tmp/m.git", nil, "remote.scheme", false, ""},
		{"http .git", "http://example.com/m.git", nil, "remote.scheme", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _, home := gitRegistry(t, tc.files)
			_, err := r.Add(context.Background(), "community", tc.url)
			if err == nil || ruleOf(err) != tc.rule || errors.Is(err, ErrNoCatalogFile) != tc.noFile || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v (rule %q), want rule %q, no-file %v, %q", err, ruleOf(err), tc.rule, tc.noFile, tc.want)
			}
			nothingRegistered(t, home)
		})
	}
}

func TestGitCatalogPicks(t *testing.T) {
	for _, tc := range []struct {
		name, url, clone string
		files            map[string]string
	}{
		{"fragment", "git+https://example.com/m.git#cats/c.yml", "https://example.com/m.git", map[string]string{"cats/c.yml": goodCatalog, "other.yml": "bad: [", "community.yml": "bad: ["}},
		{"name.yml first", "git+ssh://git@example.com/m.git", "ssh://git@example.com/m.git", map[string]string{"community.yml": goodCatalog, "marketplace.yml": "bad: ["}},
		{"marketplace.yaml", "git@example.com:org/m.git", "ssh://git@example.com/org/m.git", map[string]string{"marketplace.yaml": goodCatalog, "other.yml": "bad: ["}},
		{"single file", "https://example.com/org/m.git", "https://example.com/org/m.git", map[string]string{"general-market.yml": goodCatalog, ".pre-commit-config.yaml": "x", "README.md": "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, c, home := gitRegistry(t, tc.files)
			cat, err := r.Add(context.Background(), "community", tc.url)
			if err != nil || len(cat.Modules) != 2 {
				t.Fatalf("%+v %v", cat, err)
			}
			if c.got.Clone.URL != tc.clone || c.got.Extension != "market:community" {
				t.Fatalf("clone request %+v", c.got)
			}
			ref, err := r.Ref("community")
			if err != nil || ref.URL != tc.url {
				t.Fatalf("stored %+v %v; want the URL as given", ref, err)
			}
			if es, _ := os.ReadDir(filepath.Join(home, CacheDir)); len(es) != 1 {
				t.Fatalf("cache holds %v; want the catalog only (scratch removed)", es)
			}
			// update clones again and picks up a changed catalog
			for k := range tc.files {
				if tc.files[k] == goodCatalog {
					tc.files[k] = strings.Replace(goodCatalog, "name: python-lint", "name: ruby-lint", 1)
				}
			}
			if _, err := r.Update(context.Background(), "community"); err != nil {
				t.Fatal(err)
			}
			if hits, _ := r.Search("ruby"); len(hits) != 1 || hits[0].Entry.Name != "ruby-lint" {
				t.Fatalf("after update: %+v", hits)
			}
		})
	}
}

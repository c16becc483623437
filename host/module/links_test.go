package module

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
	"github.com/lola-pm/lola/schema"
)

// sourceKinds are the module sources whose symbolic links follow the
// source-link rule: a folder, a git repository (cloned over https from a
// local git http-backend), a .tar.gz and a .zip.
var sourceKinds = []string{"folder", "git", "tar", "zip"}

const outsideMarker = "OUTSIDE-SECRET"

// linkedSource builds a source of kind holding entries (files, links;
// directories where the kind keeps them) at its root, with a file
// holding outsideMarker beside the root, and returns the source and the
// AddOptions that reach it. A folder source is base/m.
func linkedSource(t *testing.T, kind string, entries []entry) (Source, AddOptions) {
	t.Helper()
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "outside.md"), []byte(outsideMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "folder":
		root := filepath.Join(base, "m")
		writeTree(t, root, entries)
		return mustSource(t, root), AddOptions{}
	case "tar":
		p := filepath.Join(base, "m.tar.gz")
		writeTar(t, p, true, entries)
		return mustSource(t, p), AddOptions{}
	case "zip":
		p := filepath.Join(base, "m.zip")
		writeZip(t, p, entries)
		return mustSource(t, p), AddOptions{}
	}
	repo := remotetest.NewGitRepo(t)
	files := map[string]string{}
	var executable []string
	for _, e := range entries {
		switch e.kind {
		case 'f':
			files[e.name] = e.body
			if e.mode&0o111 != 0 {
				executable = append(executable, e.name)
			}
		case 'l':
			files[e.name] = "->" + e.body
		}
	}
	repo.Commit(files)
	if len(executable) > 0 {
		repo.Executable(executable...)
	}
	src, c := gitSource(t, repo)
	return src, AddOptions{Cloner: c}
}

// linkBase is a module with content for links to reach: a skill, shared
// notes two levels deep, and an executable script.
var linkBase = []entry{
	file("skills/alpha/SKILL.md", "---\ndescription: Alpha\n---\nbody\n"),
	file("shared/notes/a.md", "note a\n"),
	file("shared/notes/sub/b.md", "note b\n"),
	{name: "shared/run.sh", kind: 'f', body: "#!/bin/sh\necho run\n", mode: 0o755},
}

func link(name, target string) entry { return entry{name: name, kind: 'l', body: target} }

// TestSourceLinksInsideTheRootAreCopied: for every source kind, a link
// whose target resolves inside the source's root is stored as a copy of
// its target (a regular file with the target's execute bit, or a
// directory copied whole), through chains of links, through a linked
// directory, and with ".." taken from where a linked directory really is
// (as the kernel does), not from the link's spelling.
func TestSourceLinksInsideTheRootAreCopied(t *testing.T) {
	cases := []struct {
		name  string
		links []entry
		want  map[string]string // files stored besides linkBase's
	}{
		{"file", []entry{link("skills/alpha/run.sh", "../../shared/run.sh")},
			map[string]string{"skills/alpha/run.sh": "#!/bin/sh\necho run\n"}},
		{"directory", []entry{link("skills/alpha/notes", "../../shared/notes")},
			map[string]string{"skills/alpha/notes/a.md": "note a\n", "skills/alpha/notes/sub/b.md": "note b\n"}},
		{"chain", []entry{link("skills/alpha/c1", "c2"), link("skills/alpha/c2", "../../shared/c3"), link("shared/c3", "notes/sub/b.md")},
			map[string]string{"skills/alpha/c1": "note b\n", "skills/alpha/c2": "note b\n", "shared/c3": "note b\n"}},
		{"through-a-linked-directory", []entry{link("skills/alpha/b.md", "../../lnk/sub/b.md"), link("lnk", "shared/notes")},
			map[string]string{"skills/alpha/b.md": "note b\n", "lnk/a.md": "note a\n", "lnk/sub/b.md": "note b\n"}},
		{"dot-dot-after-a-linked-directory", []entry{link("skills/alpha/x", "../../lnk/../run.sh"), link("lnk", "shared/notes")},
			map[string]string{"skills/alpha/x": "#!/bin/sh\necho run\n", "lnk/a.md": "note a\n", "lnk/sub/b.md": "note b\n"}},
		{"linked-directory-holding-links", []entry{link("skills/alpha/all", "../../shared"), link("shared/notes/up", "../run.sh")},
			map[string]string{
				"shared/notes/up": "#!/bin/sh\necho run\n", "skills/alpha/all/notes/up": "#!/bin/sh\necho run\n",
				"skills/alpha/all/notes/a.md": "note a\n", "skills/alpha/all/notes/sub/b.md": "note b\n", "skills/alpha/all/run.sh": "#!/bin/sh\necho run\n",
			}},
	}
	for _, kind := range sourceKinds {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel() // a git source waits on git's processes most of its time
				src, o := linkedSource(t, kind, append(append([]entry(nil), linkBase...), c.links...))
				s, _ := newStore(t)
				added, err := s.Add(context.Background(), src, o)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]string{}
				for _, e := range linkBase {
					want[e.name] = e.body
				}
				maps.Copy(want, c.want)
				got := storedFiles(t, added.Module.Dir())
				if !maps.Equal(got, want) {
					t.Fatalf("stored %v\nwant     %v", got, want)
				}
				for p, body := range c.want {
					fi, err := os.Lstat(filepath.Join(added.Module.Dir(), filepath.FromSlash(p)))
					if err != nil || !fi.Mode().IsRegular() {
						t.Fatalf("%s is not a regular file in the store: %v", p, err)
					}
					if exe := fi.Mode().Perm()&0o111 != 0; exe != strings.HasPrefix(body, "#!") {
						t.Errorf("%s: executable %v; the target's execute bit is %v", p, exe, !exe)
					}
				}
			})
		}
	}
}

// TestSourceLinksLeavingTheRootAreRefused: for every source kind, a link
// that is absolute, climbs out of the root, dangles, loops, leads to a
// directory holding it, uses a file as a directory, or leads into .git is
// refused with its rule, naming the link and its target, and nothing is
// stored (nor read: the file beside the root is nowhere in the store).
func TestSourceLinksLeavingTheRootAreRefused(t *testing.T) {
	cases := []struct {
		name  string
		links []entry
		rule  schema.Rule
		says  string // in the refusal, besides the link's path and target
	}{
		{"parent", []entry{link("skills/alpha/up", "../../../outside.md")}, schema.RulePathTraversal, "leads outside the"},
		{"absolute", []entry{link("skills/alpha/abs", "/etc/passwd")}, schema.RulePathAbsolute, "is absolute"},
		{"dangling", []entry{link("skills/alpha/gone", "../../shared/missing.md")}, schema.RulePathSymlink, `dangles: "shared/missing.md" does not exist`},
		{"file-loop", []entry{link("skills/alpha/l1", "l2"), link("skills/alpha/l2", "l1")}, schema.RulePathSymlink, "loops"},
		{"self-loop", []entry{link("skills/alpha/self", "self")}, schema.RulePathSymlink, "loops"},
		{"directory-cycle", []entry{link("skills/alpha/up", "..")}, schema.RulePathSymlink, "(a cycle)"},
		{"root-cycle", []entry{link("shared/all", "..")}, schema.RulePathSymlink, "(a cycle)"},
		{"mutual-cycle", []entry{link("shared/notes/to-d2", "../../d2"), link("d2/to-notes", "../shared/notes"), file("d2/x.md", "x\n")}, schema.RulePathSymlink, "(a cycle)"},
		{"file-as-directory", []entry{link("skills/alpha/x", "SKILL.md/more")}, schema.RulePathNotDirectory, `uses the file "skills/alpha/SKILL.md" as a directory`},
		// The walk meets a-hop (name order) before the link it leads to.
		{"escape-on-second-hop", []entry{link("a-hop", "shared/out"), link("shared/out", "../../outside.md")}, schema.RulePathTraversal, `entry "a-hop": symbolic link to "shared/out" leads outside the`},
		{"absolute-on-second-hop", []entry{link("a-hop", "shared/abs"), link("shared/abs", "/etc/passwd")}, schema.RulePathAbsolute, `leads to "shared/abs", a link to the absolute "/etc/passwd"`},
		{"too-many-components", []entry{link("shared/notes/long", strings.Repeat("sub/../", 130)+"a.md")}, schema.RulePathSymlink, "too long to resolve"},
	}
	for _, kind := range sourceKinds {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel() // a git source waits on git's processes most of its time
				links := c.links
				src, o := linkedSource(t, kind, append(append([]entry(nil), linkBase...), links...))
				s, home := newStore(t)
				_, err := s.Add(context.Background(), src, o)
				assertRule(t, err, c.rule)
				if !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "symbolic link to") {
					t.Errorf("refusal %q does not say %q", err, c.says)
				}
				// The entry is named where it would be stored (beneath
				// a linked directory, that is not where the link lies).
				named := false
				for _, l := range links {
					named = named || strings.Contains(err.Error(), path.Base(l.name)+`": symbolic link to "`+bounded(l.body)+`"`)
				}
				if !named {
					t.Errorf("refusal %q names no link with its target", err)
				}
				assertStoreEmpty(t, s)
				if leak := findMarker(t, home, outsideMarker); leak != "" {
					t.Fatalf("content from outside the source landed at %s", leak)
				}
			})
		}
	}
}

// TestSourceLinkIntoGitDirRefused: a link into .git (version-control
// state, which every source leaves out) is refused in a folder and in a
// checkout, where .git is lola's own clone state.
func TestSourceLinkIntoGitDirRefused(t *testing.T) {
	for _, kind := range []string{"folder", "git"} {
		t.Run(kind, func(t *testing.T) {
			entries := append(append([]entry(nil), linkBase...), link("skills/alpha/cfg", "../../.git/config"))
			if kind == "folder" {
				entries = append(entries, file(".git/config", "[core]\n"))
			}
			src, o := linkedSource(t, kind, entries)
			s, _ := newStore(t)
			_, err := s.Add(context.Background(), src, o)
			assertRule(t, err, schema.RulePathSymlink)
			if !strings.Contains(err.Error(), `leads into ".git"`) {
				t.Errorf("refusal %q", err)
			}
			assertStoreEmpty(t, s)
		})
	}
}

// TestFolderLinkOutOfTheFolderSuggestsModuleContent: a link out of the
// folder given to mod add names how many levels up its target lies and
// suggests adding that folder with --module-content naming this one.
func TestFolderLinkOutOfTheFolderSuggestsModuleContent(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "ai-helpers")
	writeTree(t, repo, []entry{
		file("scripts/shared.sh", "#!/bin/sh\n"),
		file("plugins/cve/skills/assess/SKILL.md", "---\ndescription: Assess\n---\n"),
		link("plugins/cve/scripts/shared.sh", "../../../scripts/shared.sh"),
		file("plugins/jira/skills/triage/SKILL.md", "---\ndescription: Triage\n---\n"),
		link("plugins/jira/up.md", "../README.md"),
		file("plugins/README.md", "plugins\n"),
	})
	for _, c := range []struct{ folder, says string }{
		{"plugins/cve", `leads outside the folder given to mod add: add the folder 2 levels up, which holds both, with --module-content="plugins/cve"`},
		{"plugins/jira", `leads outside the folder given to mod add: add the parent folder, which holds both, with --module-content="jira"`},
	} {
		s, _ := newStore(t)
		_, err := s.Add(context.Background(), mustSource(t, filepath.Join(repo, filepath.FromSlash(c.folder))), AddOptions{})
		assertRule(t, err, schema.RulePathTraversal)
		if !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: refusal %q\nwant it to say %q", c.folder, err, c.says)
		}
		if strings.Contains(err.Error(), repo) {
			t.Errorf("the refusal carries a host path: %q", err)
		}
		assertStoreEmpty(t, s)
	}
}

// storedFiles maps every regular file under dir (slash paths) to its
// content, and fails on anything else but a directory. The store's own
// record of the add (SourceInfoFile) is left out: it is not content.
func storedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if !d.Type().IsRegular() {
			return errors.New(rel + " is not a regular file")
		}
		if filepath.ToSlash(rel) == SourceInfoFile {
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

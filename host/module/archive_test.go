package module

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// hostile is one attack on the archive intake: the entries added to a
// valid module and the rule the refusal must name.
type hostile struct {
	name    string
	entries []entry
	rule    schema.Rule
	zipOK   bool // zip cannot express it (hard links)
}

var hostiles = []hostile{
	{name: "absolute", entries: []entry{file("/etc/cron.d/x", "x")}, rule: schema.RulePathAbsolute},
	{name: "drive", entries: []entry{file("C:/x", "x")}, rule: schema.RulePathAbsolute},
	{name: "traversal", entries: []entry{file("../escape", "x")}, rule: schema.RulePathTraversal},
	{name: "nested-traversal", entries: []entry{file("skills/../../escape", "x")}, rule: schema.RulePathTraversal},
	{name: "backslash", entries: []entry{file(`skills\evil`, "x")}, rule: schema.RulePathInvalid},
	{name: "device-name", entries: []entry{file("commands/con.md", "x")}, rule: schema.RulePathInvalid},
	{name: "colon", entries: []entry{file("notes/a.md:stream", "x")}, rule: schema.RulePathInvalid},
	{name: "control", entries: []entry{file("a\x01b", "x")}, rule: schema.RulePathInvalid},
	{name: "trailing-dot", entries: []entry{file("notes.", "x")}, rule: schema.RulePathInvalid},
	{name: "dot-component", entries: []entry{file("skills/./alpha/x", "x")}, rule: schema.RulePathInvalid},
	// Links are resolved under the source-link rule (links_test.go has the
	// whole of it); those that leave the archive stay refused.
	{name: "absolute-symlink", entries: []entry{{name: "skills/alpha/link", kind: 'l', body: "/etc/passwd"}}, rule: schema.RulePathAbsolute},
	{name: "escaping-symlink", entries: []entry{{name: "skills/alpha/link", kind: 'l', body: "../../../etc/passwd"}}, rule: schema.RulePathTraversal},
	{name: "dangling-symlink", entries: []entry{{name: "link", kind: 'l', body: "skills/beta"}}, rule: schema.RulePathSymlink},
	{name: "entry-beneath-symlink", entries: []entry{{name: "notes", kind: 'l', body: "skills"}, file("notes/alpha/x.md", "x")}, rule: schema.RuleConflictNested},
	{name: "entry-beneath-symlink-case-fold", entries: []entry{{name: "Notes", kind: 'l', body: "skills"}, file("notes/x.md", "x")}, rule: schema.RuleConflictSamePath},
	{name: "hardlink", entries: []entry{{name: "hard", kind: 'h', body: "skills/alpha/SKILL.md"}}, rule: schema.RulePathSymlink, zipOK: true},
	{name: "char-device", entries: []entry{{name: "null", kind: 'c'}}, rule: schema.RulePathInvalid},
	{name: "block-device", entries: []entry{{name: "disk", kind: 'b'}}, rule: schema.RulePathInvalid},
	{name: "fifo", entries: []entry{{name: "pipe", kind: 'p'}}, rule: schema.RulePathInvalid},
	{name: "duplicate", entries: []entry{file("skills/alpha/SKILL.md", "second")}, rule: schema.RuleConflictSamePath},
	{name: "case-fold-file", entries: []entry{file("skills/alpha/skill.md", "x")}, rule: schema.RuleConflictSamePath},
	{name: "case-fold-dir", entries: []entry{file("Skills/beta/SKILL.md", "x")}, rule: schema.RuleConflictSamePath},
	{name: "full-case-fold", entries: []entry{file("notes/stra\u00dfe.md", "x"), file("notes/STRASSE.md", "y")}, rule: schema.RuleConflictSamePath},
	{name: "unicode-normalization", entries: []entry{file("caf\u00e9.md", "x"), file("cafe\u0301.md", "y")}, rule: schema.RuleConflictSamePath},
	{name: "file-then-dir", entries: []entry{file("notes", "x"), file("notes/a.md", "y")}, rule: schema.RuleConflictNested},
	{name: "dir-then-file", entries: []entry{file("notes/a.md", "y"), file("notes", "x")}, rule: schema.RuleConflictNested},
}

func TestHostileArchivesRefusedAndStoreUntouched(t *testing.T) {
	for _, format := range []string{"zip", "tar", "tar.gz"} {
		for _, h := range hostiles {
			if format == "zip" && h.zipOK {
				continue
			}
			t.Run(format+"/"+h.name, func(t *testing.T) {
				s, _ := newStore(t)
				path := filepath.Join(t.TempDir(), "evil."+format)
				entries := append(append([]entry(nil), goodEntries...), h.entries...)
				switch format {
				case "zip":
					writeZip(t, path, entries)
				default:
					writeTar(t, path, format == "tar.gz", entries)
				}
				_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
				assertRule(t, err, h.rule)
				assertStoreEmpty(t, s)
				if strings.Contains(err.Error(), s.dir) || strings.Contains(err.Error(), filepath.Dir(path)) {
					t.Fatalf("error carries a host path: %q", err)
				}
			})
		}
	}
}

func TestArchiveBoundsRefusedAndStoreUntouched(t *testing.T) {
	big := strings.Repeat("x", 2048)
	cases := []struct {
		name    string
		b       Bounds
		entries []entry
		limit   Limit
	}{
		{"file-bytes", smallBounds(t, 100, 1024, 1<<20, 256), []entry{file("big.bin", big)}, LimitFileBytes},
		{"total-bytes", smallBounds(t, 100, 1024, 3000, 256), []entry{file("a", big[:1000]), file("b", big[:1000]), file("c", big[:1000])}, LimitTotalBytes},
		{"entries", smallBounds(t, 4, 1024, 1<<20, 256), []entry{file("a", "1"), file("b", "2"), file("c", "3"), file("d", "4")}, LimitFiles},
		{"path-bytes", smallBounds(t, 100, 1024, 1<<20, 64), []entry{file(strings.Repeat("d/", 40)+"x", "1")}, LimitPathBytes},
	}
	for _, format := range []string{"zip", "tar", "tar.gz"} {
		for _, c := range cases {
			t.Run(format+"/"+c.name, func(t *testing.T) {
				s, _ := newStore(t)
				path := filepath.Join(t.TempDir(), "bomb."+format)
				entries := append(append([]entry(nil), goodEntries...), c.entries...)
				if format == "zip" {
					writeZip(t, path, entries)
				} else {
					writeTar(t, path, format == "tar.gz", entries)
				}
				_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{Bounds: c.b})
				var le *LimitError
				if !errors.As(err, &le) || le.Limit != c.limit || !errors.Is(err, c.limit) {
					t.Fatalf("error %v; want limit %s", err, c.limit)
				}
				if !strings.Contains(err.Error(), c.limit.String()) {
					t.Fatalf("error %q does not name the limit", err)
				}
				assertStoreEmpty(t, s)
			})
		}
	}
}

func TestGoodArchiveUnwrapsSingleTopDirectory(t *testing.T) {
	for _, format := range []string{"zip", "tar", "tgz"} {
		t.Run(format, func(t *testing.T) {
			s, _ := newStore(t)
			path := filepath.Join(t.TempDir(), "My-Skills."+format)
			entries := []entry{dir("./"), dir("./repo-main/"), file("./repo-main/skills/alpha/SKILL.md", "---\ndescription: Alpha\n---\n")}
			if format == "zip" {
				writeZip(t, path, entries[1:])
			} else {
				writeTar(t, path, format == "tgz", entries)
			}
			added, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := added.Module.Name().String(); got != "my-skills" {
				t.Fatalf("derived name %q; want my-skills", got)
			}
			if l := added.Module.Layout(); len(l.Skills) != 1 || l.Skills[0].Name != "alpha" || l.Skills[0].Description != "Alpha" {
				t.Fatalf("layout %+v", l)
			}
			if got := storeEntries(t, s); len(got) != 1 || got[0] != "my-skills" {
				t.Fatalf("store holds %v", got)
			}
		})
	}
}

func TestNotAModuleRefused(t *testing.T) {
	s, _ := newStore(t)
	path := filepath.Join(t.TempDir(), "junk.tar")
	writeTar(t, path, false, []entry{file("README.md", "hello"), file("commands/notes.txt", "x"), file("AGENTS.md", "")})
	_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
	if !errors.Is(err, ErrNotModule) {
		t.Fatalf("error %v; want ErrNotModule", err)
	}
	assertStoreEmpty(t, s)
}

func TestArchiveOfOnlySkillsIsNotUnwrapped(t *testing.T) {
	for _, top := range []string{"skills/alpha/SKILL.md", "module/skills/alpha/SKILL.md"} {
		s, _ := newStore(t)
		path := filepath.Join(t.TempDir(), "flat.tar")
		writeTar(t, path, false, []entry{file(top, "---\ndescription: A\n---\n")})
		added, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
		if err != nil {
			t.Fatalf("%s: %v", top, err)
		}
		if l := added.Module.Layout(); len(l.Skills) != 1 || l.Skills[0].Name != "alpha" {
			t.Fatalf("%s: layout %+v", top, l)
		}
	}
}

// TestEverySourceLeavesOutGitDirs: zip, tar and folder sources agree on
// version-control state: a .git directory, at the top or deeper, and all
// beneath it stay out of the store; a file named .git is content. (The
// store adds .lola/source.yml, lola's record of the add.)
func TestEverySourceLeavesOutGitDirs(t *testing.T) {
	entries := append(append([]entry(nil), goodEntries...),
		dir(".git"), file(".git/HEAD", "ref: refs/heads/main\n"), file(".git/hooks/post-checkout", "#!/bin/sh\n"),
		file("skills/alpha/.git/config", "[core]\n"), file("vendor/.git", "gitdir: ../.git/modules/vendor\n"))
	for _, format := range []string{"folder", "zip", "tar", "tar.gz"} {
		t.Run(format, func(t *testing.T) {
			s, _ := newStore(t)
			path := filepath.Join(t.TempDir(), "m."+format)
			switch format {
			case "folder":
				path = filepath.Join(t.TempDir(), "m")
				writeTree(t, path, entries)
			case "zip":
				writeZip(t, path, entries)
			default:
				writeTar(t, path, format == "tar.gz", entries)
			}
			added, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			filepath.WalkDir(added.Module.Dir(), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(added.Module.Dir(), p)
					got = append(got, filepath.ToSlash(rel))
				}
				return nil
			})
			slices.Sort(got)
			if want := []string{".lola/source.yml", "skills/alpha/SKILL.md", "vendor/.git"}; !slices.Equal(got, want) {
				t.Fatalf("stored %q, want %q", got, want)
			}
		})
	}
}

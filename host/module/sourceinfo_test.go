package module

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// upstreamModule writes a stored module as today's Lola leaves one in
// $LOLA_HOME/modules/NAME: entries, and .lola/source.yml as its
// save_source_info writes it (yaml.dump, keys sorted). An empty
// sourceYML writes no record at all.
func upstreamModule(t *testing.T, s *Store, name, sourceYML string, entries []entry) string {
	t.Helper()
	dir := filepath.Join(s.dir, name)
	writeTree(t, dir, entries)
	if sourceYML != "" {
		writeTree(t, dir, []entry{file(SourceInfoFile, sourceYML)})
	}
	return dir
}

// A module today's Lola added is read as it reads it: the content is the
// content_dirname its .lola/source.yml records ("/" the root even where a
// module/ folder is), and without one, module/ or the root.
func TestGetReadsTodaysLolaContentDirname(t *testing.T) {
	s, _ := newStore(t)
	repo := []entry{
		file("README.md", "# mono\n"),
		file("scripts/shared.sh", "echo shared\n"),
		file("plugins/dev/skills/dev-skill/SKILL.md", "---\ndescription: Dev\n---\n"),
		file("plugins/dev/lola.yaml", "hooks:\n  post-install: scripts/post.sh\n"),
		file("plugins/dev/scripts/post.sh", "echo post\n"),
		file("plugins/jira/commands/ticket.md", "---\ndescription: T\n---\n"),
	}
	upstreamModule(t, s, "dev", "content_dirname: plugins/dev\nref: main\nsource: https://example.org/org/mono.git\ntype: git\n", repo)
	upstreamModule(t, s, "jira", "content_dirname: plugins/jira/\nsource: https://example.org/org/mono.git\ntype: git\n", repo)
	withModule := []entry{file("skills/outer/SKILL.md", "x"), file("module/skills/inner/SKILL.md", "x")}
	upstreamModule(t, s, "rooted", "content_dirname: /\nsource: /src/rooted.tar.gz\ntype: tar\n", withModule)
	upstreamModule(t, s, "plain", "source: /src/plain\ntype: folder\n", withModule)
	upstreamModule(t, s, "norecord", "", withModule)

	for _, tc := range []struct{ name, contentDir, skill, command, hook string }{
		{"dev", "plugins/dev", "dev-skill", "", "scripts/post.sh"},
		{"jira", "plugins/jira", "", "ticket", ""},
		{"rooted", "", "outer", "", ""},
		{"plain", "module", "inner", "", ""},
		{"norecord", "module", "inner", "", ""},
	} {
		m, err := s.Get(mustName(t, tc.name))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		l := m.Layout()
		if l.ContentDir != tc.contentDir {
			t.Errorf("%s: content dir %q, want %q", tc.name, l.ContentDir, tc.contentDir)
		}
		if tc.skill != "" && (len(l.Skills) != 1 || l.Skills[0].Name != tc.skill) {
			t.Errorf("%s: skills %+v, want %s", tc.name, l.Skills, tc.skill)
		}
		if tc.command != "" && (len(l.Commands) != 1 || l.Commands[0].Name != tc.command) {
			t.Errorf("%s: commands %+v, want %s", tc.name, l.Commands, tc.command)
		}
		if l.Hooks.PostInstall != tc.hook {
			t.Errorf("%s: post-install hook %q, want %q", tc.name, l.Hooks.PostInstall, tc.hook)
		}
		files, err := m.Schema(DefaultBounds())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files.Files {
			if strings.HasPrefix(f.Path, ".lola") || f.Path == "README.md" && tc.name == "dev" {
				t.Errorf("%s: the extension receives %s, which is not content", tc.name, f.Path)
			}
		}
	}
}

// A content_dirname that would leave the module, or reach its content
// through a symbolic link, is refused with its rule and the module is
// unusable (listed with the error): its files are never read. So are a
// .lola or source.yml that is a link, and a record that is not a mapping
// of strings or is too large.
func TestGetRefusesHostileContentDirname(t *testing.T) {
	s, home := newStore(t)
	secret := filepath.Join(home, "secret")
	writeTree(t, secret, []entry{file("skills/stolen/SKILL.md", "---\ndescription: stolen\n---\n")})
	upstreamModule(t, s, "neighbour", "", []entry{file("skills/n/SKILL.md", "x")})
	good := []entry{file("skills/ok/SKILL.md", "x")}
	rec := func(cd string) string { return "content_dirname: " + cd + "\nsource: /x\ntype: folder\n" }
	cases := []struct {
		name, yml string
		rule      schema.Rule
		other     error
	}{
		{"up", rec("../neighbour"), schema.RulePathTraversal, nil},
		{"upup", rec("../../secret"), schema.RulePathTraversal, nil},
		{"inner-up", rec("skills/../../neighbour"), schema.RulePathTraversal, nil},
		{"absolute", rec(secret), schema.RulePathAbsolute, nil},
		{"backslash", rec(`'..\neighbour'`), schema.RulePathInvalid, nil},
		{"link", rec("content"), schema.RulePathSymlink, nil},
		{"link-on-the-way", rec("via/skills"), schema.RulePathSymlink, nil},
		{"absent", rec("nowhere"), schema.RuleUnknown, ErrNotModule},
		{"a-file", rec("skills/ok/SKILL.md"), schema.RuleUnknown, ErrNotModule},
		{"list", "content_dirname: [a, b]\n", schema.RuleUnknown, ErrSourceInfo},
		{"not-a-mapping", "- content_dirname\n", schema.RuleUnknown, ErrSourceInfo},
		{"huge", "source: " + strings.Repeat("x", maxSourceInfo) + "\n", schema.RuleUnknown, ErrSourceInfo},
	}
	for _, tc := range cases {
		dir := upstreamModule(t, s, tc.name, tc.yml, good)
		switch tc.name {
		case "link":
			if err := os.Symlink(secret, filepath.Join(dir, "content")); err != nil {
				t.Fatal(err)
			}
		case "link-on-the-way":
			if err := os.Symlink(secret, filepath.Join(dir, "via")); err != nil {
				t.Fatal(err)
			}
		}
	}
	// .lola itself, or the record, a link to a record elsewhere.
	elsewhere := filepath.Join(home, "elsewhere")
	writeTree(t, elsewhere, []entry{file("source.yml", rec("../../secret"))})
	for name, link := range map[string]string{"meta-link": ".lola", "record-link": SourceInfoFile} {
		dir := upstreamModule(t, s, name, "", good)
		if err := os.MkdirAll(filepath.Join(dir, ".lola"), 0o700); err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(elsewhere, "source.yml")
		if name == "meta-link" {
			os.Remove(filepath.Join(dir, ".lola"))
			target = elsewhere
		}
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name, yml string
			rule      schema.Rule
			other     error
		}{name, "", schema.RulePathSymlink, nil})
	}
	for _, tc := range cases {
		_, err := s.Get(mustName(t, tc.name))
		if tc.rule != schema.RuleUnknown {
			assertRule(t, err, tc.rule)
		} else if !errors.Is(err, tc.other) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.other)
		}
		if err != nil && strings.Contains(err.Error(), home) {
			t.Errorf("%s: the error names a host path: %v", tc.name, err)
		}
	}
	listed, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		if l.Name == "neighbour" {
			continue
		}
		if l.Err == nil {
			t.Errorf("%s is listed as usable: %+v", l.Name, l.Module.Layout())
		}
	}
}

// Add writes the module's .lola/source.yml as today's Lola does (its keys,
// sorted; local paths absolute; the ref and content directory when
// given), so hooks that read it and today's Lola itself find what they
// expect.
func TestAddWritesTodaysLolaSourceYML(t *testing.T) {
	s, _ := newStore(t)
	base := t.TempDir()
	folder := filepath.Join(base, "kit")
	writeTree(t, folder, goodEntries)
	zipPath := filepath.Join(base, "kit.zip")
	writeZip(t, zipPath, goodEntries)
	tarPath := filepath.Join(base, "kit.tar.gz")
	writeTar(t, tarPath, true, goodEntries)
	mono := filepath.Join(base, "mono")
	writeTree(t, mono, []entry{file("plugins/dev/skills/d/SKILL.md", "x"), file("scripts/shared.sh", "echo\n")})
	for _, tc := range []struct {
		name, src, content, want string
	}{
		{"folder", folder, "", "source: " + folder + "\ntype: folder\n"},
		{"zip", zipPath, "", "source: " + zipPath + "\ntype: zip\n"},
		{"tar", tarPath, "", "source: " + tarPath + "\ntype: tar\n"},
		{"root", folder, ".", "content_dirname: /\nsource: " + folder + "\ntype: folder\n"},
		{"dev", mono, "plugins/dev/", "content_dirname: plugins/dev\nsource: " + mono + "\ntype: folder\n"},
	} {
		a, err := s.Add(context.Background(), mustSource(t, tc.src), AddOptions{Name: mustName(t, tc.name), Content: tc.content})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := os.ReadFile(filepath.Join(a.Module.Dir(), filepath.FromSlash(SourceInfoFile)))
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: .lola/source.yml\n%s\nwant\n%s (%v)", tc.name, b, tc.want, err)
		}
	}
	// --module-content stores the whole source, as today's Lola does: a
	// hook may use a file beside the content.
	m, err := s.Get(mustName(t, "dev"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir(), "scripts", "shared.sh")); err != nil || m.Layout().ContentDir != "plugins/dev" {
		t.Errorf("content dir %q; the file beside it: %v", m.Layout().ContentDir, err)
	}
	if si := sourceInfoOf(Source{kind: SourceArchiveURL, loc: "https://h/k.zip", archive: SourceZip}, "", ""); si.Type != "zipurl" || si.Source != "https://h/k.zip" {
		t.Errorf("zip URL: %+v", si)
	}
	if si := sourceInfoOf(Source{kind: SourceGit, loc: "https://h/r.git"}, "v1", ""); si.Type != "git" || si.Ref != "v1" {
		t.Errorf("git: %+v", si)
	}
}

// A source that ships its own .lola/source.yml picks neither its content
// nor its recorded source: the add finds the content as it would without
// it, and the stored record is lola's.
func TestAddReplacesTheSourcesOwnSourceYML(t *testing.T) {
	forged := "content_dirname: decoy\nref: evil\nsource: https://attacker.example/x.git\ntype: git\n"
	entries := []entry{
		file("skills/real/SKILL.md", "---\ndescription: real\n---\n"),
		file("decoy/skills/planted/SKILL.md", "---\ndescription: planted\n---\n"),
		file(SourceInfoFile, forged),
	}
	base := t.TempDir()
	for _, format := range []string{"folder", "zip", "tar"} {
		t.Run(format, func(t *testing.T) {
			s, _ := newStore(t)
			p := filepath.Join(base, format, "kit")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			switch format {
			case "folder":
				writeTree(t, p, entries)
			case "zip":
				p += ".zip"
				writeZip(t, p, entries)
			case "tar":
				p += ".tar"
				writeTar(t, p, false, entries)
			}
			a, err := s.Add(context.Background(), mustSource(t, p), AddOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []Layout{a.Module.Layout(), mustGet(t, s, a.Module.Name()).Layout()} {
				if l.ContentDir != "" || len(l.Skills) != 1 || l.Skills[0].Name != "real" {
					t.Errorf("layout %+v: the shipped source.yml chose the content", l)
				}
			}
			b, _ := os.ReadFile(filepath.Join(a.Module.Dir(), filepath.FromSlash(SourceInfoFile)))
			if strings.Contains(string(b), "attacker") || strings.Contains(string(b), "decoy") || !strings.Contains(string(b), "type: "+format) {
				t.Errorf("stored record:\n%s", b)
			}
		})
	}
	// A .lola that is a file in the source cannot hold lola's record: the
	// add is refused and stores nothing.
	s, _ := newStore(t)
	p := filepath.Join(base, "flat")
	writeTree(t, p, []entry{file("skills/real/SKILL.md", "x"), file(".lola", "not a dir")})
	_, err := s.Add(context.Background(), mustSource(t, p), AddOptions{})
	assertRule(t, err, schema.RulePathInvalid)
	assertStoreEmpty(t, s)
}

func mustGet(t *testing.T, s *Store, n Name) *Module {
	t.Helper()
	m, err := s.Get(n)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

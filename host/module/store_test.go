package module

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sampleModule is a module with every part of the layout, a binary file, a
// dot-directory and lola.yaml, kept in module/ with a README beside it.
var sampleModule = []entry{
	file("README.md", "# repo readme, outside the content dir\n"),
	file("module/skills/alpha/SKILL.md", "---\nname: alpha\ndescription: Does alpha things\n---\n# Alpha\n"),
	{name: "module/skills/alpha/scripts/run.sh", kind: 'f', body: "#!/bin/sh\necho alpha\n", mode: 0o755},
	file("module/skills/beta/SKILL.md", "---\ndescription: \"Beta: quoted\"\n---\nBeta body\n"),
	file("module/skills/beta/assets/logo.bin", "\x89PNG\r\n\x1a\n\x00\xff\xfe"),
	file("module/skills/.hidden/SKILL.md", "---\ndescription: skipped by discovery\n---\n"),
	file("module/commands/hello.md", "---\ndescription: Say hello\nargument-hint: <name>\n---\nHello $ARGUMENTS\n"),
	file("module/commands/notes.txt", "not a command"),
	file("module/agents/reviewer.md", "---\ndescription: Reviews code\nmodel: sonnet\n---\nYou review.\n"),
	file("module/AGENTS.md", "Always be kind.\n"),
	file("module/mcps.json", `{"mcpServers": {"zeta": {"command": "z"}, "alpha": {"command": "a"}}}`),
	file("module/lola.yaml", "hooks:\n  pre-install: scripts/pre.sh\n  post-install: scripts/post.sh\n"),
	{name: "module/scripts/pre.sh", kind: 'f', body: "echo pre\n", mode: 0o755},
	{name: "module/scripts/post.sh", kind: 'f', body: "echo post\n", mode: 0o755},
	file("module/.lola/state", "dot-directory: left out"),
	file("module/.gitignore", "*.tmp\n"),
}

func sampleFolder(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "Sample_Module")
	writeTree(t, root, sampleModule)
	writeTree(t, root, []entry{file(".git/config", "[core]\n"), file(".git/HEAD", "ref: refs/heads/main\n")})
	return root
}

func TestGoodModuleRoundTripsToSchemaGolden(t *testing.T) {
	s, _ := newStore(t)
	added, err := s.Add(context.Background(), mustSource(t, sampleFolder(t)), AddOptions{Name: mustName(t, "sample_module")})
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Get(mustName(t, "sample_module"))
	if err != nil {
		t.Fatal(err)
	}
	if added.Module.Dir() != m.Dir() {
		t.Fatalf("added at %q, found at %q", added.Module.Dir(), m.Dir())
	}
	if _, err := os.Stat(filepath.Join(m.Dir(), ".git")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf(".git copied into the store: %v", err)
	}
	got, err := m.Schema(DefaultBounds())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.schema.json", got)

	byPath := map[string]schema.File{}
	for _, f := range got.Files {
		byPath[f.Path] = f
	}
	if f := byPath["skills/beta/assets/logo.bin"]; f.Encoding != schema.EncodingBase64 {
		t.Fatalf("binary file encoded %q", f.Encoding)
	}
	if f := byPath["skills/alpha/SKILL.md"]; f.Encoding != schema.EncodingUTF8 || !strings.HasPrefix(f.Content, "---\nname: alpha") {
		t.Fatalf("text file %+v", f)
	}
	for _, left := range []string{"lola.yaml", ".lola/state", "README.md"} {
		if _, ok := byPath[left]; ok {
			t.Fatalf("%s handed to the extension", left)
		}
	}
	if _, ok := byPath[".gitignore"]; !ok {
		t.Fatal("a dot-file (not a dot-directory) was left out")
	}
}

func TestSameModuleFromFolderZipAndTarIsIdentical(t *testing.T) {
	s, _ := newStore(t)
	want, err := addAndSchema(t, s, sampleFolder(t), "from-folder")
	if err != nil {
		t.Fatal(err)
	}
	wrapped := make([]entry, 0, len(sampleModule))
	for _, e := range sampleModule {
		e.name = "sample-main/" + e.name
		wrapped = append(wrapped, e)
	}
	dir := t.TempDir()
	writeZip(t, filepath.Join(dir, "s.zip"), wrapped)
	writeTar(t, filepath.Join(dir, "s.tar.gz"), true, wrapped)
	for _, p := range []string{"s.zip", "s.tar.gz"} {
		got, err := addAndSchema(t, s, filepath.Join(dir, p), "from-"+strings.ReplaceAll(p, ".", "-"))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(want.Files)
		b, _ := json.Marshal(got.Files)
		if string(a) != string(b) {
			t.Fatalf("%s yields different files than the folder:\n%s\n%s", p, a, b)
		}
	}
	// Permissions: a file keeps its source's bits (a tar's without group
	// or other write, as today's Lola extracts it), so an install can keep
	// them; the directories stay 0700, so no one else reaches the files.
	m, _ := s.Get(mustName(t, "from-s-tar-gz"))
	fi, err := os.Stat(filepath.Join(m.ContentDir(), "scripts", "pre.sh"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("pre.sh mode %v, %v; want 0755", fi.Mode(), err)
	}
	di, _ := os.Stat(m.Dir())
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("module dir mode %v; want 0700", di.Mode().Perm())
	}
}

func addAndSchema(t *testing.T, s *Store, src, name string) (schema.Module, error) {
	t.Helper()
	added, err := s.Add(context.Background(), mustSource(t, src), AddOptions{Name: mustName(t, name)})
	if err != nil {
		return schema.Module{}, err
	}
	return added.Module.Schema(DefaultBounds())
}

func TestLayoutAsTodaysLola(t *testing.T) {
	s, _ := newStore(t)
	added, err := s.Add(context.Background(), mustSource(t, sampleFolder(t)), AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.layout.json", added.Module.Layout())
}

func TestSingleSkillModule(t *testing.T) {
	for _, c := range []struct{ fm, want string }{
		{"---\nname: pdf-tools\ndescription: PDFs\n---\n", "pdf-tools"},
		{"---\ndescription: PDFs\n---\n", "single"},
		{"no frontmatter at all\n", "single"},
	} {
		root := filepath.Join(t.TempDir(), "single")
		writeTree(t, root, []entry{file("SKILL.md", c.fm), file("helper.py", "print(1)\n")})
		s, _ := newStore(t)
		added, err := s.Add(context.Background(), mustSource(t, root), AddOptions{})
		if err != nil {
			t.Fatal(err)
		}
		l := added.Module.Layout()
		if !l.SingleSkill || len(l.Skills) != 1 || l.Skills[0].Name != c.want {
			t.Fatalf("frontmatter %q: layout %+v; want single skill %q", c.fm, l, c.want)
		}
	}
}

// TestFolderWithSymlinkRefused: links out of the folder stay refused
// wherever they are (the whole source-link rule is in links_test.go).
func TestFolderWithSymlinkRefused(t *testing.T) {
	for _, c := range []struct {
		where, target string
		rule          schema.Rule
	}{
		{"skills/alpha/link", "/etc", schema.RulePathAbsolute},
		{"link-dir", "/etc", schema.RulePathAbsolute},
		{"module", "../outside", schema.RulePathTraversal},
	} {
		t.Run(c.where, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "m")
			writeTree(t, root, append([]entry{{name: c.where, kind: 'l', body: c.target}}, goodEntries...))
			s, _ := newStore(t)
			_, err := s.Add(context.Background(), mustSource(t, root), AddOptions{})
			assertRule(t, err, c.rule)
			assertStoreEmpty(t, s)
		})
	}
	t.Run("source-itself", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "m")
		writeTree(t, root, goodEntries)
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(root, link); err != nil {
			t.Skip(err)
		}
		_, err := ParseSource(link)
		assertRule(t, err, schema.RulePathSymlink)
	})
}

func TestFolderHostileNamesRefused(t *testing.T) {
	for _, c := range []struct {
		names []string
		rule  schema.Rule
	}{
		{[]string{"commands/aux.md"}, schema.RulePathInvalid},
		{[]string{"notes/a:b.md"}, schema.RulePathInvalid},
		{[]string{"README.md", "readme.md"}, schema.RuleConflictSamePath},
	} {
		root := filepath.Join(t.TempDir(), "m")
		writeTree(t, root, goodEntries)
		for _, n := range c.names {
			writeTree(t, root, []entry{file(n, "x")})
		}
		s, _ := newStore(t)
		_, err := s.Add(context.Background(), mustSource(t, root), AddOptions{})
		assertRule(t, err, c.rule)
		assertStoreEmpty(t, s)
	}
}

func TestStoredSymlinkNeverFollowed(t *testing.T) {
	s, _ := newStore(t)
	added, err := s.Add(context.Background(), mustSource(t, sampleFolder(t)), AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Tampering behind lola's back: a link planted in the stored module.
	if err := os.Symlink("/etc/passwd", filepath.Join(added.Module.ContentDir(), "skills", "alpha", "passwd")); err != nil {
		t.Skip(err)
	}
	_, err = added.Module.Schema(DefaultBounds())
	assertRule(t, err, schema.RulePathSymlink)
}

func TestReadFilesBounds(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, []entry{file("a.md", strings.Repeat("a", 600)), file("b.md", strings.Repeat("b", 600)), file("c.md", "c")})
	for _, c := range []struct {
		b     Bounds
		limit Limit
	}{
		{smallBounds(t, 2, 1024, 1<<20, 64), LimitFiles},
		{smallBounds(t, 10, 500, 1<<20, 64), LimitFileBytes},
		{smallBounds(t, 10, 1024, 1000, 64), LimitTotalBytes},
		{smallBounds(t, 10, 1024, 1<<20, 3), LimitPathBytes},
	} {
		_, err := ReadFiles(root, c.b)
		if !errors.Is(err, c.limit) || !strings.Contains(err.Error(), c.limit.String()) {
			t.Fatalf("error %v; want %s", err, c.limit)
		}
	}
	files, err := ReadFiles(root, smallBounds(t, 3, 600, 1201, 4))
	if err != nil || len(files) != 3 {
		t.Fatalf("at the bounds exactly: %v, %d files", err, len(files))
	}
	if _, err := ReadFiles(root, Bounds{}); err == nil {
		t.Fatal("zero bounds accepted")
	}
}

func TestAddRefusesOverwriteUnlessForce(t *testing.T) {
	s, _ := newStore(t)
	v1 := filepath.Join(t.TempDir(), "mod")
	writeTree(t, v1, []entry{file("commands/one.md", "v1")})
	v2 := filepath.Join(t.TempDir(), "mod")
	writeTree(t, v2, []entry{file("commands/two.md", "v2")})
	if _, err := s.Add(context.Background(), mustSource(t, v1), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Add(context.Background(), mustSource(t, v2), AddOptions{})
	if !errors.Is(err, ErrExists) {
		t.Fatalf("error %v; want ErrExists", err)
	}
	m, _ := s.Get(mustName(t, "mod"))
	if l := m.Layout(); len(l.Commands) != 1 || l.Commands[0].Name != "one" {
		t.Fatalf("refused overwrite changed the module: %+v", l)
	}
	// A refused forced replacement leaves the old module in place.
	bad := filepath.Join(t.TempDir(), "mod")
	writeTree(t, bad, []entry{file("README.md", "not a module")})
	if _, err := s.Add(context.Background(), mustSource(t, bad), AddOptions{Force: true}); !errors.Is(err, ErrNotModule) {
		t.Fatalf("error %v; want ErrNotModule", err)
	}
	added, err := s.Add(context.Background(), mustSource(t, v2), AddOptions{Force: true})
	if err != nil || !added.Replaced {
		t.Fatalf("forced replace: %v, %+v", err, added)
	}
	m, _ = s.Get(mustName(t, "mod"))
	if l := m.Layout(); len(l.Commands) != 1 || l.Commands[0].Name != "two" {
		t.Fatalf("after force: %+v", l)
	}
	if got := storeEntries(t, s); len(got) != 1 || got[0] != "mod" {
		t.Fatalf("store holds %v; want only mod", got)
	}
}

func TestRenameNoReplaceRefusesExisting(t *testing.T) {
	d := t.TempDir()
	a, b := filepath.Join(d, "a"), filepath.Join(d, "b")
	os.Mkdir(a, 0o700)
	os.Mkdir(b, 0o700) // empty: plain rename(2) would replace it
	if err := renameNoReplace(a, b); !errors.Is(err, os.ErrExist) {
		t.Fatalf("error %v; want ErrExist", err)
	}
	os.WriteFile(filepath.Join(a, "x"), nil, 0o600)
	os.WriteFile(filepath.Join(b, "y"), nil, 0o600)
	if err := exchange(a, b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b, "x")); err != nil {
		t.Fatal("exchange did not swap:", err)
	}
	if _, err := os.Stat(filepath.Join(a, "y")); err != nil {
		t.Fatal("exchange did not swap:", err)
	}
}

func TestRemove(t *testing.T) {
	s, _ := newStore(t)
	root := filepath.Join(t.TempDir(), "mod")
	writeTree(t, root, goodEntries)
	if _, err := s.Add(context.Background(), mustSource(t, root), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove(mustName(t, "mod")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(mustName(t, "mod")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after remove: %v", err)
	}
	assertStoreEmpty(t, s)
	if err := s.Remove(mustName(t, "mod")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("removing a missing module: %v", err)
	}
	if err := s.Remove(Name{}); !errors.Is(err, ErrName) {
		t.Fatalf("removing the zero name: %v", err)
	}
	// A directory that does not read as a module is still removable.
	if err := os.Mkdir(filepath.Join(s.dir, "broken"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(mustName(t, "broken")); err == nil {
		t.Fatal("an empty directory read as a module")
	}
	if err := s.Remove(mustName(t, "broken")); err != nil {
		t.Fatalf("removing a broken module: %v", err)
	}
	assertStoreEmpty(t, s)
}

func TestListSkipsStagingAndReportsBroken(t *testing.T) {
	s, _ := newStore(t)
	root := filepath.Join(t.TempDir(), "good")
	writeTree(t, root, goodEntries)
	if _, err := s.Add(context.Background(), mustSource(t, root), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(s.dir, ".staging-leftover"), 0o700)
	os.Mkdir(filepath.Join(s.dir, "empty"), 0o700)
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "empty" || !errors.Is(got[0].Err, ErrNotModule) || got[1].Name != "good" || got[1].Err != nil {
		t.Fatalf("List = %+v", got)
	}
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s differs from golden:\n%s", name, got)
	}
}

func TestAddRefusesUnrunnableHooks(t *testing.T) {
	for _, c := range []struct {
		yaml string
		rule schema.Rule // RuleUnknown: ErrHook
	}{
		{"hooks:\n  pre-install: missing.sh\n", schema.RuleUnknown},
		{"hooks:\n  post-install: ../outside.sh\n", schema.RulePathTraversal},
		{"hooks:\n  pre-install: /bin/sh\n", schema.RulePathAbsolute},
		{"hooks:\n  pre-install: scripts\n", schema.RuleUnknown},
	} {
		root := filepath.Join(t.TempDir(), "m")
		writeTree(t, root, append(append([]entry(nil), goodEntries...), file("lola.yaml", c.yaml), file("scripts/ok.sh", "echo\n")))
		s, _ := newStore(t)
		_, err := s.Add(context.Background(), mustSource(t, root), AddOptions{})
		if c.rule == schema.RuleUnknown {
			if !errors.Is(err, ErrHook) {
				t.Fatalf("%q: error %v; want ErrHook", c.yaml, err)
			}
		} else {
			assertRule(t, err, c.rule)
		}
		assertStoreEmpty(t, s)
	}
	// A malformed lola.yaml is refused too: its hooks would silently not run.
	root := filepath.Join(t.TempDir(), "m")
	writeTree(t, root, append(append([]entry(nil), goodEntries...), file("lola.yaml", "hooks:\n  during-install: x.sh\n")))
	s, _ := newStore(t)
	if _, err := s.Add(context.Background(), mustSource(t, root), AddOptions{}); err == nil {
		t.Fatal("unknown hook point accepted")
	}
	assertStoreEmpty(t, s)
}

func TestAddSweepsStaleStagingOnly(t *testing.T) {
	s, _ := newStore(t)
	old := filepath.Join(s.dir, ".staging-killed")
	fresh := filepath.Join(s.dir, ".staging-concurrent")
	for _, d := range []string{old, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "tree"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-48 * time.Hour)
	os.Chtimes(old, long, long)
	root := filepath.Join(t.TempDir(), "m")
	writeTree(t, root, goodEntries)
	if _, err := s.Add(context.Background(), mustSource(t, root), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a day-old staging directory survived")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("a fresh staging directory was removed:", err)
	}
}

func TestConcurrentAddsOfOneNameOneWins(t *testing.T) {
	s, _ := newStore(t)
	root := filepath.Join(t.TempDir(), "m")
	writeTree(t, root, goodEntries)
	src := mustSource(t, root)
	const n = 8
	errs := make(chan error, n)
	for range n {
		go func() {
			_, err := s.Add(context.Background(), src, AddOptions{})
			errs <- err
		}()
	}
	wins := 0
	for range n {
		err := <-errs
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, ErrExists):
			t.Fatalf("unexpected error %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d adds won; want exactly 1", wins)
	}
	if got := storeEntries(t, s); len(got) != 1 || got[0] != "m" {
		t.Fatalf("store holds %v", got)
	}
}

func TestSingleSkillFrontmatterNameMustBeOneComponent(t *testing.T) {
	for _, bad := range []string{"../../evil", "a/b", "con", ".hidden", "x:y"} {
		root := filepath.Join(t.TempDir(), "single")
		writeTree(t, root, []entry{file("SKILL.md", "---\nname: \""+bad+"\"\n---\n")})
		s, _ := newStore(t)
		_, err := s.Add(context.Background(), mustSource(t, root), AddOptions{})
		assertRule(t, err, schema.RulePathInvalid)
		assertStoreEmpty(t, s)
	}
}

func TestFolderSourceOverlappingTheStoreRefused(t *testing.T) {
	s, home := newStore(t)
	writeTree(t, home, goodEntries) // $LOLA_HOME itself looks like a module
	for _, src := range []string{home, s.dir} {
		if _, err := s.Add(context.Background(), mustSource(t, src), AddOptions{Name: mustName(t, "x")}); err == nil {
			t.Fatalf("adding %s accepted", src)
		}
	}
	if got := storeEntries(t, s); len(got) != 0 {
		t.Fatalf("store holds %v", got)
	}
}

// AddOptions.Content picks a module inside a larger source; a path that
// climbs or is absolute is path.invalid and stores nothing.
func TestAddContentDir(t *testing.T) {
	home, src := t.TempDir(), t.TempDir()
	for p, body := range map[string]string{"packages/skills/skills/one/SKILL.md": "---\ndescription: one\n---\n", "README.md": "x"} {
		full := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	source, err := ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := ParseName("mono")
	for _, bad := range []string{"../x", "/etc", "packages/../..", "a//b"} {
		if _, err := s.Add(context.Background(), source, AddOptions{Name: name, Content: bad}); len(rejection.All(err)) == 0 {
			t.Errorf("content %q: %v", bad, err)
		}
	}
	if _, err := s.Add(context.Background(), source, AddOptions{Name: name, Content: "absent"}); !errors.Is(err, ErrNotModule) {
		t.Errorf("absent content dir: %v", err)
	}
	if es, _ := os.ReadDir(filepath.Join(home, ModulesDir)); len(es) != 0 {
		t.Fatalf("refused adds stored %v", es)
	}
	a, err := s.Add(context.Background(), source, AddOptions{Name: name, Content: "packages/skills/"})
	if err != nil {
		t.Fatal(err)
	}
	if l := a.Module.Layout(); len(l.Skills) != 1 || l.Skills[0].Name != "one" {
		t.Fatalf("layout %+v", l)
	}
}

// An explicit content directory is the content as it is: "/" and "." the
// source's root, a module/ folder in it notwithstanding, as today's Lola
// has it; "" still prefers module/. The choice survives in the store: Get
// reads the module back the same way, and the root's module/ folder is
// content like any other.
func TestAddExplicitContentIsTheContent(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join(t.TempDir(), "repo")
	writeTree(t, src, []entry{
		file("module/skills/inner/SKILL.md", "---\ndescription: inner\n---\n"),
		file("skills/outer/SKILL.md", "---\ndescription: outer\n---\n"),
		file("packages/x/skills/px/SKILL.md", "---\ndescription: px\n---\n"),
		file("packages/x/module/skills/pxin/SKILL.md", "---\ndescription: pxin\n---\n"),
	})
	s, err := OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, content, skill string }{
		{"auto", "", "inner"}, {"root", "/", "outer"}, {"dot", ".", "outer"}, {"dotslash", "./", "outer"}, {"sub", "packages/x", "px"},
	} {
		name := mustName(t, tc.name)
		a, err := s.Add(context.Background(), mustSource(t, src), AddOptions{Name: name, Content: tc.content})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := s.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []Layout{a.Module.Layout(), m.Layout()} {
			if len(l.Skills) != 1 || l.Skills[0].Name != tc.skill {
				t.Errorf("content %q: skills %+v, want %s", tc.content, l.Skills, tc.skill)
			}
		}
		if tc.content != "/" {
			continue
		}
		files, err := ReadFiles(m.ContentDir(), DefaultBounds())
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, f := range files {
			paths = append(paths, f.Path)
		}
		if got := strings.Join(paths, ","); !strings.Contains(got, "module/skills/inner/SKILL.md") || !strings.Contains(got, "skills/outer/SKILL.md") {
			t.Errorf("the root's files as the extension receives them: %s", got)
		}
	}
}

// Without --name a folder or archive whose content is in module/ (as
// skills/<name>/SKILL.md or commands/*.md) is named "module", after the
// folder today's Lola finds it in; anything else keeps the source's own
// name: a module/ holding only agents, a single SKILL.md in module/, a
// module at the top, a git source, an explicit content directory, and an
// archive unwrapped from its one top-level folder. A second module/
// folder is refused under that name (ErrExists) and nothing changes.
func TestAddNamesAModuleFolderAsTodaysLola(t *testing.T) {
	for _, c := range []struct {
		files   []entry
		content string
		want    string
	}{
		{[]entry{file("module/skills/a/SKILL.md", "---\ndescription: A\n---\n")}, "", "module"},
		{[]entry{file("module/commands/c.md", "C\n"), file("README.md", "r\n")}, "", "module"},
		{[]entry{file("module/agents/r.md", "---\ndescription: R\n---\n")}, "", "my-kit"},
		{[]entry{file("module/SKILL.md", "---\nname: s\ndescription: S\n---\n")}, "", "my-kit"},
		{[]entry{file("skills/a/SKILL.md", "---\ndescription: A\n---\n")}, "", "my-kit"},
		{[]entry{file("module/skills/a/SKILL.md", "---\ndescription: A\n---\n")}, "module", "my-kit"},
	} {
		s, _ := newStore(t)
		src := filepath.Join(t.TempDir(), "My-Kit")
		writeTree(t, src, c.files)
		added, err := s.Add(context.Background(), mustSource(t, src), AddOptions{Content: c.content})
		if err != nil {
			t.Fatalf("%v: %v", c.files, err)
		}
		if got := added.Module.Name().String(); got != c.want {
			t.Errorf("%v (content %q): named %q, want %q", c.files, c.content, got, c.want)
		}
		if _, err := s.Get(mustName(t, c.want)); err != nil {
			t.Errorf("%v: not in the store as %s: %v", c.files, c.want, err)
		}
	}
	for _, format := range []string{"zip", "tgz"} {
		s, _ := newStore(t)
		path := filepath.Join(t.TempDir(), "kit."+format)
		entries := []entry{dir("./"), dir("./kit-1.0/"), file("./kit-1.0/module/skills/a/SKILL.md", "---\ndescription: A\n---\n")}
		if format == "zip" {
			writeZip(t, path, entries[1:])
		} else {
			writeTar(t, path, true, entries)
		}
		added, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
		if err != nil || added.Module.Name().String() != "module" {
			t.Fatalf("%s with kit-1.0/module/: %+v %v", format, added, err)
		}
	}

	s, _ := newStore(t)
	one, two := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "two")
	writeTree(t, one, []entry{file("module/skills/a/SKILL.md", "---\ndescription: One\n---\n")})
	writeTree(t, two, []entry{file("module/skills/b/SKILL.md", "---\ndescription: Two\n---\n")})
	if _, err := s.Add(context.Background(), mustSource(t, one), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(context.Background(), mustSource(t, two), AddOptions{}); !errors.Is(err, ErrExists) {
		t.Fatalf("a second module/ folder: %v, want ErrExists", err)
	}
	m, err := s.Get(mustName(t, "module"))
	if err != nil || len(m.Layout().Skills) != 1 || m.Layout().Skills[0].Name != "a" {
		t.Fatalf("the refused add changed the stored module: %+v %v", m, err)
	}
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		if e.Name() != "module" && !strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("store holds %s", e.Name())
		}
	}
}

// A module's files keep their source's permission bits as today's Lola's
// copies keep them, and the request says so (File.Mode, when not 0644 or
// 0755): a folder's exactly (permission bits only: setuid, setgid and
// sticky never reach the store), a tar's without group or other write (as
// today's Lola extracts it), a zip's only its execute bit (today's Lola
// extracts zips without modes).
func TestAddKeepsSourceModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permission bits")
	}
	modes := map[string]fs.FileMode{
		"skills/a/SKILL.md": 0o664, "skills/a/run.sh": 0o755, "skills/a/team.md": 0o640,
		"skills/a/ro.md": 0o444, "skills/a/private.md": 0o600, "skills/a/wide.md": 0o777,
		"skills/a/suid.sh": 0o4755 | fs.ModeSetuid,
	}
	var entries []entry
	for p, m := range modes {
		entries = append(entries, entry{name: p, kind: 'f', body: "x\n", mode: int64(m.Perm())})
	}
	src := filepath.Join(t.TempDir(), "kit")
	writeTree(t, src, entries)
	for p, m := range modes {
		if err := os.Chmod(filepath.Join(src, p), m); err != nil {
			t.Fatal(err)
		}
	}
	hdrMode := map[string]int64{"skills/a/SKILL.md": 0o664, "skills/a/run.sh": 0o755, "skills/a/wide.md": 0o777, "skills/a/suid.sh": 0o4755, "skills/a/team.md": 0o640}
	var tarred []entry
	for p, m := range hdrMode {
		tarred = append(tarred, entry{name: p, kind: 'f', body: "x\n", mode: m})
	}
	dir := t.TempDir()
	writeTar(t, filepath.Join(dir, "kit.tar"), false, tarred)
	writeZip(t, filepath.Join(dir, "kit.zip"), tarred)
	for _, c := range []struct {
		src  string
		want map[string]string // File.Mode; "" the default
	}{
		{src, map[string]string{"skills/a/SKILL.md": "0664", "skills/a/run.sh": "", "skills/a/team.md": "0640", "skills/a/ro.md": "", "skills/a/private.md": "", "skills/a/wide.md": "0777", "skills/a/suid.sh": ""}},
		{filepath.Join(dir, "kit.tar"), map[string]string{"skills/a/SKILL.md": "", "skills/a/run.sh": "", "skills/a/wide.md": "", "skills/a/suid.sh": "", "skills/a/team.md": "0640"}},
		{filepath.Join(dir, "kit.zip"), map[string]string{"skills/a/SKILL.md": "", "skills/a/run.sh": "", "skills/a/wide.md": "", "skills/a/suid.sh": "", "skills/a/team.md": ""}},
	} {
		s, _ := newStore(t)
		got, err := addAndSchema(t, s, c.src, "kit")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range got.Files {
			want, ok := c.want[f.Path]
			if !ok {
				continue
			}
			if f.Mode != want {
				t.Errorf("%s: %s has mode %q, want %q", filepath.Base(c.src), f.Path, f.Mode, want)
			}
			if exec := strings.HasSuffix(f.Path, ".sh") || strings.HasSuffix(f.Path, "wide.md"); f.Executable != exec {
				t.Errorf("%s: %s executable %v", filepath.Base(c.src), f.Path, f.Executable)
			}
		}
		m, _ := s.Get(mustName(t, "kit"))
		fi, err := os.Stat(filepath.Join(m.ContentDir(), "skills/a/suid.sh"))
		if err != nil || fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
			t.Errorf("%s: the stored suid.sh is %v, %v", filepath.Base(c.src), fi.Mode(), err)
		}
	}
}

package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runModCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"mod"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// modTestHome points $LOLA_HOME at a fresh directory.
func modTestHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("LOLA_HOME", home)
	return home
}

func modWriteFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var modSampleFiles = map[string]string{
	"skills/alpha/SKILL.md": "---\ndescription: Alpha does things\n---\n",
	"skills/beta/SKILL.md":  "---\ndescription: \"Beta \\e[31mred\\e[0m\"\n---\n",
	"commands/hello.md":     "---\ndescription: Say hello\nargument-hint: <name>\n---\nHi\n",
	"agents/reviewer.md":    "---\ndescription: Reviews\nmodel: sonnet\n---\n",
	"AGENTS.md":             "Be kind.\n",
	"lola.yaml":             "hooks:\n  pre-install: pre.sh\n",
	"pre.sh":                "echo pre\n",
}

func modStoreEntries(t *testing.T, home string) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(home, "modules"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestModAddLsInfoRm(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "Team-Skills")
	modWriteFiles(t, src, modSampleFiles)

	code, out, errs := runModCLI(t, "add", src)
	if code != exitOK || !strings.Contains(out, "Added team-skills (from folder)") || !strings.Contains(out, "2 skills, 1 command, 1 agent") {
		t.Fatalf("add: %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, home) {
		t.Fatalf("add output carries the host path: %s", out)
	}

	code, out, _ = runModCLI(t, "ls", "--json")
	var ls struct {
		Modules []modSummary `json:"modules"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &ls) != nil || len(ls.Modules) != 1 {
		t.Fatalf("ls --json: %d %s", code, out)
	}
	if m := ls.Modules[0]; m.Name != "team-skills" || strings.Join(m.Skills, ",") != "alpha,beta" || !m.Instructions || strings.Join(m.Hooks, ",") != "pre-install" {
		t.Fatalf("ls: %+v", m)
	}

	code, out, _ = runModCLI(t, "info", "team-skills")
	if code != exitOK {
		t.Fatalf("info: %d\n%s", code, out)
	}
	for _, want := range []string{"alpha  Alpha does things", "/hello <name>  Say hello", "@reviewer (sonnet)  Reviews", "Instructions: AGENTS.md", "pre-install: pre.sh"} {
		if !strings.Contains(out, want) {
			t.Fatalf("info lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Fatalf("info printed an escape sequence from a description:\n%q", out)
	}
	code, out, _ = runModCLI(t, "info", "team-skills", "--json")
	var info struct {
		Name   string `json:"name"`
		Skills []struct{ Name, Description string }
		Hooks  struct {
			Pre string `json:"pre_install"`
		}
	}
	if code != exitOK || json.Unmarshal([]byte(out), &info) != nil || info.Name != "team-skills" || info.Skills[0].Description != "Alpha does things" || info.Hooks.Pre != "pre.sh" {
		t.Fatalf("info --json: %d %s", code, out)
	}

	if code, _, _ = runModCLI(t, "rm", "team-skills", "-f"); code != exitOK {
		t.Fatalf("rm: %d", code)
	}
	if got := modStoreEntries(t, home); len(got) != 0 {
		t.Fatalf("store after rm: %v", got)
	}
	if code, _, _ = runModCLI(t, "info", "team-skills"); code != exitInternal {
		t.Fatalf("info of a removed module: %d", code)
	}
}

func TestModAddHostileTarRefused(t *testing.T) {
	for _, c := range []struct {
		hdr  tar.Header
		rule string
	}{
		{tar.Header{Name: "../../etc/cron.d/x", Typeflag: tar.TypeReg}, "path.traversal"},
		{tar.Header{Name: "/abs", Typeflag: tar.TypeReg}, "path.absolute"},
		{tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc"}, "path.absolute"},
		{tar.Header{Name: "up", Typeflag: tar.TypeSymlink, Linkname: "../etc"}, "path.traversal"},
		{tar.Header{Name: "gone", Typeflag: tar.TypeSymlink, Linkname: "nowhere"}, "path.symlink"},
		{tar.Header{Name: "hard", Typeflag: tar.TypeLink, Linkname: "skills/a/SKILL.md"}, "path.symlink"},
		{tar.Header{Name: "null", Typeflag: tar.TypeChar}, "path.invalid"},
		{tar.Header{Name: "skills/A/SKILL.md", Typeflag: tar.TypeReg}, "conflict.same-path"},
	} {
		t.Run(c.rule+"/"+c.hdr.Name, func(t *testing.T) {
			home := modTestHome(t)
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			tw.WriteHeader(&tar.Header{Name: "skills/a/SKILL.md", Typeflag: tar.TypeReg, Size: 4, Mode: 0o644})
			tw.Write([]byte("body"))
			h := c.hdr
			h.Mode = 0o644
			tw.WriteHeader(&h)
			tw.Close()
			path := filepath.Join(t.TempDir(), "evil.tar")
			os.WriteFile(path, buf.Bytes(), 0o600)
			code, _, errs := runModCLI(t, "add", path)
			if code != exitRejected || !strings.Contains(errs, c.rule) {
				t.Fatalf("exit %d, stderr %q; want %d naming %s", code, errs, exitRejected, c.rule)
			}
			if strings.Contains(errs, home) || strings.Contains(errs, filepath.Dir(path)) {
				t.Fatalf("diagnostic carries a host path: %q", errs)
			}
			if got := modStoreEntries(t, home); len(got) != 0 {
				t.Fatalf("store holds %v after a refused add", got)
			}
		})
	}
}

func TestModAddExistingAndForce(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "m")
	modWriteFiles(t, src, map[string]string{"commands/one.md": "1"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	modWriteFiles(t, src, map[string]string{"commands/two.md": "2"})
	if code, _, errs := runModCLI(t, "add", src); code != exitUsage || !strings.Contains(errs, "--force") {
		t.Fatalf("second add: %d %q", code, errs)
	}
	code, out, _ := runModCLI(t, "add", src, "--force", "--json")
	var added struct {
		Commands []string `json:"commands"`
		Replaced bool     `json:"replaced"`
		Source   string   `json:"source"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &added) != nil || !added.Replaced || len(added.Commands) != 2 || added.Source != "folder" {
		t.Fatalf("forced add: %d %s", code, out)
	}
	if got := modStoreEntries(t, home); len(got) != 1 {
		t.Fatalf("store holds %v", got)
	}
	if code, _, _ := runModCLI(t, "add", src, "--name", "Bad/Name"); code != exitUsage {
		t.Fatalf("bad --name: %d", code)
	}
	if code, _, _ := runModCLI(t, "add", src, "--ref", "main"); code != exitUsage {
		t.Fatalf("--ref on a folder: %d", code)
	}
}

// mod rm without --force and without a terminal refuses, installs
// recorded or not (a missing module is still "not found"); with --force it uninstalls each first, and one it
// cannot (here: a target this lola lacks) stops it with the module kept.
// TestEndToEndModRmUninstallsEverywhere runs it with the built targets.
func TestModRmRefusesWhileInstalled(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "m")
	modWriteFiles(t, src, map[string]string{"commands/one.md": "1"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	installed := "version: '1.0'\ninstallations:\n  - module: m\n    assistant: claude-code\n    scope: user\n    skills: []\n"
	os.WriteFile(filepath.Join(home, "installed.yml"), []byte(installed), 0o600)
	if code, _, errs := runModCLI(t, "rm", "m"); code != exitUsage || !strings.Contains(errs, "installed") || !strings.Contains(errs, "--force") {
		t.Fatalf("rm of an installed module: %d %q", code, errs)
	}
	if got := modStoreEntries(t, home); len(got) != 1 {
		t.Fatalf("refused rm changed the store: %v", got)
	}
	if code, _, errs := runModCLI(t, "rm", "m", "-f"); code != exitUsage || !strings.Contains(errs, "m stays in the store") {
		t.Fatalf("rm -f with an install it cannot undo: %d %q", code, errs)
	}
	if got := modStoreEntries(t, home); len(got) != 1 {
		t.Fatalf("a stopped rm -f changed the store: %v", got)
	}
	os.Remove(filepath.Join(home, "installed.yml"))
	// Installed nowhere, still no --force and no terminal: refused, as a
	// script must never remove a module without --force.
	if code, out, errs := runModCLI(t, "rm", "m"); code != exitUsage || !strings.Contains(errs, "pass -f/--force") || strings.Contains(out, "Removed") {
		t.Fatalf("rm without -f and without a terminal: %d %q %q", code, out, errs)
	}
	if got := modStoreEntries(t, home); len(got) != 1 {
		t.Fatalf("the refused rm changed the store: %v", got)
	}
	if code, out, errs := runModCLI(t, "rm", "m", "-f"); code != exitOK || !strings.Contains(out, "Removed m") {
		t.Fatalf("rm: %d %q", code, errs)
	}
	if code, _, errs := runModCLI(t, "rm", "m"); code != exitInternal || !strings.Contains(errs, "not found") {
		t.Fatalf("rm of a missing module: %d %q", code, errs)
	}
}

// TestModAddGitGoesThroughRemotePolicy: a git source is cloned by
// host/remote, whose destination policy refuses loopback unless config.yaml
// re-admits it — before any connection is made.
func TestModAddGitGoesThroughRemotePolicy(t *testing.T) {
	home := modTestHome(t)
	for _, src := range []string{"https://127.0.0.1:9/u/repo.git", "ssh://git@[::1]:9/u/repo.git"} {
		code, _, errs := runModCLI(t, "add", src)
		if code != exitRejected || !strings.Contains(errs, "remote.") {
			t.Fatalf("%s: exit %d, %q; want a remote.* refusal", src, code, errs)
		}
	}
	if code, _, errs := runModCLI(t, "add", "http://example.org/u/repo.git"); code != exitRejected || !strings.Contains(errs, "remote.scheme") {
		t.Fatalf("http: %d %q", code, errs)
	}
	if got := modStoreEntries(t, home); len(got) != 0 {
		t.Fatalf("store holds %v", got)
	}
	// A config.yaml that does not load is a usage error, named once.
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("bogus: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runModCLI(t, "add", "https://example.org/u/repo.git")
	if code != exitUsage || strings.Count(errs, "config.yaml") != 1 || !strings.Contains(errs, `unknown key "bogus"`) {
		t.Fatalf("bad config.yaml: exit %d, %q", code, errs)
	}
	if strings.Contains(errs, home) {
		t.Fatalf("the error carries the home path: %q", errs)
	}
}

// TestModAddArchiveURLGoesThroughRemotePolicy: an https archive is fetched
// by host/remote under the same policy as a clone: http is refused by
// scheme, a loopback host by destination, before any connection.
func TestModAddArchiveURLGoesThroughRemotePolicy(t *testing.T) {
	home := modTestHome(t)
	for src, rule := range map[string]string{
		"http://example.org/skills.tar.gz":   "remote.scheme",
		"https://127.0.0.1:9/skills.tar.gz":  "remote.destination",
		"https://[::1]:9/skills.zip?token=s": "remote.destination",
	} {
		code, _, errs := runModCLI(t, "add", src)
		if code != exitRejected || !strings.Contains(errs, rule) {
			t.Fatalf("%s: exit %d, %q; want %s", src, code, errs, rule)
		}
	}
	if code, _, errs := runModCLI(t, "add", "https://example.org/skills.zip", "--ref", "v1"); code != exitUsage || !strings.Contains(errs, "git sources only") {
		t.Fatalf("--ref on an archive URL: %d %q", code, errs)
	}
	if got := modStoreEntries(t, home); len(got) != 0 {
		t.Fatalf("store holds %v", got)
	}
}

func TestModHelpHasExamples(t *testing.T) {
	for _, sub := range [][]string{{"--help"}, {"add", "--help"}, {"ls", "--help"}, {"info", "--help"}, {"rm", "--help"}} {
		code, out, _ := runModCLI(t, sub...)
		if code != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "lola mod") {
			t.Fatalf("mod %v: %d\n%s", sub, code, out)
		}
	}
}

func TestModLsEmptyAndBroken(t *testing.T) {
	home := modTestHome(t)
	if code, out, _ := runModCLI(t, "ls"); code != exitOK || !strings.Contains(out, "No modules") {
		t.Fatalf("empty ls: %d %q", code, out)
	}
	os.MkdirAll(filepath.Join(home, "modules", "broken"), 0o700)
	if code, out, _ := runModCLI(t, "ls"); code != exitOK || !strings.Contains(out, "broken  (unusable: ") || !strings.Contains(out, "not a module") {
		t.Fatalf("ls with a broken module: %d %q", code, out)
	}
}

// mod add of a folder whose content is in module/ names it "module", as
// today's Lola names it by its content folder; a second such folder is
// refused as existing (exit 2, the first kept) unless --name.
func TestModAddNamesAModuleFolderAsTodaysLola(t *testing.T) {
	home := modTestHome(t)
	one, two := filepath.Join(t.TempDir(), "team-kit"), filepath.Join(t.TempDir(), "other-kit")
	modWriteFiles(t, one, map[string]string{"module/skills/a/SKILL.md": "---\ndescription: A\n---\n", "README.md": "r\n"})
	modWriteFiles(t, two, map[string]string{"module/commands/c.md": "C\n"})
	if code, out, errs := runModCLI(t, "add", one); code != exitOK || !strings.Contains(out, "module") {
		t.Fatalf("add: %d %q %q", code, out, errs)
	}
	if got := modStoreEntries(t, home); strings.Join(got, ",") != "module" {
		t.Fatalf("store holds %v, want module", got)
	}
	if code, _, errs := runModCLI(t, "add", two); code != exitUsage || !strings.Contains(errs, "already exists") {
		t.Fatalf("a second module/ folder: %d %q", code, errs)
	}
	if code, _, errs := runModCLI(t, "add", two, "--name", "other-kit"); code != exitOK {
		t.Fatalf("--name: %d %q", code, errs)
	}
	if got := modStoreEntries(t, home); strings.Join(got, ",") != "module,other-kit" {
		t.Fatalf("store holds %v", got)
	}
}

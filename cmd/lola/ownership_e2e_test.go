package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/schema"
)

// builtLola is bin/lola with its built-in targets (make build); the test
// is skipped without them.
func builtLola(t *testing.T) (string, []string) {
	t.Helper()
	exe := os.Getenv("LOLA_BUILT_BINARY")
	if exe == "" {
		exe = filepath.Join("..", "..", "bin", "lola")
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
	}
	if _, err := os.Stat(exe); err != nil {
		t.Skip("no " + exe + ": run make build first (make test does)")
	}
	names := builtinNamesBeside(t, exe)
	exe, _ = filepath.Abs(exe)
	return exe, names
}

// builtinManaged is the managed: list of a built-in target's manifest.
func builtinManaged(t *testing.T, exe, name string) map[string]bool {
	t.Helper()
	m, err := extension.ParseManifest(bytes.NewReader(builtinManifest(t, exe, name)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range m.Managed() {
		out[p.String()] = true
	}
	return out
}

type lolaRun struct {
	code     int
	out, err string
}

func runBuilt(t *testing.T, exe string, env []string, args ...string) lolaRun {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := lolaRun{out: out.String(), err: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func auditRecords(t *testing.T, home string, kind audit.Kind) []audit.Entry {
	t.Helper()
	es, err := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{Kinds: []audit.Kind{kind}})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// For every built-in assistant, in project and user scope: a user's file
// at every path the target writes is refused (conflict.unowned, exit 3,
// tree byte-identical); --force takes them over and the audit log names
// each; a file the user edits after the install is kept by uninstall and
// named in its output.
func TestEndToEndNeverTouchesUserFiles(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, names := builtLola(t)
	if len(names) < 7 {
		t.Fatalf("built-in targets %v: want the seven assistants", names)
	}
	for _, assistant := range names {
		for _, scope := range e2eScopes {
			t.Run(assistant+"/"+scope, func(t *testing.T) {
				neverTouchesUserFiles(t, exe, assistant, scope)
			})
		}
	}
}

func neverTouchesUserFiles(t *testing.T, exe, assistant, scope string) {
	// Learn what the target writes into a world like the user's.
	scratch := newE2EWorld(t, scope)
	src := filepath.Join(scratch.base, "sample")
	modWriteFiles(t, src, e2eSampleFor(scope))
	run := func(w e2eWorld, args ...string) lolaRun {
		t.Helper()
		return runBuiltIn(t, exe, w.env(), w.cwd, args...)
	}
	if r := run(scratch, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	managed := builtinManaged(t, exe, assistant)
	r := run(scratch, scratch.args(scope, "install", "sample", "-a", assistant, "--json")...)
	if r.code != 0 {
		t.Fatalf("scratch install: %+v", r)
	}
	var rep struct {
		Changes []struct{ Kind, Op, Path string }
	}
	if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, c := range rep.Changes {
		if c.Op == "write" && c.Kind == "added" && !managed[c.Path] {
			written = append(written, c.Path)
		}
	}
	sort.Strings(written)
	if len(written) == 0 {
		t.Fatal("the target wrote no file of its own")
	}

	w := newE2EWorld(t, scope)
	modWriteFiles(t, filepath.Join(w.base, "sample"), e2eSampleFor(scope))
	if r := run(w, "mod", "add", filepath.Join(w.base, "sample")); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	root := w.root(scope)
	user := map[string]string{}
	for _, p := range written {
		user[p] = "the user's own " + p + "\n"
	}
	modWriteFiles(t, root, user)
	before := e2eTree(t, root)
	r = run(w, w.args(scope, "install", "sample", "-a", assistant)...)
	if r.code != exitRejected || !strings.Contains(r.err+r.out, "conflict.unowned") || !strings.Contains(r.err, "--force") {
		t.Fatalf("install over user files: %+v", r)
	}
	for _, p := range written {
		if !strings.Contains(r.err+r.out, p) {
			t.Errorf("the refusal does not name %s", p)
		}
	}
	if got := e2eTree(t, root); e2eRender(got) != e2eRender(before) {
		t.Errorf("the refused install changed the %s:\n%s", scope, e2eRender(got))
	}
	rej := auditRecords(t, w.lolaHome, audit.KindRejected)
	if len(rej) != 1 || rej[0].Rejected.Violations[0].Rule != schema.RuleConflictUnowned {
		t.Errorf("audit rejections: %+v", rej)
	}

	r = run(w, w.args(scope, "install", "sample", "-a", assistant, "-f")...)
	if r.code != 0 {
		t.Fatalf("install --force: %+v", r)
	}
	ov := auditRecords(t, w.lolaHome, audit.KindOverride)
	if len(ov) != 1 || ov[0].Override.Action != audit.OverrideForce || strings.Join(ov[0].Override.Paths, ",") != strings.Join(written, ",") {
		t.Fatalf("force override records: %+v, want paths %v", ov, written)
	}

	// The same module again: nothing changes, and the output says so.
	r = run(w, w.args(scope, "install", "sample", "-a", assistant)...)
	if r.code != 0 || !strings.Contains(r.out, ": 0 added, 0 removed, 0 replaced, ") || !strings.Contains(r.out, " unchanged") {
		t.Errorf("reinstall of an unchanged module: %+v", r)
	}

	edited := written[0]
	modWriteFiles(t, root, map[string]string{edited: "edited by the user\n"})
	r = run(w, w.args(scope, "uninstall", "sample", "-a", assistant)...)
	if r.code != 0 || !strings.Contains(r.out, "kept "+edited) {
		t.Fatalf("uninstall: %+v, want %s kept and named", r, edited)
	}
	after := e2eTree(t, root)
	if after[edited] != "edited by the user\n" {
		t.Errorf("%s = %q after uninstall", edited, after[edited])
	}
	for _, p := range written[1:] {
		if _, ok := after[p]; ok {
			t.Errorf("%s (lola's since --force, unchanged) was not removed", p)
		}
	}
	if r := run(w, "audit", "verify"); r.code != 0 || !strings.Contains(r.out, "intact") {
		t.Errorf("audit verify: %+v", r)
	}
}

// runBuiltIn runs exe in dir with env added to the environment.
func runBuiltIn(t *testing.T, exe string, env []string, dir string, args ...string) lolaRun {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := lolaRun{out: out.String(), err: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// A symlinked .claude/skills is refused, naming the link and the flag;
// --replace-symlinks replaces it (audited with the old target) and
// uninstall restores the project exactly, link included.
func TestEndToEndSymlinkedSkillsNeedsConsent(t *testing.T) {
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, src, project := filepath.Join(base, "home"), filepath.Join(base, "sample"), filepath.Join(base, "project")
	env := []string{"LOLA_HOME=" + home}
	modWriteFiles(t, src, e2eSample)
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	modWriteFiles(t, project, map[string]string{"shared/skills/mine/SKILL.md": "mine\n", ".claude/settings.json": "{}\n"})
	if err := os.Symlink("../shared/skills", filepath.Join(project, ".claude", "skills")); err != nil {
		t.Fatal(err)
	}
	snap := func() string {
		t.Helper()
		tree := map[string]string{}
		err := filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(project, p)
			switch {
			case rel == ".": // the executor leaves no lock file (issue 11)
				return nil
			case d.Type()&os.ModeSymlink != 0:
				to, err := os.Readlink(p)
				tree[rel] = "<symlink to " + to + ">"
				return err
			case d.IsDir():
				tree[rel+"/"] = "<dir>"
				return nil
			}
			b, err := os.ReadFile(p)
			tree[rel] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return e2eRender(tree)
	}
	before := snap()
	r := runBuilt(t, exe, env, "install", "sample", "-a", "claude-code", project)
	if r.code != exitRejected || !strings.Contains(r.err, ".claude/skills is a symbolic link") || !strings.Contains(r.err, "--replace-symlinks") {
		t.Fatalf("install without consent: %+v", r)
	}
	if snap() != before {
		t.Fatal("the refused install changed the project")
	}
	r = runBuilt(t, exe, env, "install", "sample", "-a", "claude-code", "--replace-symlinks", project)
	if r.code != 0 || !strings.Contains(r.out, "replaced symbolic link .claude/skills") {
		t.Fatalf("install --replace-symlinks: %+v", r)
	}
	ov := auditRecords(t, home, audit.KindOverride)
	if len(ov) != 1 || ov[0].Override.Action != audit.OverrideReplaceSymlink || ov[0].Override.LinkTarget != "../shared/skills" {
		t.Fatalf("override records %+v", ov)
	}
	plans := auditRecords(t, home, audit.KindPlan)
	if len(plans) != 1 || plans[0].Correlation != ov[0].Correlation {
		t.Error("the replacement is not under the install's correlation id")
	}
	r = runBuilt(t, exe, env, "uninstall", "sample", "-a", "claude-code", project)
	if r.code != 0 || !strings.Contains(r.out, "restored symbolic link .claude/skills") {
		t.Fatalf("uninstall: %+v", r)
	}
	if got := snap(); got != before {
		t.Errorf("uninstall did not restore the project:\n%s\nwant\n%s", got, before)
	}
}

// gemini-cli in user scope, with $LOLA_HOME at its default under the
// user's home: install and uninstall never change the module store.
func TestEndToEndUserScopeNeverTouchesTheStore(t *testing.T) {
	exe, names := builtLola(t)
	if !strings.Contains(strings.Join(names, ","), "gemini-cli") {
		t.Skip("no built-in gemini-cli")
	}
	base := t.TempDir()
	user := filepath.Join(base, "user")
	home := filepath.Join(user, ".lola")
	src := filepath.Join(base, "sample")
	env := []string{"HOME=" + user, "LOLA_HOME=" + home}
	modWriteFiles(t, src, e2eSample)
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	store := filepath.Join(home, "modules")
	before := e2eRender(e2eTree(t, store))
	r := runBuilt(t, exe, env, "install", "sample", "-a", "gemini-cli", "--scope", "user")
	if r.code == 0 {
		if r := runBuilt(t, exe, env, "uninstall", "sample", "-a", "gemini-cli", "--scope", "user"); r.code != 0 {
			t.Fatalf("uninstall: %+v", r)
		}
	} else if r.code != exitRejected || !strings.Contains(r.err+r.out, "conflict.unowned") {
		t.Fatalf("install: %+v", r)
	}
	if got := e2eRender(e2eTree(t, store)); got != before {
		t.Errorf("the module store changed:\n%s\nwant\n%s", got, before)
	}
}

// The symlink prompt on a terminal says what it would replace and takes
// only y or yes for consent.
func TestInstallSymlinkPromptNeedsYes(t *testing.T) {
	links := []install.Symlink{{Path: ".claude/skills", Target: "../shared/skills", Parent: true}}
	for answer, want := range map[string]bool{"y\n": true, "YES\n": true, "\n": false, "n\n": false, "": false, "yes please\n": false} {
		var errOut bytes.Buffer
		got := installSymlinkPrompt(strings.NewReader(answer), &errOut)(links)
		if got != want {
			t.Errorf("answer %q: consent %v, want %v", answer, got, want)
		}
		if !strings.Contains(errOut.String(), ".claude/skills is a symbolic link (to ../shared/skills)") || !strings.Contains(errOut.String(), "[y/N]") {
			t.Errorf("prompt: %q", errOut.String())
		}
	}
}

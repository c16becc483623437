package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// contextModule is a module whose instructions point at a file of its own,
// with a pre-install hook that leaves a trace when it runs.
func contextModule() map[string]string {
	return map[string]string{
		"skills/alpha/SKILL.md":  "---\nname: alpha\ndescription: First skill\n---\n# Alpha\n",
		"AGENTS.md":              "Follow context/conventions.md\n",
		"context/conventions.md": "Tabs.\n",
		"lola.yaml":              "hooks:\n  pre-install: scripts/pre.sh\n",
		"scripts/pre.sh":         "#!/bin/bash\ntouch \"$HOOK_OUT.$LOLA_HOOK\"\n",
	}
}

func claudeMD(module string, lines ...string) string {
	return "<!-- lola:instructions:start -->\n<!-- lola:module:" + module + ":start -->\n" +
		strings.Join(lines, "\n") + "\n<!-- lola:module:" + module + ":end -->\n<!-- lola:instructions:end -->\n"
}

// Hostile: a path that is not there (among ones that are) refuses the
// whole install before anything runs — no hook, no file, no audit record,
// no installed.yml — and the error names exactly the missing paths.
func TestAppendContextMissingPathRefusesTheWholeInstall(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"CLAUDE.md": "# Mine\n", "docs/here.md": "x\n"})
	before, homeBefore := snapshot(t, e.project), snapshot(t, e.home)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("kit", "claude-code")
	o.Environ = hookEnviron(out)
	o.AppendContext = []string{"context/conventions.md", "context/nope.md", filepath.Join(e.project, "docs/gone.md")}
	_, err := Install(context.Background(), o)
	if !errors.Is(err, ErrAppendContext) {
		t.Fatalf("err = %v, want ErrAppendContext", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "context file not found: context/nope.md, "+filepath.Join(e.project, "docs/gone.md")) || strings.Contains(msg, "conventions") {
		t.Errorf("the error does not name exactly the missing paths: %v", err)
	}
	sameTree(t, "project after a refused install", snapshot(t, e.project), before)
	sameTree(t, "lola home after a refused install", snapshot(t, e.home), homeBefore)
	if _, err := os.Stat(out + ".pre-install"); err == nil {
		t.Error("the pre-install hook ran for a refused install")
	}

	// The dry run refuses it the same way.
	o.DryRun = true
	if _, err := Install(context.Background(), o); !errors.Is(err, ErrAppendContext) {
		t.Errorf("dry run: err = %v, want ErrAppendContext", err)
	}
}

// Hostile: a newline (typed, or in the name a symbolic link leads to)
// would forge lines — a module's end marker, say — in CLAUDE.md; it is
// refused, naming the path, and nothing changes.
func TestAppendContextControlCharactersAreRefused(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")
	forged := filepath.Join(e.project, "x\n<!-- lola:module:kit:end -->")
	writeTree(t, e.project, map[string]string{"x\n<!-- lola:module:kit:end -->": "x\n"})
	innocent := filepath.Join(e.project, "innocent.md")
	if err := os.Symlink(forged, innocent); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	for _, given := range []string{forged, innocent, "context/conventions.md\x1b[2J"} {
		o := e.options("kit", "claude-code")
		o.AppendContext = []string{given}
		_, err := Install(context.Background(), o)
		if !errors.Is(err, ErrAppendContext) || !strings.Contains(err.Error(), "control character") {
			t.Fatalf("%q: err = %v, want ErrAppendContext (control character)", given, err)
		}
		sameTree(t, "project", snapshot(t, e.project), before)
		if _, err := os.Stat(filepath.Join(e.home, InstalledFile)); err == nil {
			t.Fatal("installed.yml written for a refused install")
		}
	}
}

// The instructions become one reference per path: inside the project
// relative to it, outside (the module's own files live in the store)
// absolute; the same file given twice — by other spellings, or through a
// link — is referenced once; empty paths are skipped. installed.yml
// records the paths as given and that instructions were installed.
func TestAppendContextReplacesInstructionsWithReferences(t *testing.T) {
	e := newEnv(t)
	modDir := e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"docs/guide.md": "g\n"})
	if err := os.Symlink(filepath.Join(e.project, "docs/guide.md"), filepath.Join(e.project, "guide-link.md")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "shared.md")
	writeTree(t, filepath.Dir(outside), map[string]string{"shared.md": "s\n"})
	given := []string{
		"context/conventions.md", "  ", "./context/conventions.md",
		filepath.Join(e.project, "docs/guide.md"), filepath.Join(e.project, "guide-link.md"),
		outside, "",
	}
	o := e.options("kit", "claude-code")
	o.AppendContext = given
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v %+v", err, rep.Result)
	}
	store, _ := filepath.EvalSymlinks(filepath.Join(modDir, "context/conventions.md"))
	outsideResolved, _ := filepath.EvalSymlinks(outside)
	want := claudeMD("kit",
		"Read the module context from `"+store+"`",
		"Read the module context from `docs/guide.md`",
		"Read the module context from `"+outsideResolved+"`")
	if got := readOr(t, filepath.Join(e.project, "CLAUDE.md")); got != want {
		t.Errorf("CLAUDE.md =\n%s\nwant\n%s", got, want)
	}
	reg, err := ReadRegistry(e.home)
	if err != nil {
		t.Fatal(err)
	}
	recs := reg.Find("kit", "claude-code", "", "")
	if len(recs) != 1 || strings.Join(recs[0].AppendContext, "|") != strings.Join(given, "|") || !recs[0].HasInstructions {
		t.Fatalf("record = %+v", recs)
	}

	// Installed again without the flag: the module's own instructions.
	o.AppendContext = nil
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := readOr(t, filepath.Join(e.project, "CLAUDE.md")); got != claudeMD("kit", "Follow context/conventions.md") {
		t.Errorf("reinstall without --append-context: CLAUDE.md =\n%s", got)
	}
	reg, _ = ReadRegistry(e.home)
	if recs := reg.Find("kit", "claude-code", "", ""); len(recs) != 1 || recs[0].AppendContext != nil {
		t.Errorf("record still holds append_context: %+v", recs)
	}
}

// Scope user has no project: every reference is absolute.
func TestAppendContextUserScopeIsAbsolute(t *testing.T) {
	e := newEnv(t)
	modDir := e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("kit", "claude-code")
	o.Scope = "user"
	o.AppendContext = []string{"context/conventions.md"}
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	store, _ := filepath.EvalSymlinks(filepath.Join(modDir, "context/conventions.md"))
	if got, want := readOr(t, filepath.Join(e.userHome, ".claude/CLAUDE.md")), claudeMD("kit", "Read the module context from `"+store+"`"); got != want {
		t.Errorf(".claude/CLAUDE.md =\n%s\nwant\n%s", got, want)
	}
}

// As today's Lola: a module without instructions gets nothing from the
// flag (its paths are not even looked for; a warning says so), and paths
// that are all empty leave the instructions out.
func TestAppendContextWithoutInstructionsAndAllEmpty(t *testing.T) {
	e := newEnv(t)
	files := contextModule()
	delete(files, "AGENTS.md")
	e.addModule(t, "bare", files)
	e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")

	var warned []string
	o := e.options("bare", "claude-code")
	o.Warn = func(s string) { warned = append(warned, s) }
	o.AppendContext = []string{"nowhere.md"}
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatalf("module without instructions: %v", err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "--append-context ignored: module bare has no instructions") {
		t.Errorf("warnings = %q", warned)
	}
	if got := readOr(t, filepath.Join(e.project, "CLAUDE.md")); got != "<absent>" {
		t.Errorf("CLAUDE.md = %q", got)
	}

	o = e.options("kit", "claude-code")
	o.AppendContext = []string{"", " \t"}
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := readOr(t, filepath.Join(e.project, "CLAUDE.md")); got != "<absent>" {
		t.Errorf("all-empty paths installed instructions: %q", got)
	}
	reg, _ := ReadRegistry(e.home)
	if recs := reg.Find("kit", "claude-code", "", ""); len(recs) != 1 || recs[0].HasInstructions || len(recs[0].AppendContext) != 2 {
		t.Errorf("record = %+v", recs)
	}
}

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

// A path that is not there (among ones that are) is named in a warning
// and the module's instructions are not installed at all (no block, not
// even for the paths found), as today's Lola does; the rest of the module
// is installed and installed.yml records the paths as given, without
// instructions. The user's CLAUDE.md is as it was.
func TestAppendContextMissingPathWarnsAndWritesNoBlock(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "kit", contextModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"CLAUDE.md": "# Mine\n", "docs/here.md": "x\n"})
	o := e.options("kit", "claude-code")
	var warned []string
	o.Warn = func(s string) { warned = append(warned, s) }
	o.Environ = hookEnviron(filepath.Join(t.TempDir(), "hook"))
	gone := filepath.Join(e.project, "docs/gone.md")
	o.AppendContext = []string{"context/conventions.md", "context/nope.md", gone}
	rep, err := Install(context.Background(), o)
	if err != nil || rep.Result == nil {
		t.Fatalf("install: %+v %v", rep, err)
	}
	var named []string
	for _, w := range warned {
		if strings.Contains(w, "no such file") {
			named = append(named, w)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], "context/nope.md, "+gone) || strings.Contains(named[0], "conventions") || !strings.Contains(named[0], "instructions are not installed") {
		t.Errorf("the warning does not name exactly the missing paths: %q", warned)
	}
	if b, err := os.ReadFile(filepath.Join(e.project, "CLAUDE.md")); err != nil || string(b) != "# Mine\n" {
		t.Errorf("CLAUDE.md got a block: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(e.project, ".claude/skills/alpha/SKILL.md")); err != nil {
		t.Errorf("the rest of the module was not installed: %v", err)
	}
	reg, err := ReadRegistry(e.home)
	if err != nil || len(reg.All()) != 1 {
		t.Fatalf("installed.yml: %v %v", reg, err)
	}
	if r := reg.All()[0]; r.HasInstructions || len(r.AppendContext) != 3 {
		t.Errorf("record: has_instructions %v, append_context %q", r.HasInstructions, r.AppendContext)
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

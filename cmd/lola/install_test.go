package main

import (
	"bytes"
	"encoding/json"
	"github.com/lola-pm/lola/host/extension"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/shim/shimtest"
	"github.com/lola-pm/lola/schema"
)

// installWorld is a $LOLA_HOME with the sample module in its store, a
// project, and a place for hooks to report to.
type installWorld struct {
	home, project, hookOut string
}

const installRecordingHook = "#!/bin/bash\nenv | grep '^LOLA_' | sort > \"$HOOK_OUT.$LOLA_HOOK\"\necho \"$LOLA_HOOK ran\"\n"
const installFailingHook = "#!/bin/bash\necho 'no python here' >&2\nexit 3\n"

func newInstallWorld(t *testing.T, pre, post string) installWorld {
	t.Helper()
	base := t.TempDir()
	w := installWorld{home: filepath.Join(base, "home"), project: filepath.Join(base, "project"), hookOut: filepath.Join(base, "hook")}
	t.Setenv("LOLA_HOME", w.home)
	t.Setenv("HOOK_OUT", w.hookOut)
	src := filepath.Join(base, "sample")
	modWriteFiles(t, src, map[string]string{
		"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha\n---\n# Alpha\n",
		"commands/hello.md":     "---\ndescription: Hello\n---\nHello.\n",
		"lola.yaml":             "hooks:\n  pre-install: scripts/pre.sh\n  post-install: scripts/post.sh\n",
		"scripts/pre.sh":        pre,
		"scripts/post.sh":       post,
	})
	if err := os.MkdirAll(w.project, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runModCLI(t, "add", src); code != 0 {
		t.Fatalf("mod add: %d %s", code, errOut)
	}
	return w
}

// target installs an extension called "fake" in $LOLA_HOME/extensions:
// a tier-1 module returning plan, or (native) a script.
func (w installWorld) target(t *testing.T, tier string, artifact []byte, paths string) {
	t.Helper()
	dir := filepath.Join(w.home, "extensions", "fake")
	rel := "dist/fake"
	if tier == "tier1" {
		rel += ".wasm"
	}
	modWriteFiles(t, dir, map[string]string{
		"lola-extension.yaml": "name: fake\nversion: 1.0.0\nkind: target\nartifacts:\n  " + tier + ": " + rel + "\npaths: " + paths + "\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rel), artifact, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := extension.Adopt(w.home, "fake", extension.AddOptions{AllowUnsigned: true}); err != nil {
		t.Fatal(err)
	}
}

func (w installWorld) reactorTarget(t *testing.T, plan string, paths string) {
	t.Helper()
	w.target(t, "tier1", shimtest.Reactor(schema.ABIVersion, 0, []byte(plan)).Bytes(), paths)
	installTestEnv = []string{extHostChildEnv + "=1"}
	t.Cleanup(func() { installTestEnv = nil })
}

func runLola(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func projectEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

const installSkillPlan = `{"protocol":1,"intents":[{"op":"write","path":".claude/skills/alpha/SKILL.md","content":"# Alpha\n"}]}`

func TestInstallCLIDryRunShowsTreeDiffAndHooksWithoutRunningThem(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", "--dry-run", w.project)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"would run pre-install hook of sample: bash scripts/pre.sh",
		"would run post-install hook of sample: bash scripts/post.sh",
		"dry run: 1 added, 0 removed",
		"+ .claude/skills/alpha/SKILL.md",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := projectEntries(t, w.project); len(got) != 0 {
		t.Errorf("a dry run changed the project: %v", got)
	}
	for _, f := range []string{w.hookOut + ".pre-install", w.hookOut + ".post-install", filepath.Join(w.home, "installed.yml"), filepath.Join(w.home, audit.FileName)} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("a dry run wrote %s", filepath.Base(f))
		}
	}

	code, out, _ = runLola(t, "install", "sample", "-a", "fake", "--dry-run", "--json", w.project)
	var rep installReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if rep.Outcome != "dry-run" || rep.Tier != "wasm/tier1" || len(rep.Hooks) != 2 || rep.Hooks[0].Ran || len(rep.Changes) != 1 || rep.Changes[0].Path != ".claude/skills/alpha/SKILL.md" {
		t.Errorf("report = %+v", rep)
	}
}

func TestInstallCLIAppliesRecordsAndLists(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", w.project)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"pre-install hook scripts/pre.sh: native, unsigned (runs unconfined as you); ok", "  | pre-install ran", "Installed sample for fake into project", "+ .claude/skills/alpha/SKILL.md", "audit correlation "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(w.project, ".claude/skills/alpha/SKILL.md")); err != nil || string(b) != "# Alpha\n" {
		t.Errorf("skill = %q, %v", b, err)
	}
	if !strings.Contains(readFileOr(filepath.Join(w.hookOut+".pre-install")), "LOLA_PROJECT_PATH="+w.project) {
		t.Error("the pre-install hook did not run with the project path")
	}
	code, out, _ = runLola(t, "list")
	// The record says what the plan wrote (the skill), not everything the
	// module holds (its command was not written by this target).
	if code != 0 || !strings.Contains(out, "sample  fake  project "+w.project) || !strings.Contains(out, "skills: alpha\n") || strings.Contains(out, "commands") {
		t.Errorf("list: %d\n%s", code, out)
	}
	code, out, _ = runLola(t, "audit", "verify")
	if code != 0 {
		t.Errorf("audit verify: %d %s", code, out)
	}
	// Each hook's run record says it ran native and unsigned.
	entries, err := audit.Read(filepath.Join(w.home, audit.FileName), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	hooks := 0
	for _, e := range entries {
		if e.Run != nil && e.Run.Tier == audit.TierHook {
			hooks++
			if e.Run.Extension.Signature != "native, unsigned (runs unconfined as you)" {
				t.Errorf("hook run record %s: signature %q", e.Run.Extension.Name, e.Run.Extension.Signature)
			}
		}
	}
	if hooks != 2 {
		t.Errorf("%d hook run records, want 2", hooks)
	}
}

func readFileOr(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

func TestInstallCLIExitCodes(t *testing.T) {
	w := newInstallWorld(t, installFailingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	cases := []struct {
		name string
		args []string
		code int
		say  string
	}{
		{"no assistant: every one, stopping at the first failure", []string{"install", "sample", w.project}, exitExtension, "pre-install hook failed"},
		{"unknown module", []string{"install", "nope", "-a", "fake", w.project}, exitInternal, "not found"},
		{"unknown assistant", []string{"install", "sample", "-a", "emacs", w.project}, exitUsage, "emacs"},
		{"bad scope", []string{"install", "sample", "-a", "fake", "--scope", "global", w.project}, exitUsage, "--scope"},
		{"project with user scope", []string{"install", "sample", "-a", "fake", "--scope", "user", w.project}, exitUsage, "PROJECT"},
		{"hook outside the module", []string{"install", "sample", "-a", "fake", "--pre-install", "../../x.sh", w.project}, exitUsage, "pre-install"},
		{"failing pre-install hook", []string{"install", "sample", "-a", "fake", w.project}, exitExtension, "pre-install hook failed; nothing was applied"},
	}
	for _, c := range cases {
		code, out, errOut := runLola(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.say) {
			t.Errorf("%s: exit %d (want %d)\nstdout %s\nstderr %s", c.name, code, c.code, out, errOut)
		}
		if got := projectEntries(t, w.project); len(got) != 0 {
			t.Fatalf("%s changed the project: %v", c.name, got)
		}
	}
	if strings.Contains(readFileOr(filepath.Join(w.home, "installed.yml")), "sample") {
		t.Error("installed.yml records a failed install")
	}
}

// A plan outside the target's path grant is rejected whole: exit 3, the
// rule named, nothing applied, nothing recorded.
func TestInstallCLIRejectsPlanOutsideGrant(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, `{"protocol":1,"intents":[{"op":"write","path":".claude/ok.md","content":"x"},{"op":"write","path":"README.md","content":"pwned"}]}`, "[.claude/]")
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", w.project)
	if code != exitRejected || !strings.Contains(errOut, "grant.outside") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if got := projectEntries(t, w.project); len(got) != 0 {
		t.Errorf("a rejected plan changed the project: %v", got)
	}
	if _, err := os.Stat(w.hookOut + ".post-install"); err == nil {
		t.Error("post-install ran after a rejected plan")
	}
	if _, err := os.Stat(filepath.Join(w.home, "installed.yml")); err == nil {
		t.Error("installed.yml written for a rejected plan")
	}
}

// --dry-run refuses a native target without running it (exit 2).
func TestInstallCLIDryRunRefusesNativeTarget(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	marker := filepath.Join(t.TempDir(), "ran")
	w.target(t, "tier2", []byte("#!/bin/sh\ntouch "+marker+"\necho '{\"protocol\":1,\"intents\":[]}'\n"), "[.claude/]")
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", "--dry-run", w.project)
	if code != exitUsage || !strings.Contains(errOut, "native (tier-2)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the native target ran under --dry-run")
	}
	if _, err := os.Stat(w.hookOut + ".pre-install"); err == nil {
		t.Fatal("a hook ran under --dry-run")
	}
}

// Progress lines are for a terminal only: a pipe, a file or a buffer gets
// none.
func TestInstallProgressOnlyOnATerminal(t *testing.T) {
	if installIsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer counted as a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if installIsTerminal(f) {
		t.Error("a regular file counted as a terminal")
	}
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	_, _, errOut := runLola(t, "install", "sample", "-a", "fake", w.project)
	if strings.Contains(errOut, "running ") {
		t.Errorf("progress lines on a non-terminal stderr:\n%s", errOut)
	}
}

package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func auditEntries(t *testing.T, home string) []audit.Entry {
	t.Helper()
	path := filepath.Join(home, audit.FileName)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	var out []audit.Entry
	if err := audit.Scan(path, audit.Filter{}, func(e audit.Entry) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := audit.Verify(path); err != nil {
		t.Fatalf("audit verify: %v", err)
	}
	return out
}

func hookEnviron(out string) []string {
	return append(os.Environ(), "HOOK_OUT="+out, "USER_VAR=kept", "LOLA_SCOPE=stale-from-the-user", "LOLA_EXTRA=not-a-hook-variable")
}

// An unmodified pre- and post-install hook runs as tier 2 in the project
// with the user's environment plus exactly today's six LOLA_* variables,
// around a committed plan; every record of the install — both hook runs,
// each naming the hook as a native extension — carries one correlation.
func TestInstallRunsUnmodifiedHooksAsTier2WithTodaysEnvironment(t *testing.T) {
	e := newEnv(t)
	modDir := e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ = hookEnviron(out)
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if !rep.Applied() {
		t.Fatalf("outcome %v: %v", rep.Result.Outcome, rep.Result.Err)
	}
	for _, point := range []string{"pre-install", "post-install"} {
		got := strings.Split(strings.TrimSpace(readOr(t, out+"."+point)), "\n")
		want := []string{
			"LOLA_ASSISTANT=claude-code",
			"LOLA_EXTRA=not-a-hook-variable", // the user's own variable, inherited
			"LOLA_HOOK=" + point,
			"LOLA_MODULE_NAME=sample",
			"LOLA_MODULE_PATH=" + modDir,
			"LOLA_PROJECT_PATH=" + e.project,
			"LOLA_SCOPE=project",
			"PWD=" + e.project,
			"USER_VAR=kept",
		}
		sort.Strings(got[:len(got)-2])
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s hook saw:\n%s\nwant:\n%s", point, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if len(rep.Hooks) != 2 || !rep.Hooks[0].Ran || !rep.Hooks[1].Ran || rep.Hooks[0].Failed() || rep.Hooks[1].Failed() {
		t.Fatalf("hooks = %+v", rep.Hooks)
	}
	if !strings.Contains(string(rep.Hooks[0].Child.Output), "hook pre-install ran for sample") {
		t.Errorf("hook stdout not kept as diagnostics: %q", rep.Hooks[0].Child.Output)
	}
	if got := readOr(t, filepath.Join(e.project, ".claude/skills/alpha/SKILL.md")); !strings.Contains(got, "# Alpha") {
		t.Errorf("skill not installed: %q", got)
	}

	entries := auditEntries(t, e.home)
	if len(entries) < 4 {
		t.Fatalf("%d audit records", len(entries))
	}
	var kinds []string
	for _, en := range entries {
		if en.Correlation != rep.Correlation {
			t.Errorf("record #%d (%s) has correlation %s, want the install's %s", en.Seq, en.Kind, en.Correlation, rep.Correlation)
		}
		kinds = append(kinds, string(en.Kind))
	}
	first, last := entries[0], entries[len(entries)-1]
	if first.Kind != audit.KindRun || last.Kind != audit.KindRun || entries[1].Kind != audit.KindPlan {
		t.Fatalf("record kinds %v: want run, plan, ..., outcome, run", kinds)
	}
	for i, en := range []audit.Entry{first, last} {
		point := []string{"pre-install", "post-install"}[i]
		r := en.Run
		if r.Extension.Name != "hook:sample:"+point || r.Tier != audit.TierHook || !r.Tier.Native() || r.Result != audit.RunCompleted || r.ExitStatus == nil || *r.ExitStatus != 0 {
			t.Errorf("%s run record = %+v", point, r)
		}
		if len(r.Layers) == 0 {
			t.Errorf("%s run record names no containment layer", point)
		}
	}
	if p := entries[1].Plan; p.Extension.Name != "claude-code" || p.Tier != audit.TierNative {
		t.Errorf("plan record = %+v", p)
	}
	// The native target was added with --allow-unsigned: the record says so.
	if s := entries[1].Plan.Extension.Signature; s != "unsigned, opted in" {
		t.Errorf("plan record names the signature %q, want %q", s, "unsigned, opted in")
	}

	reg, err := ReadRegistry(e.home)
	if err != nil {
		t.Fatal(err)
	}
	recs := reg.All()
	if len(recs) != 1 {
		t.Fatalf("installed.yml records: %+v", recs)
	}
	r := recs[0]
	if r.Module != "sample" || r.Assistant != "claude-code" || r.Scope != "project" || r.ProjectPath != e.project ||
		strings.Join(r.Skills, ",") != "alpha,beta" || strings.Join(r.Commands, ",") != "hello" ||
		strings.Join(r.Agents, ",") != "reviewer" || !r.HasInstructions {
		t.Errorf("record = %+v", r)
	}
	st, err := os.Stat(filepath.Join(e.home, InstalledFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("installed.yml mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
}

// A failing pre-install hook aborts the install: the target never runs,
// the tree and installed.yml are byte for byte as before, and the audit log
// holds exactly the hook's run record.
func TestFailingPreInstallHookAbortsWithNothingApplied(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(failingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"README.md": "mine\n", ".claude/settings.json": "{}\n"})
	prior := "version: \"1.0\"\ninstallations:\n  - module: other\n    assistant: cursor\n    scope: user\n"
	if err := os.WriteFile(filepath.Join(e.home, InstalledFile), []byte(prior), 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ = hookEnviron(out)
	rep, err := Install(context.Background(), o)
	if !errors.Is(err, ErrPreInstallFailed) {
		t.Fatalf("err = %v, want ErrPreInstallFailed", err)
	}
	if !strings.Contains(err.Error(), "exit status 7") {
		t.Errorf("err does not say how the hook failed: %v", err)
	}
	if rep.Launched != nil || rep.Result != nil {
		t.Error("the target ran after a failed pre-install hook")
	}
	if readOr(t, out+".pre-install") == "<absent>" {
		t.Error("the pre-install hook did not run")
	}
	if readOr(t, out+".post-install") != "<absent>" {
		t.Error("the post-install hook ran after a failed pre-install hook")
	}
	sameTree(t, "project after an aborted install", snapshot(t, e.project), before)
	if got := readOr(t, filepath.Join(e.home, InstalledFile)); got != prior {
		t.Errorf("installed.yml changed:\n%s", got)
	}
	entries := auditEntries(t, e.home)
	if len(entries) != 1 || entries[0].Kind != audit.KindRun {
		t.Fatalf("audit records = %+v, want one run record", entries)
	}
	r := entries[0].Run
	if r.Extension.Name != "hook:sample:pre-install" || r.Tier != audit.TierHook || r.Result != audit.RunExitNonZero || r.ExitStatus == nil || *r.ExitStatus != 7 {
		t.Errorf("run record = %+v", r)
	}
}

// A failing post-install hook warns and keeps the install.
func TestFailingPostInstallHookOnlyWarns(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, failingHook))
	e.addClaudeCode(t, "tier2")
	out := filepath.Join(t.TempDir(), "hook")
	var warnings []string
	o := e.options("sample", "claude-code")
	o.Environ = hookEnviron(out)
	o.Warn = func(s string) { warnings = append(warnings, s) }
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if !rep.Applied() || rep.Record == nil {
		t.Fatal("the install was not kept")
	}
	if !rep.Hooks[1].Failed() || rep.Hooks[1].Child.Outcome != child.OutcomeExitNonZero {
		t.Errorf("post hook = %+v", rep.Hooks[1])
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "post-install hook of sample failed (exit status 7); the install is kept") {
		t.Errorf("warnings = %q", warnings)
	}
	if readOr(t, filepath.Join(e.project, ".claude/commands/hello.md")) == "<absent>" {
		t.Error("the install's files are gone")
	}
	if recs, _ := ReadRegistry(e.home); len(recs.All()) != 1 {
		t.Error("installed.yml does not record the kept install")
	}
	entries := auditEntries(t, e.home)
	last := entries[len(entries)-1]
	if last.Kind != audit.KindRun || last.Run.Extension.Name != "hook:sample:post-install" || last.Run.Result != audit.RunExitNonZero {
		t.Errorf("last record = %+v", last)
	}
}

// --dry-run runs the tier-1 target (confined), checks its plan and shows
// the tree diff, describes the hooks without running them, and writes
// nothing: no tree change, no audit record, no installed.yml.
func TestDryRunPrintsTier1PlanAndReportsHooksWithoutRunningThem(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier1", "tier2")
	before := snapshot(t, e.project)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ, o.DryRun = hookEnviron(out), true
	shimOptions(t, &o)
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if rep.TargetTier != audit.TierWasm || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeDryRun {
		t.Fatalf("tier %s, result %+v", rep.TargetTier, rep.Result)
	}
	var added []string
	for _, c := range rep.Result.Changes {
		added = append(added, c.Path)
	}
	for _, want := range []string{".claude/skills/alpha/SKILL.md", ".claude/skills/beta/reference.md", ".claude/commands/hello.md"} {
		found := false
		for _, a := range added {
			found = found || a == want
		}
		if !found {
			t.Errorf("dry-run diff lacks %s: %v", want, added)
		}
	}
	if len(rep.Hooks) != 2 {
		t.Fatalf("hooks = %+v", rep.Hooks)
	}
	for _, h := range rep.Hooks {
		if h.Ran {
			t.Errorf("%s hook ran in a dry run", h.Point)
		}
		if !strings.Contains(h.Describe, h.Point.String()+" hook of sample: bash scripts/") || !strings.Contains(h.Describe, "native") {
			t.Errorf("describe = %q", h.Describe)
		}
		if readOr(t, out+"."+h.Point.String()) != "<absent>" {
			t.Errorf("%s hook left output in a dry run", h.Point)
		}
	}
	sameTree(t, "project after a dry run", snapshot(t, e.project), before)
	for _, f := range []string{audit.FileName, InstalledFile} {
		if _, err := os.Stat(filepath.Join(e.home, f)); err == nil {
			t.Errorf("a dry run wrote %s", f)
		}
	}
}

// --dry-run refuses a plan-returning tier-2 target rather than running it.
func TestDryRunRefusesNativeTargetWithoutRunningIt(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	marker := filepath.Join(t.TempDir(), "target-ran")
	script := filepath.Join(t.TempDir(), "target")
	writeTree(t, filepath.Dir(script), map[string]string{"target": "#!/bin/sh\ntouch " + marker + "\necho '{\"protocol\":1,\"intents\":[]}'\n"})
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/]\n")
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ, o.DryRun = hookEnviron(out), true
	rep, err := Install(context.Background(), o)
	if !errors.Is(err, ErrNativeDryRun) {
		t.Fatalf("err = %v, want ErrNativeDryRun", err)
	}
	if rep.Launched != nil {
		t.Error("report says the target ran")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the native target ran under --dry-run")
	}
	for _, p := range []string{"pre-install", "post-install"} {
		if readOr(t, out+"."+p) != "<absent>" {
			t.Errorf("%s hook ran", p)
		}
	}
	// Without --dry-run the same target runs (the refusal is the dry run's).
	o.DryRun = false
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatalf("install: %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("the native target did not run without --dry-run")
	}
}

// A plan outside the effective path grant (the user narrowed claude-code to
// .claude/commands/) is rejected whole: nothing changes, the post-install
// hook does not run, installed.yml is not written, the log has the rule.
func TestInstallRejectsPlanOutsideTheEffectiveGrant(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	cfg, err := config.Parse(strings.NewReader("extensions:\n  claude-code:\n    paths: [.claude/commands/]\n"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ, o.Config = hookEnviron(out), cfg
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeRejected {
		t.Fatalf("result = %+v", rep.Result)
	}
	if !errors.Is(rep.Result.Err, rejection.Rule(schema.RuleGrantOutside)) {
		t.Errorf("rejection = %v, want grant.outside", rep.Result.Err)
	}
	sameTree(t, "project after a rejected plan", snapshot(t, e.project), before)
	if readOr(t, out+".post-install") != "<absent>" {
		t.Error("post-install ran after a rejected plan")
	}
	if _, err := os.Stat(filepath.Join(e.home, InstalledFile)); err == nil {
		t.Error("installed.yml written for a rejected install")
	}
	var rejected bool
	for _, en := range auditEntries(t, e.home) {
		if en.Kind == audit.KindRejected && en.Correlation == rep.Correlation {
			for _, v := range en.Rejected.Violations {
				rejected = rejected || v.Rule == schema.RuleGrantOutside
			}
		}
	}
	if !rejected {
		t.Error("no rejected record with grant.outside under the install's correlation")
	}
}

// A hook script must resolve inside the module: an escaping --pre-install
// path or a lola.yaml hook that is a symlink out of the module is refused
// before anything runs.
func TestHookScriptOutsideTheModuleIsRefused(t *testing.T) {
	e := newEnv(t)
	modDir := e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	outside := filepath.Join(t.TempDir(), "evil.sh")
	writeTree(t, filepath.Dir(outside), map[string]string{"evil.sh": "#!/bin/bash\ntouch \"$HOOK_OUT.evil\"\n"})
	if err := os.Symlink(outside, filepath.Join(modDir, "scripts", "link.sh")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "hook")
	before := snapshot(t, e.project)
	for _, script := range []string{"../../evil.sh", "/etc/passwd", "scripts/link.sh", "scripts/missing.sh"} {
		o := e.options("sample", "claude-code")
		o.Environ, o.PreInstall = hookEnviron(out), script
		if _, err := Install(context.Background(), o); !errors.Is(err, ErrHookInvalid) {
			t.Errorf("--pre-install %s: err = %v, want ErrHookInvalid", script, err)
		}
	}
	if readOr(t, out+".evil") != "<absent>" || readOr(t, out+".pre-install") != "<absent>" {
		t.Error("a hook ran")
	}
	sameTree(t, "project", snapshot(t, e.project), before)
	if entries := auditEntries(t, e.home); len(entries) != 0 {
		t.Errorf("%d audit records for refused installs", len(entries))
	}
}

// The CLI's --pre-install wins over lola.yaml's.
func TestCLIHookWinsOverLolaYAML(t *testing.T) {
	e := newEnv(t)
	files := sampleModule(failingHook, recordingHook)
	files["scripts/cli.sh"] = recordingHook
	e.addModule(t, "sample", files)
	e.addClaudeCode(t, "tier2")
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ, o.PreInstall = hookEnviron(out), "scripts/cli.sh"
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatalf("install: %v (the failing lola.yaml hook ran instead of --pre-install)", err)
	}
	if rep.Hooks[0].Script != "scripts/cli.sh" || !rep.Applied() {
		t.Errorf("hooks = %+v", rep.Hooks)
	}
}

// Uninstall removes exactly what install wrote: the project is byte for
// byte as before the install, including the user's own files beside the
// installed ones, and installed.yml no longer records it.
func TestUninstallRemovesExactlyWhatInstallWrote(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{
		"README.md":              "mine\n",
		".claude/settings.json":  "{}\n",
		".claude/commands/my.md": "my own command\n",
		"CLAUDE.md":              "# My project\n\nMy own notes.\n",
	})
	before := snapshot(t, e.project)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ = hookEnviron(out)
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v %+v", err, rep.Result)
	}
	if got := readOr(t, filepath.Join(e.project, "CLAUDE.md")); !strings.Contains(got, "My own notes.") || !strings.Contains(got, "Use the alpha skill first.") {
		t.Errorf("CLAUDE.md after install (the user's text must stay, the module's block be added):\n%s", got)
	}
	if os.Remove(out+".pre-install") != nil || os.Remove(out+".post-install") != nil {
		t.Fatal("hooks did not run on install")
	}
	urep, err := Uninstall(context.Background(), o)
	if err != nil || !urep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, urep.Result)
	}
	sameTree(t, "project after install then uninstall", snapshot(t, e.project), before)
	if readOr(t, out+".pre-install") != "<absent>" {
		t.Error("uninstall ran an install hook")
	}
	reg, err := ReadRegistry(e.home)
	if err != nil || len(reg.All()) != 0 {
		t.Errorf("installed.yml after uninstall: %+v %v", reg.All(), err)
	}
	if _, err := Uninstall(context.Background(), o); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("second uninstall: %v, want ErrNotInstalled", err)
	}
}

// Requests that cannot be served are refused before anything runs.
func TestInstallRefusesBadRequests(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	cases := map[string]struct {
		edit func(*Options)
		want error
	}{
		"unknown module":    {func(o *Options) { o.Module = "nope" }, ErrModuleNotFound},
		"bad module name":   {func(o *Options) { o.Module = "../x" }, ErrUsage},
		"unknown assistant": {func(o *Options) { o.Assistant = "emacs" }, ErrUnknownAssistant},
		"bad assistant":     {func(o *Options) { o.Assistant = "../claude-code" }, ErrUnknownAssistant},
		"bad scope":         {func(o *Options) { o.Scope = "global" }, ErrUsage},
		"missing project":   {func(o *Options) { o.Project = filepath.Join(e.project, "absent") }, ErrUsage},
	}
	for name, c := range cases {
		o := e.options("sample", "claude-code")
		o.Environ = hookEnviron(filepath.Join(t.TempDir(), "hook"))
		c.edit(&o)
		if _, err := Install(context.Background(), o); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", name, err, c.want)
		}
		if strings.Contains(errString(Install(context.Background(), o)), e.home) {
			t.Errorf("%s: the error carries the Lola home path", name)
		}
	}
	if entries := auditEntries(t, e.home); len(entries) != 0 {
		t.Errorf("%d audit records for refused requests", len(entries))
	}
}

func errString(_ Report, err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A user-scope install lands in the user's home, and its hooks see an
// empty LOLA_PROJECT_PATH and run in the home directory.
func TestUserScopeInstallsUnderTheUsersHome(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier2")
	t.Setenv("HOME", e.userHome)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ, o.Scope = hookEnviron(out), schema.ScopeUser
	before := snapshot(t, e.project)
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v %+v", err, rep.Result)
	}
	if readOr(t, filepath.Join(e.userHome, ".claude/skills/alpha/SKILL.md")) == "<absent>" {
		t.Error("skill not under the user's home")
	}
	sameTree(t, "project", snapshot(t, e.project), before)
	env := readOr(t, out+".pre-install")
	if !strings.Contains(env, "LOLA_PROJECT_PATH=\n") || !strings.Contains(env, "LOLA_SCOPE=user\n") || !strings.Contains(env, "PWD="+e.userHome+"\n") {
		t.Errorf("user-scope hook environment:\n%s", env)
	}
	if rep.Record == nil || rep.Record.ProjectPath != "" || rep.Record.Scope != "user" {
		t.Errorf("record = %+v", rep.Record)
	}
}

// TestTargetPlansAgainstWhatThePreInstallHookLeft: a pre-install hook that
// edits a managed file (CLAUDE.md) is not undone by the install: the
// target is handed the file as the hook left it and splices into that.
func TestTargetPlansAgainstWhatThePreInstallHookLeft(t *testing.T) {
	e := newEnv(t)
	editing := "#!/bin/bash\nset -eu\nprintf '# Notes the hook wrote\\n' > CLAUDE.md\n"
	e.addModule(t, "sample", sampleModule(editing, "#!/bin/bash\n"))
	e.addClaudeCode(t, "tier2")
	if err := os.WriteFile(filepath.Join(e.project, "CLAUDE.md"), []byte("# Before the hook\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Install(context.Background(), e.options("sample", "claude-code"))
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v", err)
	}
	got := readOr(t, filepath.Join(e.project, "CLAUDE.md"))
	if !strings.HasPrefix(got, "# Notes the hook wrote\n") || strings.Contains(got, "Before the hook") || !strings.Contains(got, "Use the alpha skill first.") {
		t.Fatalf("CLAUDE.md after install:\n%s", got)
	}
}

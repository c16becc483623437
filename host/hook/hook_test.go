package hook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPointsRoundTrip(t *testing.T) {
	for _, p := range Points() {
		b, err := p.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		back, ok := ParsePoint(string(b))
		if !ok || back != p {
			t.Fatalf("%v does not round-trip", p)
		}
	}
	if _, ok := ParsePoint("install"); ok {
		t.Fatal("an unknown point parsed")
	}
	if _, err := Point(0).MarshalText(); err == nil {
		t.Fatal("the zero point marshalled")
	}
}

func TestLoadDeclared(t *testing.T) {
	dir := t.TempDir()
	d, err := LoadDeclared(dir)
	if err != nil || d.Script(PreInstall) != "" {
		t.Fatalf("no lola.yaml: %v %q", err, d.Script(PreInstall))
	}
	write(t, filepath.Join(dir, "lola.yml"), "hooks:\n  pre-install: scripts/pre.sh\n  post-install: scripts/post.sh\n")
	d, err = LoadDeclared(dir)
	if err != nil || d.Script(PreInstall) != "scripts/pre.sh" || d.Script(PostInstall) != "scripts/post.sh" {
		t.Fatalf("lola.yml: %v %+v", err, d)
	}
	cli := d.With(PreInstall, "other.sh")
	if cli.Script(PreInstall) != "other.sh" || cli.Script(PostInstall) != "scripts/post.sh" || d.Script(PreInstall) != "scripts/pre.sh" {
		t.Fatal("the CLI override must win without changing the declaration it came from")
	}
	if d.With(PostInstall, "").Script(PostInstall) != "scripts/post.sh" {
		t.Fatal("an empty override replaced the declared script")
	}

	for name, tc := range map[string]struct{ body, mention string }{
		"unknown top-level key": {"hooks: {}\nmcps: x\n", `unknown key "mcps"`},
		"unknown hook":          {"hooks:\n  pre-uninstall: x.sh\n", `unknown hook "pre-uninstall"`},
		"empty script":          {"hooks:\n  pre-install: \"\"\n", "empty script path"},
		"not a mapping":         {"hooks: [a]\n", "cannot unmarshal"},
		"two documents":         {"hooks: {}\n---\nhooks: {}\n", "more than one"},
		"too large":             {"# " + strings.Repeat("x", maxModuleConfig) + "\n", "exceeds"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "lola.yaml"), tc.body)
			_, err := LoadDeclared(dir)
			if err == nil {
				t.Fatalf("%s accepted", name)
			}
			if !strings.Contains(err.Error(), "lola.yaml") || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("error %q does not name lola.yaml and %q", err, tc.mention)
			}
			if strings.Contains(err.Error(), dir) {
				t.Fatalf("error carries the host path: %v", err)
			}
		})
	}
	both := t.TempDir()
	write(t, filepath.Join(both, "lola.yaml"), "hooks: {}\n")
	write(t, filepath.Join(both, "lola.yml"), "hooks: {}\n")
	if _, err := LoadDeclared(both); err == nil || !strings.Contains(err.Error(), "both") {
		t.Fatalf("both spellings: %v", err)
	}
}

func TestResolveRefusesScriptsOutsideTheModule(t *testing.T) {
	base := t.TempDir()
	mod := filepath.Join(base, "mod")
	write(t, filepath.Join(mod, "scripts/ok.sh"), "exit 0\n")
	write(t, filepath.Join(base, "outside.sh"), "echo pwned\n")
	if err := os.Symlink("../outside.sh", filepath.Join(mod, "escape.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("scripts/ok.sh", filepath.Join(mod, "inside.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(mod, "up")); err != nil {
		t.Fatal(err)
	}

	if _, err := Resolve(PreInstall, mod, mod, "scripts/ok.sh"); err != nil {
		t.Fatalf("a plain script was refused: %v", err)
	}
	if _, err := Resolve(PreInstall, mod, mod, "inside.sh"); err != nil {
		t.Fatalf("a symlink that stays inside the module was refused: %v", err)
	}
	for script, rule := range map[string]schema.Rule{
		"/etc/passwd":     schema.RulePathAbsolute,
		"../outside.sh":   schema.RulePathTraversal,
		"scripts/../../x": schema.RulePathTraversal,
		"scripts//ok.sh":  schema.RulePathInvalid,
		"scripts\\ok.sh":  schema.RulePathInvalid,
	} {
		_, err := Resolve(PreInstall, mod, mod, script)
		if !errors.Is(err, rejection.Rule(rule)) {
			t.Errorf("%q: got %v, want %v", script, err, rule)
		}
	}
	for _, script := range []string{"escape.sh", "up/outside.sh", "missing.sh", "scripts"} {
		if _, err := Resolve(PostInstall, mod, mod, script); err == nil {
			t.Errorf("%q was accepted", script)
		}
	}
	if _, err := Resolve(PreInstall, mod, base, "outside.sh"); err == nil {
		t.Error("a content directory outside the module was accepted")
	}
	if err := os.Symlink("loop.sh", filepath.Join(mod, "loop.sh")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ moduleDir, script string }{
		{filepath.Join(base, "gone"), "scripts/ok.sh"}, // the module directory does not resolve
		{mod, "loop.sh"}, // the script does not resolve
		{mod, "escape.sh"},
		{mod, "missing.sh"},
	} {
		_, err := Resolve(PreInstall, tc.moduleDir, tc.moduleDir, tc.script)
		if err == nil || strings.Contains(err.Error(), base) {
			t.Errorf("%s in %s: error %v is missing or carries the host path", tc.script, tc.moduleDir, err)
		}
	}
}

func requireBash(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("hooks run through bash; this test's scripts are POSIX shell")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no POSIX shell")
	}
}

func invocation(t *testing.T, mod, script string, p Point) Invocation {
	t.Helper()
	s, err := Resolve(p, mod, mod, script)
	if err != nil {
		t.Fatal(err)
	}
	return Invocation{Script: s, ModuleName: "demo", ModulePath: mod, Assistant: "claude-code", Scope: schema.ScopeProject}
}

// TestUnmodifiedHookReceivesTodaysEnvironment runs a hook written for
// today's Lola and checks exactly the variables it is promised, its working
// directory, and that the user's environment still reaches it.
func TestUnmodifiedHookReceivesTodaysEnvironment(t *testing.T) {
	requireBash(t)
	mod := t.TempDir()
	project := t.TempDir()
	write(t, filepath.Join(mod, "scripts/check_env.sh"), `#!/bin/bash
echo "MODULE_NAME=$LOLA_MODULE_NAME"
echo "MODULE_PATH=$LOLA_MODULE_PATH"
echo "PROJECT_PATH=$LOLA_PROJECT_PATH"
echo "ASSISTANT=$LOLA_ASSISTANT"
echo "SCOPE=$LOLA_SCOPE"
echo "HOOK=$LOLA_HOOK"
echo "PWD=$(pwd -P)"
echo "USER_VAR=$USER_VAR"
env | grep '^LOLA_' | sort | cut -d= -f1 | tr '\n' ' '
`)
	in := invocation(t, mod, "scripts/check_env.sh", PreInstall)
	in.ProjectPath = project
	in.Environ = []string{"PATH=" + os.Getenv("PATH"), "USER_VAR=kept", "LOLA_HOOK=stale", "LOLA_OTHER=x"}
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != child.OutcomeCompleted {
		t.Fatalf("outcome %v: %s %s", res.Outcome, res.Output, res.Diagnostics)
	}
	realProject, _ := filepath.EvalSymlinks(project)
	out := string(res.Output)
	for _, want := range []string{
		"MODULE_NAME=demo\n", "MODULE_PATH=" + mod + "\n", "PROJECT_PATH=" + project + "\n",
		"ASSISTANT=claude-code\n", "SCOPE=project\n", "HOOK=pre-install\n",
		"PWD=" + realProject + "\n", "USER_VAR=kept\n",
		"LOLA_ASSISTANT LOLA_HOOK LOLA_MODULE_NAME LOLA_MODULE_PATH LOLA_OTHER LOLA_PROJECT_PATH LOLA_SCOPE ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("hook output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "LOLA_HOOK") != 1 {
		t.Errorf("LOLA_HOOK appears more than once:\n%s", out)
	}
	if got := in.Identity(); got != "hook:demo:pre-install" {
		t.Errorf("Identity() = %q", got)
	}
}

func TestUserScopeHookRunsInHomeWithEmptyProjectPath(t *testing.T) {
	requireBash(t)
	mod := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	write(t, filepath.Join(mod, "h.sh"), `echo "P=[$LOLA_PROJECT_PATH] S=$LOLA_SCOPE D=$(pwd -P)"`)
	in := invocation(t, mod, "h.sh", PostInstall)
	in.Scope = schema.ScopeUser
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	realHome, _ := filepath.EvalSymlinks(home)
	if want := "P=[] S=user D=" + realHome + "\n"; string(res.Output) != want {
		t.Fatalf("output %q, want %q", res.Output, want)
	}
}

func TestFailingAndStuckHooks(t *testing.T) {
	requireBash(t)
	mod := t.TempDir()
	write(t, filepath.Join(mod, "fail.sh"), "echo about to fail >&2\nexit 7\n")
	write(t, filepath.Join(mod, "stuck.sh"), "sleep 30\n")
	write(t, filepath.Join(mod, "loud.sh"), "head -c 1000000 /dev/zero | tr '\\0' x\n")

	res, err := Run(context.Background(), invocation(t, mod, "fail.sh", PreInstall))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != child.OutcomeExitNonZero || res.ExitStatus != 7 || !strings.Contains(string(res.Diagnostics), "about to fail") {
		t.Fatalf("failing hook: %v status %d diag %q", res.Outcome, res.ExitStatus, res.Diagnostics)
	}

	in := invocation(t, mod, "stuck.sh", PreInstall)
	in.Deadline = 300 * time.Millisecond
	start := time.Now()
	res, err = Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != child.OutcomeKilledDeadline {
		t.Fatalf("stuck hook: %v", res.Outcome)
	}
	if took := time.Since(start); took > in.Deadline+Grace+time.Second {
		t.Fatalf("stuck hook took %s", took)
	}

	res, err = Run(context.Background(), invocation(t, mod, "loud.sh", PostInstall))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != child.OutcomeCompleted || !res.OutputTruncated || len(res.Output) > OutputCap+256 {
		t.Fatalf("loud hook: %v truncated=%v len=%d", res.Outcome, res.OutputTruncated, len(res.Output))
	}
}

func TestDescribeNamesTheHookWithoutRunningIt(t *testing.T) {
	mod := t.TempDir()
	write(t, filepath.Join(mod, "scripts/pre.sh"), "touch ran\n")
	in := invocation(t, mod, "scripts/pre.sh", PreInstall)
	in.ProjectPath = t.TempDir()
	got := in.Describe()
	for _, want := range []string{"pre-install", "demo", "bash scripts/pre.sh", "native", "5m0s"} {
		if !strings.Contains(got, want) {
			t.Errorf("Describe() = %q lacks %q", got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(in.ProjectPath, "ran")); !os.IsNotExist(err) {
		t.Fatal("Describe ran the hook")
	}
	if _, err := Run(context.Background(), Invocation{}); err == nil {
		t.Fatal("an unresolved script ran")
	}
}

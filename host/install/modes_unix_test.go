//go:build unix

package install

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A write may keep its module file's mode, group write included (a 0664
// source installs as 0664, as today's Lola's copies do), applied exactly
// whatever the umask; the same mode on content no module file has is
// plan.mode and nothing is written; a write of the 0664 file's content
// asking for other write too is refused as well.
func TestInstallKeepsASourcesModeButNeverWidensIt(t *testing.T) {
	e := newEnv(t)
	files := sampleModule("", "")
	files["skills/alpha/shared.md"] = "shared\n"
	src := filepath.Join(filepath.Dir(e.home), "src-moded")
	writeTree(t, src, files)
	if err := os.Chmod(filepath.Join(src, "skills/alpha/shared.md"), 0o664); err != nil {
		t.Fatal(err)
	}
	store, err := module.OpenStore(e.home)
	if err != nil {
		t.Fatal(err)
	}
	source, _ := module.ParseSource(src)
	n, _ := module.ParseName("moded")
	if _, err := store.Add(context.Background(), source, module.AddOptions{Name: n}); err != nil {
		t.Fatal(err)
	}
	run := func(plan string) (Report, error) {
		t.Helper()
		script := filepath.Join(t.TempDir(), "target")
		if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\ncat <<'PLAN'\n"+plan+"\nPLAN\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/]\n")
		return Install(context.Background(), e.options("moded", "claude-code"))
	}
	for _, bad := range []string{
		`{"protocol":1,"intents":[{"op":"write","path":".claude/a.md","content":"shared\n","mode":"0666"}]}`,
		`{"protocol":1,"intents":[{"op":"write","path":".claude/a.md","content":"other\n","mode":"0664"}]}`,
	} {
		before := snapshot(t, e.project)
		rep, err := run(bad)
		if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeRejected || !errors.Is(rep.Result.Err, rejection.Rule(schema.RulePlanMode)) {
			t.Fatalf("%s: err %v, result %+v", bad, err, rep.Result)
		}
		sameTree(t, "project", snapshot(t, e.project), before)
	}
	old := syscall.Umask(0o077) // the mode is applied exactly, not through the umask
	defer syscall.Umask(old)
	rep, err := run(`{"protocol":1,"intents":[{"op":"write","path":".claude/a.md","content":"shared\n","mode":"0664"},{"op":"write","path":".claude/b.md","content":"b\n"},{"op":"write","path":".claude/run.sh","content":"#!/bin/sh\n","executable":true,"mode":"0750"}]}`)
	if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeCommitted {
		t.Fatalf("err %v, result %+v", err, rep.Result)
	}
	for p, want := range map[string]fs.FileMode{".claude/a.md": 0o664, ".claude/b.md": 0o644, ".claude/run.sh": 0o750} {
		fi, err := os.Stat(filepath.Join(e.project, p))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %04o", p, fi.Mode(), err, want)
		}
	}
	var modes []string
	for _, r := range auditOf(t, e.home, rep.Correlation, audit.KindPlan) {
		for _, in := range r.Plan.Intents {
			modes = append(modes, strings.Join(in.Paths, ",")+"="+in.Mode)
		}
	}
	if got := strings.Join(modes, " "); !strings.Contains(got, ".claude/a.md=0664") || !strings.Contains(got, ".claude/run.sh=0750") {
		t.Errorf("the audit log does not record the modes: %s", got)
	}
}

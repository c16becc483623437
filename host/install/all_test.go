package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

// InstallAll installs for every target lola knows, in order, under one
// correlation id, and stops at the first install done refuses, naming
// where it stopped and what it did not reach.
func TestInstallAllSharesACorrelationAndStopsAtTheFirstRefusal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test targets are POSIX shell scripts")
	}
	e := newEnv(t)
	e.addModule(t, "sample", map[string]string{"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: a\n---\n"})
	for _, name := range []string{"aaa", "bbb", "ccc"} {
		art := filepath.Join(t.TempDir(), name)
		plan := `{"protocol":1,"intents":[{"op":"write","path":".` + name + `/x","content":"x"}]}`
		if err := os.WriteFile(art, []byte("#!/bin/sh\ncat >/dev/null\nprintf '%s' '"+plan+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		e.addTarget(t, name, map[string]string{"tier2": art}, "paths: [."+name+"/]\n")
	}
	stop := errors.New("stop here")
	var seen []string
	var corr []audit.Correlation
	stopped, err := InstallAll(context.Background(), e.options("sample", ""), false, func(rep Report, err error) error {
		seen = append(seen, rep.Assistant)
		corr = append(corr, rep.Correlation)
		if err != nil || !rep.Applied() {
			t.Fatalf("%s: %v", rep.Assistant, err)
		}
		if rep.Assistant == "bbb" {
			return stop
		}
		return nil
	})
	if err != stop || stopped == nil || stopped.At != "bbb" || len(stopped.NotReached) != 1 || stopped.NotReached[0] != "ccc" {
		t.Fatalf("stopped %+v, err %v", stopped, err)
	}
	if len(seen) != 2 || corr[0].IsZero() || corr[0] != corr[1] {
		t.Fatalf("installs %v with correlations %v, want aaa and bbb under one", seen, corr)
	}
	if _, err := os.Stat(filepath.Join(e.project, ".ccc")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an install after the stop ran (%v)", err)
	}

	o := e.options("sample", "")
	o.DryRun = true
	stopped, err = InstallAll(context.Background(), o, false, func(rep Report, err error) error {
		// (A native target refuses a dry run: ErrNativeDryRun.)
		if !errors.Is(err, ErrNativeDryRun) || !rep.Correlation.IsZero() {
			t.Errorf("dry run of %s: %v, correlation %v", rep.Assistant, err, rep.Correlation)
		}
		return nil
	})
	if stopped != nil || err != nil {
		t.Fatalf("a dry run that completes: %+v %v", stopped, err)
	}
}

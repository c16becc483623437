package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/pipeline"
)

// A failed rollback names the directory the plan applied under and the
// recover command for it, pasteable as printed — not "--root", which
// install, uninstall, update and sync do not take.
func TestRollbackFailedNamesTheRootAndItsRecoverCommand(t *testing.T) {
	pr := pipeline.Result{Outcome: pipeline.OutcomeRollbackFailed, Err: errors.New("disk full"), RollbackErr: errors.New("busy")}
	for root, cmd := range map[string]string{
		"/home/al/proj":       "lola recover --root /home/al/proj'",
		"/home/al/my project": `lola recover --root '/home/al/my project''`,
		"/tmp/it's":           `lola recover --root '/tmp/it'\''s''`,
	} {
		err := pipelineExit(exitRollbackFailed, pr, root, false, io.Discard)
		msg := err.Error()
		if !strings.Contains(msg, "The tree under "+root+" is in NEITHER") || !strings.Contains(msg, "'"+cmd) || strings.Contains(msg, "--root DIR") {
			t.Errorf("%s: %s", root, msg)
		}
	}
}

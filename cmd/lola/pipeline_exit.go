package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
)

// pipelineExit tells people how a plan that reached the pipeline ended
// (nothing under --json, whose object says it) and returns code, the exit
// code host/exitcode decided for pr: nil when it is 0. root is the
// directory the plan applied under, as the user named it or as lola chose
// it (an install's project or home), for the recovery instructions.
func pipelineExit(code int, pr pipeline.Result, root string, asJSON bool, errOut io.Writer) error {
	if code == exitcode.OK {
		return nil
	}
	quiet := func(err error) error {
		if asJSON {
			return exitcode.Wrap(code, errors.New(""))
		}
		return exitcode.Wrap(code, err)
	}
	switch pr.Outcome {
	case pipeline.OutcomeRejected:
		if !asJSON {
			fmt.Fprintln(errOut, "plan rejected; nothing was applied:")
			for _, v := range rejection.All(pr.Err) {
				fmt.Fprintln(errOut, "  "+v.Error())
			}
		}
		return exitcode.Wrap(code, errors.New(""))
	case pipeline.OutcomeRolledBack:
		return quiet(fmt.Errorf("%s; rolled back, the tree is as it was before the plan", pipelineFailure(pr)))
	default:
		return quiet(fmt.Errorf("ROLLBACK FAILED: %s, and undoing it failed (%v). The tree under %s is in NEITHER the pre-plan NOR the post-plan state. Run 'lola recover --root %s'; the staging directory has been kept", pipelineFailure(pr), pr.RollbackErr, root, shellQuote(root)))
	}
}

func pipelineFailure(pr pipeline.Result) string {
	what := "the apply failed"
	if pr.Trigger != nil {
		what = fmt.Sprintf("intent #%d (%s) failed", pr.Trigger.Index, pr.Trigger.Op)
	}
	if pr.Err != nil {
		what += ": " + pr.Err.Error()
	}
	return what
}

// shellQuote quotes s for a POSIX shell when it needs it, so that the
// recovery command printed can be pasted as it is.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@%,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
)

// pipelineExit tells people how a plan that reached the pipeline ended
// (nothing under --json, whose object says it) and returns code, the exit
// code host/exitcode decided for pr: nil when it is 0.
func pipelineExit(code int, pr pipeline.Result, asJSON bool, errOut io.Writer) error {
	if code == exitOK {
		return nil
	}
	quiet := func(err error) error {
		if asJSON {
			return withCode(code, errors.New(""))
		}
		return withCode(code, err)
	}
	switch pr.Outcome {
	case pipeline.OutcomeRejected:
		if !asJSON {
			fmt.Fprintln(errOut, "plan rejected; nothing was applied:")
			for _, v := range rejection.All(pr.Err) {
				fmt.Fprintln(errOut, "  "+v.Error())
			}
		}
		return withCode(code, errors.New(""))
	case pipeline.OutcomeRolledBack:
		return quiet(fmt.Errorf("%s; rolled back, the tree is as it was before the plan", pipelineFailure(pr)))
	default:
		return quiet(fmt.Errorf("ROLLBACK FAILED: %s, and undoing it failed (%v). The tree under --root is in NEITHER the pre-plan NOR the post-plan state. Run 'lola recover --root DIR'; the staging directory has been kept", pipelineFailure(pr), pr.RollbackErr))
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

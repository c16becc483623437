package extrun

import (
	"fmt"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// failure is the one-line message for a run that produced no plan: what
// happened to the extension, then why, told once — the shim's diagnostic
// for tier 1, else the child's error with, for a non-zero exit status the
// SDKs number, its meaning.
func failure(name string, l pipeline.Launched) error {
	res := l.Child
	var what string
	switch res.Outcome {
	case child.OutcomeKilledDeadline, child.OutcomeKilledStdoutBound:
		what = "was killed"
	case child.OutcomePlanRefused:
		what = "returned no plan lola accepts"
		if exitcode.ForChild(res) == exitcode.Rejected {
			what = "returned a plan that was rejected"
		}
	case child.OutcomeExitNonZero:
		what = "failed"
	case child.OutcomeStartFailed:
		what = "could not be started"
	case child.OutcomeCanceled:
		what = "was interrupted"
	default:
		what = "ended with " + res.Outcome.String()
	}
	switch {
	case l.Shim != nil && l.Shim.Outcome.Kind != shim.KindOK:
		what += ": " + l.Shim.Outcome.Error()
	case res.Err != nil && l.Shim == nil:
		what += ": " + res.Err.Error()
		if res.Outcome == child.OutcomeExitNonZero && res.ExitStatus > 0 {
			if m := schema.GuestStatus(res.ExitStatus).Meaning(); m != "" {
				what += " (" + m + ", as the SDKs number it)"
			}
		}
	}
	return fmt.Errorf("extension %s %s (nothing applied)", lexical.Printable(name, lexical.LineEcho), what)
}

// Package exitcode is lola's closed set of exit codes and the mapping from
// the host's typed results to them, so that every command reports the same
// outcome with the same code.
//
// Guarantees:
//   - The set is closed: 0 ok, 1 internal, 2 usage, 3 rejected by a rule
//     (nothing applied), 4 extension failed or hit a limit (nothing
//     applied), 5 applied then rolled back, 6 rollback failed. No mapping
//     here returns any other value.
//   - ForChild maps a run that produced no plan: a plan refused only under
//     policy rules (not plan.*) is 3, everything else 4.
//   - ForOutcome maps a pipeline outcome.
//
// Non-guarantees: errors that are not typed host results (cobra's flag
// errors, say) are the caller's to map, normally to Usage.
package exitcode

import (
	"strings"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
)

// The closed set of exit codes.
const (
	OK             = 0 // success
	Internal       = 1 // internal error
	Usage          = 2 // usage error
	Rejected       = 3 // plan (or module input) rejected by a rule, nothing applied
	Extension      = 4 // extension failed or hit a limit, nothing applied
	RolledBack     = 5 // applied then rolled back: the tree is pre-plan
	RollbackFailed = 6 // rollback failed: the tree is in neither state
)

// Help documents the set for people (lola --help prints it).
const Help = `Exit codes:
  0  success
  1  internal error
  2  usage error
  3  plan or input rejected by a rule (nothing applied)
  4  extension failed or hit a limit (nothing applied)
  5  applied, then rolled back (the tree is as it was before the plan)
  6  rollback failed (the tree is in neither state; see the message and 'lola recover')`

// ForChild maps a run that produced no plan to an exit code.
//
// A child's stdout that plan.Decode refuses under a plan.* rule (malformed,
// unknown field, too large, too many intents, field too large, ...) is 4,
// not 3. Exit 3 says the host understood a plan and refused it under its
// rules, so the fix is a different plan; bytes that never became a plan are
// the extension failing the protocol, like a crash, and the bounds that
// kill a child are the limits 4 is for. (`lola plan validate` refuses the
// same bytes with 3: there the file itself is the plan under review.) The
// decoder also applies the lexical remote rules (remote.method, ...): a
// plan refused by those was a well-formed plan the policy rejects, so 3.
func ForChild(res child.Result) int {
	if res.Outcome == child.OutcomePlanRefused {
		vs := rejection.All(res.Err)
		policy := len(vs) > 0
		for _, v := range vs {
			if strings.HasPrefix(v.Rule.String(), "plan.") {
				policy = false
			}
		}
		if policy {
			return Rejected
		}
	}
	return Extension
}

// ForOutcome maps a pipeline outcome: committed and dry run are 0,
// rejected 3, an extension that failed 4, rolled back 5, and anything
// else (a failed rollback) 6.
func ForOutcome(o pipeline.Outcome) int {
	switch o {
	case pipeline.OutcomeCommitted, pipeline.OutcomeDryRun:
		return OK
	case pipeline.OutcomeRejected:
		return Rejected
	case pipeline.OutcomeExtensionFailed:
		return Extension
	case pipeline.OutcomeRolledBack:
		return RolledBack
	}
	return RollbackFailed
}

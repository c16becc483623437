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
//   - ForOutcome maps a pipeline outcome; ForApply an error (not a result)
//     from pipeline.Apply.
//   - ForInstall maps what an install or uninstall returned (host/install),
//     every sentinel of host/install to the code its doc names.
//   - ForModule, ForSource, ForResolve, ForMarket and ForExtAdd map what
//     the module store, the marketplace registry and extension intake
//     return; ForStopped, ForSync and ForSyncFile the runs of several
//     installs; ForValidate, ForRecover, ForVerify and ForExtTest the plan,
//     recovery, audit and golden-test commands. Each doc names the code of
//     every error it tells apart.
//   - An *Error carries the code a host operation decided where the failure
//     arose (host/extrun returns them, the CLI wraps what it maps); Of reads
//     it back, and is Internal for any other error. The mappings that take
//     an error keep an *Error's code where their doc says so.
//
// Non-guarantees: errors that are not typed host results (cobra's flag
// errors, say) are the caller's to map, normally to Usage. The messages
// are the errors' own: this package decides codes, not wording.
package exitcode

import (
	"errors"
	"strings"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
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

// ForApply maps an error pipeline.Apply returned instead of a result: a
// --fs relation the root's filesystem contradicts
// (pipeline.ErrRelationMismatch) is the user's to fix, 2; anything else
// is 1.
func ForApply(err error) int {
	if errors.Is(err, pipeline.ErrRelationMismatch) {
		return Usage
	}
	return Internal
}

// ForInstall maps what install.Install or install.Uninstall returned.
// With a nil err it is the pipeline outcome's code (ForOutcome), and 1
// when no plan reached the pipeline. Otherwise: an unknown module is 1
// (as today's Lola exits); a bad request, an unknown assistant, an
// invalid hook, a dry run of a native target, a module not installed
// there, or a refused --append-context is 2; a failed pre-install hook
// is 4; a target that produced no plan is ForChild of its run (4 when it
// did not run); a target refused before it ran by its pin or the trust
// policy (install.ErrTargetRefused: a changed artifact, a native one
// nothing pins, one the policy does not vouch for; or a rule
// extension.changed or extension.unsigned) is 4, as for ext run, since it
// never ran; any other rejection is 3; anything else 1.
func ForInstall(rep install.Report, err error) int {
	switch {
	case err == nil && rep.Result != nil:
		return ForOutcome(rep.Result.Outcome)
	case err == nil:
		return Internal
	case errors.Is(err, install.ErrModuleNotFound):
		return Internal
	case errors.Is(err, install.ErrUsage),
		errors.Is(err, install.ErrUnknownAssistant), errors.Is(err, install.ErrHookInvalid),
		errors.Is(err, install.ErrNativeDryRun), errors.Is(err, install.ErrNotInstalled),
		errors.Is(err, install.ErrAppendContext):
		return Usage
	case errors.Is(err, install.ErrPreInstallFailed):
		return Extension
	case errors.Is(err, install.ErrTargetFailed):
		if rep.Launched != nil {
			return ForChild(rep.Launched.Child)
		}
		return Extension
	case errors.Is(err, install.ErrTargetRefused), pinRefused(err):
		return Extension
	case len(rejection.All(err)) > 0:
		return Rejected
	}
	return Internal
}

// pinRefused reports whether err refuses an extension by its pin or the
// trust policy (extension.changed, extension.unsigned) rather than its
// plan.
func pinRefused(err error) bool {
	for _, v := range rejection.All(err) {
		if v.Rule == schema.RuleExtensionChanged || v.Rule == schema.RuleExtensionUnsigned {
			return true
		}
	}
	return false
}

// Error is a failure with the exit code decided where it arose. Its
// message is Err's; errors.Is and errors.As see through it to Err.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Wrap returns err carrying code, or nil when err is nil.
func Wrap(code int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Err: err}
}

// Of is the exit code for err: 0 for nil, the Code of the first *Error in
// its chain, and 1 for any other error (a failure nobody decided a code
// for is an internal one).
func Of(err error) int {
	if c, ok := decided(err); ok {
		return c
	}
	return Internal
}

// decided is the code already decided for err: 0 for nil, the Code of the
// first *Error in its chain; ok is false for any other error.
func decided(err error) (code int, ok bool) {
	if err == nil {
		return OK, true
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code, true
	}
	return 0, false
}

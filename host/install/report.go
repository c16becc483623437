package install

import (
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/schema"
)

// Report is what one install or uninstall did, step by step. Fields of
// steps that were not reached are zero.
type Report struct {
	Operation schema.Operation
	Module    string
	Assistant string
	Scope     schema.Scope
	// Root is the directory the plan applies under (a host path: for the
	// local user's eyes, never for an extension or the audit log).
	Root string
	// Target is the target extension's name and the tier it ran in.
	Target     string
	TargetTier audit.Tier
	// Hooks lists the install's hooks in run order: run, or (dry run)
	// only described.
	Hooks []HookRun
	// Launched is the target extension's run; nil when it did not run.
	Launched *pipeline.Launched
	// Result is what the pipeline did with the plan; nil when no plan
	// reached it. Outcome committed or dry-run is success.
	Result *pipeline.Result
	// Correlation is the audit correlation id every record of this install
	// carries (zero in a dry run).
	Correlation audit.Correlation
	// Record is the installed.yml entry written (install), removed
	// (uninstall), or that would be (dry run); nil when none was.
	Record *Record
	// Forced lists the files --force took over (audited).
	Forced []string
	// Kept lists the files an uninstall left because they are not lola's
	// (edited since lola wrote them, or never recorded as written by it).
	Kept []KeptFile
	// Symlinks lists the symbolic links found on paths the plan writes
	// that were not replaced (no consent): the plan was refused for them.
	Symlinks []Symlink
	// Replaced lists the links replaced with consent; Restored those an
	// uninstall put back.
	Replaced, Restored []Symlink
	// ByRecord is set for an uninstall made from installed.yml's record
	// because the target extension is gone (byrecord.go).
	ByRecord bool
}

// HookRun is one install hook: what would run, and how it ended if it ran.
type HookRun struct {
	Point  hook.Point
	Script string // module-relative, as declared
	// Describe is the one line a dry run prints (hook.Invocation.Describe).
	Describe string
	Ran      bool
	Child    child.Result // set when Ran
}

// Failed reports whether the hook ran and did not succeed.
func (h HookRun) Failed() bool { return h.Ran && h.Child.Outcome != child.OutcomeCompleted }

// Applied reports whether the install's plan is in place (committed).
func (r Report) Applied() bool {
	return r.Result != nil && r.Result.Outcome == pipeline.OutcomeCommitted
}

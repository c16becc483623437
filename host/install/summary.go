package install

import (
	"errors"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
)

// Summary is one install or uninstall as `lola install --json` (and
// uninstall's) prints it. Outcome is the pipeline outcome's spelling when
// the plan reached the pipeline; else hook-failed (the pre-install hook
// failed), extension-failed (the target ran and produced no plan), or
// refused (stopped before the target ran).
type Summary struct {
	Operation   string            `json:"operation"`
	Module      string            `json:"module"`
	Assistant   string            `json:"assistant"`
	Scope       string            `json:"scope"`
	Root        string            `json:"root,omitempty"`
	Target      string            `json:"target,omitempty"`
	Tier        string            `json:"tier,omitempty"`
	Outcome     string            `json:"outcome"`
	Hooks       []HookSummary     `json:"hooks"`
	Changes     []apply.Change    `json:"changes"`
	Violations  []rejection.Entry `json:"violations,omitempty"`
	Correlation string            `json:"correlation,omitempty"`
	Record      *Record           `json:"record,omitempty"`
	Forced      []string          `json:"forced,omitempty"`
	Kept        []KeptFile        `json:"kept,omitempty"`
	Symlinks    []Symlink         `json:"symlinks,omitempty"`
	Replaced    []Symlink         `json:"replaced_symlinks,omitempty"`
	Restored    []Symlink         `json:"restored_symlinks,omitempty"`
	Error       string            `json:"error,omitempty"`
}

// HookSummary is one hook of a Summary: what would run, and how it ended
// when it ran (its output and stderr as captured: untrusted bytes).
type HookSummary struct {
	Point       string        `json:"point"`
	Script      string        `json:"script"`
	Describe    string        `json:"describe"`
	Signature   string        `json:"signature"`
	Ran         bool          `json:"ran"`
	Outcome     child.Outcome `json:"outcome,omitempty"`
	ExitStatus  *int          `json:"exit_status,omitempty"`
	ElapsedMS   int64         `json:"elapsed_ms,omitempty"`
	Output      string        `json:"output,omitempty"`
	Diagnostics string        `json:"diagnostics,omitempty"`
}

// Summarize is the Summary of what Install or Uninstall returned. A
// failed install carries its error's text, and no record unless its plan
// reached the pipeline (a record it did not write is not news).
func Summarize(rep Report, err error) Summary {
	s := Summary{
		Operation: string(rep.Operation), Module: rep.Module, Assistant: rep.Assistant, Scope: string(rep.Scope),
		Root: rep.Root, Target: rep.Target, Tier: string(rep.TargetTier),
		Hooks: []HookSummary{}, Changes: []apply.Change{}, Record: rep.Record,
		Forced: rep.Forced, Kept: rep.Kept, Symlinks: rep.Symlinks, Replaced: rep.Replaced, Restored: rep.Restored,
	}
	for _, h := range rep.Hooks {
		hs := HookSummary{Point: h.Point.String(), Script: h.Script, Describe: h.Describe, Signature: hook.Signature, Ran: h.Ran}
		if h.Ran {
			hs.Outcome, hs.ElapsedMS = h.Child.Outcome, h.Child.Elapsed.Milliseconds()
			hs.Output, hs.Diagnostics = string(h.Child.Output), string(h.Child.Diagnostics)
			if h.Child.ExitStatus >= 0 {
				st := h.Child.ExitStatus
				hs.ExitStatus = &st
			}
		}
		s.Hooks = append(s.Hooks, hs)
	}
	if !rep.Correlation.IsZero() {
		s.Correlation = rep.Correlation.String()
	}
	switch {
	case rep.Result != nil:
		pr := rep.Result
		s.Outcome = pr.Outcome.String()
		if pr.Changes != nil {
			s.Changes = pr.Changes
		}
		if pr.Outcome == pipeline.OutcomeRejected {
			s.Violations = rejection.Entries(pr.Err)
		} else if pr.Err != nil {
			s.Error = pr.Err.Error()
		}
	case errors.Is(err, ErrPreInstallFailed):
		s.Outcome = "hook-failed"
	case rep.Launched != nil:
		s.Outcome = pipeline.OutcomeExtensionFailed.String()
	default:
		s.Outcome = "refused"
	}
	if err != nil {
		s.Error = err.Error()
		if s.Record != nil && rep.Result == nil {
			s.Record = nil
		}
	}
	return s
}

package pipeline

import (
	"strings"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

// GuestLog is what the extension itself wrote to stderr (its log lines, a
// stray print, a panic report), one string per line without its newline,
// and whether the host's stderr cap cut it. For tier 1 these are the lines
// the shim forwarded, with its prefix removed, so no shim line is among
// them; for tier 2, the child's captured stderr. The lines are untrusted
// bytes: a caller printing them must escape them.
func (l Launched) GuestLog() (lines []string, truncated bool) {
	truncated = l.Child.DiagnosticsTruncated
	if l.Shim != nil {
		for _, s := range l.Shim.Guest {
			if s = strings.TrimSuffix(s, "\n"); s != "" {
				lines = append(lines, s)
			}
		}
		return lines, truncated
	}
	for _, s := range strings.Split(string(l.Child.Diagnostics), "\n") {
		if s != "" {
			lines = append(lines, s)
		}
	}
	return lines, truncated
}

// ShowGuestLog reports whether a run's guest log is shown to people, given
// what the host did with its plan (r; nil when there was no plan): always
// when the run did not succeed (no plan, or a plan that was rejected, rolled
// back or not fully applied), on success (applied, or a dry run) only when
// verbose output was asked for. A successful run has nothing to diagnose;
// a failed one is what the log is for.
func ShowGuestLog(r *Result, verbose bool) bool {
	if verbose {
		return true
	}
	return r == nil || r.Outcome != OutcomeCommitted && r.Outcome != OutcomeDryRun
}

// Why says, for people, why a run produced no plan: for tier 1 the shim's
// outcome, which names the limit that stopped the module with its figure
// (memory-limit and the ceiling in pages and MiB, timeout and the clock,
// request-, plan- or module-too-large and the bound in bytes) or what the
// module did (a trap, the status lola_run returned, an exit); otherwise how
// the host ended the child (its outer deadline, its output bound, each with
// its figure) or how it exited, with the meaning the SDKs give the status.
// It is "" for a run that produced a plan. It never holds the guest's
// output: that is GuestLog's, printed apart and escaped.
func (l Launched) Why() string {
	res := l.Child
	if res.Outcome == child.OutcomePlanReceived {
		return ""
	}
	if l.Shim != nil && l.Shim.Outcome.Kind != "" && l.Shim.Outcome.Kind != shim.KindOK {
		return l.Shim.Outcome.Error()
	}
	why := res.Outcome.String()
	if res.Err != nil {
		why += ": " + res.Err.Error()
	}
	if l.Shim == nil && res.Outcome == child.OutcomeExitNonZero && res.ExitStatus > 0 {
		if m := schema.GuestStatus(res.ExitStatus).Meaning(); m != "" {
			why += " (" + m + ", as the SDKs number it)"
		}
	}
	return why
}

// Excerpt is how many of the guest's first and last lines a failure shows
// without -v: enough for a panic's message and the end of its trace.
const (
	ExcerptHead = 5
	ExcerptTail = 10
)

// GuestLogExcerpt is GuestLog cut for a failure shown without -v: the
// first ExcerptHead and last ExcerptTail lines, and how many lines between
// them were left out (0 when the log is that short).
func (l Launched) GuestLogExcerpt() (head, tail []string, omitted int, truncated bool) {
	lines, truncated := l.GuestLog()
	if len(lines) <= ExcerptHead+ExcerptTail {
		return lines, nil, 0, truncated
	}
	return lines[:ExcerptHead], lines[len(lines)-ExcerptTail:], len(lines) - ExcerptHead - ExcerptTail, truncated
}

package pipeline

import "strings"

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

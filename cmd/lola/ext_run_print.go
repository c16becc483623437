package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/lola-pm/lola/host/extrun"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

// extRunReport is the --json object of ext run (host/extrun decides it;
// this file only prints it).
type extRunReport = extrun.Report

// printExtRunNotice tells what host/extrun reports as the run goes (under
// --json, not how the artifact was vouched for: the audit record names it).
func printExtRunNotice(w io.Writer, n extrun.Notice, asJSON bool) {
	switch n.Kind {
	case extrun.NoticeAdopted:
		fmt.Fprintf(w, "lola: %s is %s's %s artifact: running with its manifest (capabilities, path grant)\n",
			shownText(n.Name), shown(n.Manifest), n.Tier)
	case extrun.NoticeBare:
		fmt.Fprintf(w, "lola: %s has no manifest: it runs with no capability (unless --caps) and no path grant beyond the root\n", shownText(n.Name))
	case extrun.NoticeVouched:
		if !asJSON {
			fmt.Fprintf(w, "lola: %s: %s\n", shownText(n.Name), n.Vouched)
		}
	}
}

// printExtRunReport prints the report for people: a heading, then one line
// per intent, every plan string shown safely (shownText).
func printExtRunReport(w io.Writer, rep extRunReport) {
	if rep.Outcome == "extension-failed" {
		fmt.Fprintf(w, "extension %s (%s): %s after %dms, no plan\n", shown(rep.Extension), rep.Tier, rep.Child.Outcome, rep.Child.ElapsedMS)
		if rep.Shim != nil && rep.Shim.Kind != shim.KindOK {
			fmt.Fprintf(w, "  shim: %s\n", shownText(rep.Shim.Detail))
		}
		for _, v := range rep.Violations {
			fmt.Fprintf(w, "  %s: %s\n", v.Rule, shownText(v.Detail))
		}
		return
	}
	fmt.Fprintf(w, "extension %s (%s): plan of %d intent%s, %s\n",
		shown(rep.Extension), rep.Tier, len(rep.Intents), extRunPlural(len(rep.Intents)), extRunOutcomeText(rep.Outcome))
	for _, in := range rep.Intents {
		fmt.Fprintf(w, "  %-6s  ", in.Op)
		switch in.Op {
		case string(schema.OpWrite):
			fmt.Fprintf(w, "%s", shownText(in.Path))
			if in.Size != nil {
				fmt.Fprintf(w, "  %d B  sha256:%s", *in.Size, in.SHA256[:12])
			}
			if in.Encoding == string(schema.EncodingBase64) {
				fmt.Fprint(w, "  base64")
			}
			if in.Executable {
				fmt.Fprint(w, "  executable")
			}
		case string(schema.OpDelete):
			fmt.Fprint(w, shownText(in.Path))
		case string(schema.OpRename):
			fmt.Fprintf(w, "%s -> %s", shownText(in.From), shownText(in.To))
		case string(schema.OpFetch):
			fmt.Fprintf(w, "%s -> %s", shownText(in.URL), shownText(in.Dest))
			if len(in.Headers) > 0 {
				hs := make([]string, len(in.Headers))
				for i, h := range in.Headers {
					hs[i] = shownText(h)
				}
				fmt.Fprintf(w, "  headers: %s", strings.Join(hs, ", "))
			}
		case string(schema.OpClone):
			fmt.Fprintf(w, "%s -> %s", shownText(in.URL), shownText(in.Dest))
			if in.Ref != "" {
				fmt.Fprintf(w, "  ref %s", shownText(in.Ref))
			}
			if in.Depth > 0 {
				fmt.Fprintf(w, "  depth %d", in.Depth)
			}
		}
		fmt.Fprintln(w)
	}
}

func extRunOutcomeText(o string) string {
	switch o {
	case "dry-run":
		return "dry run, nothing applied"
	case "committed":
		return "applied"
	case "rejected":
		return "rejected, nothing applied"
	case "rolled-back":
		return "applied and rolled back"
	case "rollback-failed":
		return "ROLLBACK FAILED"
	}
	return o
}

// extRunPrintDiagnostics shows the extension's stderr, which is untrusted bytes:
// every line is prefixed and control characters are escaped, so it cannot
// pose as lola's own output or drive the terminal.
//
// A tier-1 module's stderr is the shim's: its structured lines are shown
// as the report (which limit, which confinement), so only the guest's own
// lines are printed here.
func extRunPrintDiagnostics(w io.Writer, name string, l pipeline.Launched) {
	lines, truncated := l.GuestLog()
	if len(lines) == 0 {
		return
	}
	note := ""
	if truncated {
		note = ", truncated"
	}
	fmt.Fprintf(w, "extension %s stderr%s:\n", shown(name), note)
	for _, line := range lines {
		fmt.Fprintf(w, "  | %s\n", shownText(line))
	}
}

// extRunGuestLog prints the extension's stderr when show is set (see
// pipeline.ShowGuestLog); otherwise, when there is some, one line saying
// how much -v would show.
func extRunGuestLog(w io.Writer, name string, l pipeline.Launched, show bool) {
	if show {
		extRunPrintDiagnostics(w, name, l)
		return
	}
	if lines, _ := l.GuestLog(); len(lines) == 1 {
		fmt.Fprintf(w, "lola: extension %s wrote 1 line to stderr (-v shows it)\n", shown(name))
	} else if len(lines) > 1 {
		fmt.Fprintf(w, "lola: extension %s wrote %d lines to stderr (-v shows them)\n", shown(name), len(lines))
	}
}

func extRunPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

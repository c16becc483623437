package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// installReport is the --json object of install and uninstall
// (install.Summarize decides it; this file only prints).
type installReport = install.Summary

// installFinish prints the report and returns the exit code host/exitcode
// decided for it; verbose also shows the target's stderr when the install
// succeeded.
func installFinish(cmd *cobra.Command, rep install.Report, err error, asJSON, verbose bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	jr := install.Summarize(rep, err)
	if asJSON {
		if werr := writeJSON(out, jr); werr != nil {
			return exitcode.Wrap(exitcode.Internal, werr)
		}
	} else {
		printInstallReport(out, errOut, rep, jr, verbose)
	}
	code := exitcode.ForInstall(rep, err)
	if err != nil {
		if errors.Is(err, install.ErrModuleNotFound) {
			err = fmt.Errorf("module %s not found in the store (lola mod ls lists it; lola mod add SOURCE adds one)", rep.Module)
		}
		if asJSON {
			return exitcode.Wrap(code, errors.New(""))
		}
		return exitcode.Wrap(code, err)
	}
	if rep.Result == nil {
		return exitcode.Wrap(code, errors.New("the install produced no result"))
	}
	return pipelineExit(code, *rep.Result, rep.Root, asJSON, errOut)
}

// printInstallReport is the report for people. Hook output and extension
// diagnostics are untrusted bytes: prefixed and escaped.
func printInstallReport(out, errOut io.Writer, rep install.Report, jr installReport, verbose bool) {
	where := "project " + shownText(rep.Root)
	if rep.Scope == schema.ScopeUser {
		where = "your home (user scope)"
	}
	verb := string(rep.Operation)
	for _, h := range rep.Hooks {
		if !h.Ran {
			fmt.Fprintf(out, "would run %s\n", shownText(h.Describe))
			continue
		}
		state := "ok"
		if h.Failed() {
			state = "FAILED: " + h.Child.Outcome.String()
			if h.Child.ExitStatus >= 0 {
				state += fmt.Sprintf(" (exit status %d)", h.Child.ExitStatus)
			}
		}
		fmt.Fprintf(out, "%s hook %s: %s; %s\n", h.Point, shownText(h.Script), hook.Signature, state)
		installPrintUntrusted(out, "  | ", h.Child.Output)
		installPrintUntrusted(errOut, "  "+h.Point.String()+" stderr | ", h.Child.Diagnostics)
	}
	if rep.Launched != nil {
		// The target's stderr is for diagnosing a failure: its first and
		// last lines, all of it with -v; on success it is shown with -v,
		// else counted in one line.
		if !verbose && pipeline.ShowGuestLog(rep.Result, false) {
			installGuestLogExcerpt(errOut, rep.Target, *rep.Launched)
		} else {
			extRunGuestLog(errOut, rep.Target, *rep.Launched, pipeline.ShowGuestLog(rep.Result, verbose))
		}
	}
	for _, l := range rep.Symlinks {
		fmt.Fprintf(errOut, "lola: %s is a symbolic link (to %s) on a path the install writes; lola does not write through links. Rerun with --replace-symlinks to replace it with a real directory (audited; 'lola uninstall' puts the link back).\n",
			shownText(l.Path), shownText(l.Target))
	}
	if rep.Result == nil {
		return
	}
	pr := rep.Result
	if pr.Outcome == pipeline.OutcomeRejected && len(rejection.All(pr.Err)) > 0 {
		for _, v := range rejection.All(pr.Err) {
			if v.Rule == schema.RuleConflictUnowned && strings.Contains(v.Detail, "--force") {
				fmt.Fprintln(errOut, "lola: nothing was changed. Files lola did not write are never replaced or deleted; 'lola install --force' takes them over (audited).")
				break
			}
		}
	}
	switch pr.Outcome {
	case pipeline.OutcomeDryRun:
		fmt.Fprintf(out, "%s %s for %s into %s (%s, %s):\n", verb, shown(rep.Module), shown(rep.Assistant), where, shown(rep.Target), rep.TargetTier)
		printTreeDiff(out, pr.Changes, pr.RelationNote)
		for _, k := range rep.Kept {
			fmt.Fprintf(out, "  would keep %s (%s)\n", keptWhat(k), keptWhy(k))
		}
	case pipeline.OutcomeCommitted:
		past := map[schema.Operation]string{schema.OperationInstall: "Installed", schema.OperationUninstall: "Uninstalled"}[rep.Operation]
		prep := "into"
		if rep.Operation == schema.OperationUninstall {
			prep = "from"
		}
		fmt.Fprintf(out, "%s %s for %s %s %s: %s\n", past, shown(rep.Module), shown(rep.Assistant), prep, where, installChangeCounts(pr.Changes))
		if rep.ByRecord {
			fmt.Fprintf(out, "  by installed.yml's record: the target extension %s is gone\n", shown(rep.Assistant))
		}
		for _, c := range pr.Changes {
			installPrintChange(out, c)
		}
		for _, p := range rep.Forced {
			fmt.Fprintf(out, "  taken over (--force): %s\n", shownText(p))
		}
		for _, l := range rep.Replaced {
			fmt.Fprintf(out, "  replaced symbolic link %s (was -> %s)\n", shownText(l.Path), shownText(l.Target))
		}
		for _, l := range rep.Restored {
			fmt.Fprintf(out, "  restored symbolic link %s -> %s\n", shownText(l.Path), shownText(l.Target))
		}
		for _, k := range rep.Kept {
			fmt.Fprintf(out, "  kept %s (%s)\n", keptWhat(k), keptWhy(k))
		}
		if jr.Correlation != "" {
			fmt.Fprintf(out, "audit correlation %s (lola audit show --correlation %s)\n", jr.Correlation, jr.Correlation)
		}
	}
}

func installChangeCounts(cs []apply.Change) string {
	n := map[apply.ChangeKind]int{}
	for _, c := range cs {
		if c.Kind == apply.ChangeNoop && c.Op == schema.OpDelete {
			continue // a delete that changes nothing is not news
		}
		n[c.Kind]++
	}
	s := fmt.Sprintf("%d added, %d removed, %d replaced", n[apply.ChangeAdded], n[apply.ChangeRemoved], n[apply.ChangeReplaced])
	if n[apply.ChangeNoop] > 0 {
		s += fmt.Sprintf(", %d unchanged", n[apply.ChangeNoop])
	}
	return s
}

func installPrintChange(w io.Writer, c apply.Change) {
	p := shownText(c.Path)
	if c.Dir {
		p += "/"
	}
	switch c.Kind {
	case apply.ChangeAdded:
		fmt.Fprintf(w, "  + %s\n", p)
	case apply.ChangeRemoved:
		fmt.Fprintf(w, "  - %s\n", p)
	case apply.ChangeReplaced:
		fmt.Fprintf(w, "  ~ %s\n", p)
	case apply.ChangeRenamed:
		fmt.Fprintf(w, "  > %s -> %s\n", shownText(c.From), p)
	case apply.ChangeNoop:
		if c.Op != schema.OpDelete {
			fmt.Fprintf(w, "  = %s (unchanged)\n", p)
		}
	}
}

func installPrintUntrusted(w io.Writer, prefix string, b []byte) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		fmt.Fprintf(w, "%s%s\n", prefix, shownText(strings.TrimSuffix(line, "\n")))
	}
}

// installSymlinkPrompt asks on the terminal whether the links found may be
// replaced; anything but y or yes is no.
func installSymlinkPrompt(in io.Reader, errOut io.Writer) func([]install.Symlink) bool {
	return func(ls []install.Symlink) bool {
		for _, l := range ls {
			fmt.Fprintf(errOut, "lola: %s is a symbolic link (to %s) on a path the install writes.\n", shownText(l.Path), shownText(l.Target))
		}
		fmt.Fprint(errOut, "Replace it with a real directory for this install? The replacement is audited and 'lola uninstall' restores the link. [y/N] ")
		line, _ := bufio.NewReader(in).ReadString('\n')
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes"
	}
}

// keptWhy says why uninstall keeps a file.
// keptWhat names what an uninstall kept: a file, or one MCP server in a
// managed file ("mcp:NAME in PATH", as lola update names them).
func keptWhat(k install.KeptFile) string {
	if k.Server != "" {
		return "mcp:" + shown(k.Server) + " in " + shownText(k.Path)
	}
	return shownText(k.Path)
}

func keptWhy(k install.KeptFile) string {
	if k.Reason == install.KeptUnowned {
		return "lola did not write it"
	}
	return "you edited it after lola wrote it"
}

// installGuestLogExcerpt shows a failed target's stderr without -v: its
// first and last lines (pipeline.GuestLogExcerpt), escaped and prefixed as
// extRunPrintDiagnostics shows all of it, and how many lines -v would add.
func installGuestLogExcerpt(w io.Writer, name string, l pipeline.Launched) {
	head, tail, omitted, truncated := l.GuestLogExcerpt()
	if len(head) == 0 {
		return
	}
	note := ""
	if truncated {
		note = ", truncated"
	}
	fmt.Fprintf(w, "extension %s stderr%s:\n", shown(name), note)
	for _, line := range head {
		fmt.Fprintf(w, "  | %s\n", shownText(line))
	}
	if omitted > 0 {
		fmt.Fprintf(w, "  | ... %d line%s left out (-v shows them)\n", omitted, extRunPlural(omitted))
	}
	for _, line := range tail {
		fmt.Fprintf(w, "  | %s\n", shownText(line))
	}
}

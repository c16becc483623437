package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func init() { topCommands = append(topCommands, newInstallCmd) }

type installFlags struct {
	assistant   string
	scope       string
	dryRun      bool
	preInstall  string
	postInstall string
	json        bool
	force       bool
	replaceLink bool
	workspace   string
	verbose     bool
	context     []string
}

func newInstallCmd() *cobra.Command {
	var f installFlags
	c := &cobra.Command{
		Use:   "install MODULE [-a ASSISTANT] [--scope project|user] [--dry-run] [--pre-install SCRIPT] [--post-install SCRIPT] [--append-context PATH]... [--json] [PROJECT]",
		Short: "Install a module's skills, commands, agents and instructions for an assistant",
		Long: `Install MODULE (added with 'lola mod add') into the files ASSISTANT reads;
without -a, for every assistant target lola knows (but copilot-cli, whose
files copilot-vscode also writes, as today's Lola decides), one after the
other, under one audit correlation id (the first failure stops the rest).

MODULE may also be NAME@REF (fetch a git module again at REF first),
@MARKET/NAME or @MARKET/NAME@REF (fetch it from a marketplace's catalog),
or a name only one enabled marketplace offers.

The assistant's target extension (claude-code, copilot-cli, copilot-vscode,
cursor, gemini-cli, openclaw, opencode,
or one under $LOLA_HOME/extensions) receives the module's files and returns
a plan; lola checks the plan whole — capabilities, path rules, the
extension's path grant — and applies it atomically, or nothing at all.

Scope:
  project   (default) into PROJECT, or the current directory
  user      into your home directory (e.g. ~/.claude/)

Hooks: a module's lola.yaml may declare
  hooks:
    pre-install: scripts/check.sh
    post-install: scripts/setup.sh
--pre-install/--post-install name a script in the module instead (they win
over lola.yaml). A hook runs as 'bash SCRIPT' in the project directory (your
home for scope user), with your environment plus LOLA_MODULE_NAME,
LOLA_MODULE_PATH, LOLA_PROJECT_PATH (empty for scope user), LOLA_ASSISTANT,
LOLA_SCOPE and LOLA_HOOK, for at most 5 minutes. Hooks are native and
unsigned: lola neither verifies nor sandboxes them, they run with your own
rights, and the output and each run's audit record say so. A failing pre-install
hook aborts the install with nothing applied (exit 4); a failing
post-install hook only warns.

--dry-run shows the plan as a tree diff and the hooks that would run,
without running them, and changes nothing. It needs a tier-1 (WASI) target:
a native target would run unconfined before lola saw its plan, so it is
refused (exit 2).

--append-context PATH (repeatable) installs, instead of the module's
instructions (AGENTS.md), one line per PATH for the assistant to follow:
  Read the module context from ` + "`PATH`" + `
so the agent reads the file itself and the links in it resolve where it
lies. A relative PATH is read from the module's root in the store
($LOLA_HOME/modules/MODULE; e.g. module/AGENTS.md), an absolute one as
given. The line names the file relative to the project when it is inside
it, absolutely otherwise; a file given twice is named once, and empty
paths are skipped. A PATH that does not exist refuses the whole install,
naming it, with nothing changed (exit 2). A module without instructions
gets nothing from it. installed.yml records the paths (append_context),
'lola update' installs them again, and 'lola list' shows them.

Lola never replaces, renames or deletes a file it did not write: a plan
that would change an existing file installed.yml does not record as lola's
(with the content lola wrote) is refused whole with conflict.unowned
(exit 3) and nothing changes; the files an assistant shares with you
(CLAUDE.md, GEMINI.md, ...) are excepted, since the target edits only its
own block there. --force (-f) takes such files over; the audit log names
every one. A symbolic link on a path the install writes (a linked
.claude/skills, say) is refused too; --replace-symlinks (or answering yes
at the prompt on a terminal) replaces it with a real directory first,
audited with the link's old target, and 'lola uninstall' puts it back.
Reinstalling an unchanged module reports its files as unchanged.

The target extension's own stderr (its log lines) is shown when it fails;
when it succeeds, -v (--verbose) shows it, else one line says how many
lines it wrote. A hook's output is always shown.

The install is recorded in $LOLA_HOME/installed.yml ('lola list'); every
audit record of one install shares one correlation id ('lola audit show
--correlation ID').

Exit status: 0 installed (or dry run); 1 unknown module (as today's Lola);
2 usage (unknown assistant, bad scope or project, a hook outside the module,
an --append-context file not found, --dry-run of a native target); 3 the plan was rejected (nothing applied); 4 the
pre-install hook or the target extension failed, or the target's pin or
trust refused it (extension.changed, extension.unsigned; nothing ran); 5
applied then rolled back; 6 rollback failed.`,
		Example: `  # Install into the current project for Claude Code
  lola install my-skills -a claude-code

  # See what would change in ~/work/app, without changing anything
  lola install my-skills -a cursor --dry-run ~/work/app

  # Install for your user (~/.claude/...) with a setup script from the module
  lola install my-skills -a claude-code --scope user --post-install scripts/setup.sh

  # Take over a .claude/commands/bump.md you wrote yourself (audited)
  lola install my-skills -a claude-code --force

  # Have the agent read the module's own AGENTS.md where its links resolve,
  # and a team guide besides
  lola install my-skills -a claude-code --append-context module/AGENTS.md --append-context /opt/guidelines.md

  # Machine-readable result
  lola install my-skills -a gemini-cli --json

  # OpenClaw: into ~/.openclaw/workspace, or the workspace named "work"
  lola install my-skills -a openclaw
  lola install my-skills -a openclaw --workspace work`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInstall(cmd, f, args)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&f.assistant, "assistant", "a", "", "assistant to install for: claude-code, copilot-cli, copilot-vscode, cursor, gemini-cli, openclaw, opencode, ... (default: every one but copilot-cli, one after the other)")
	fl.StringVarP(&f.scope, "scope", "s", "project", "project (into PROJECT) or user (into your home)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the plan and the hooks that would run; change nothing")
	fl.StringVar(&f.preInstall, "pre-install", "", "script in the module to run before installing (wins over lola.yaml)")
	fl.StringVar(&f.postInstall, "post-install", "", "script in the module to run after installing (wins over lola.yaml)")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object")
	fl.BoolVarP(&f.force, "force", "f", false, "take over existing files lola did not write (audited; refused by default)")
	fl.BoolVar(&f.replaceLink, "replace-symlinks", false, "replace symbolic links on paths the install writes (audited; uninstall restores them)")
	fl.StringVar(&f.workspace, "workspace", "", "OpenClaw workspace: a name (~/.openclaw/workspace-NAME) or a path; default ~/.openclaw/workspace (only with -a openclaw)")
	fl.StringArrayVar(&f.context, "append-context", nil, "instead of the module's instructions, a line telling the assistant to read PATH (module-relative or absolute; repeatable)")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also show the target extension's stderr (its log) when it succeeded; a failure always shows it")
	return c
}

// installTestEnv is appended to the target extension's environment; only
// tests set it (so a test binary re-executed as the shim acts as lola).
var installTestEnv []string

func runInstall(cmd *cobra.Command, f installFlags, args []string) error {
	if err := checkAssistantFlag([]string{f.assistant}, nil); err != nil {
		return err
	}
	o, err := installOptions(cmd, f.scope, args)
	if err != nil {
		return err
	}
	o.Assistant, o.DryRun = f.assistant, f.dryRun
	o.PreInstall, o.PostInstall = f.preInstall, f.postInstall
	o.Force, o.ReplaceSymlinks = f.force, f.replaceLink
	o.AppendContext = f.context
	if err := openClawRoot(&o, f.assistant, f.workspace, len(args) > 1); err != nil {
		return err
	}
	if !f.replaceLink && !f.json && installIsTerminal(cmd.InOrStdin()) && installIsTerminal(cmd.ErrOrStderr()) {
		o.ConfirmSymlinks = installSymlinkPrompt(cmd.InOrStdin(), cmd.ErrOrStderr())
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	if err = installResolve(cmd, ctx, &o, f.dryRun); err != nil {
		return err
	}
	if f.assistant != "" {
		rep, err := install.Install(ctx, o)
		return installFinish(cmd, rep, err, f.json, f.verbose)
	}
	// No -a: every assistant target lola knows, as today's Lola does when
	// it cannot ask; one correlation id; the first failure stops the rest.
	all, err := extension.DefaultTargets(o.Home)
	if err != nil {
		return withCode(exitInternal, err)
	}
	if !o.DryRun {
		if o.Correlation, err = audit.NewCorrelation(); err != nil {
			return withCode(exitInternal, err)
		}
	}
	for i, a := range all {
		oa := o
		oa.Assistant = a
		if err := openClawRoot(&oa, a, "", len(args) > 1); err != nil {
			return err
		}
		rep, err := install.Install(ctx, oa)
		if ferr := installFinish(cmd, rep, err, f.json, f.verbose); ferr != nil {
			if len(all[i+1:]) > 0 && !f.json {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: not installed (stopped at %s): %s\n", a, strings.Join(all[i+1:], ", "))
			}
			return ferr
		}
	}
	return nil
}

// installOptions builds the options every install command shares: state,
// scope, project, warnings to stderr, progress on a terminal only.
func installOptions(cmd *cobra.Command, scope string, args []string) (install.Options, error) {
	var o install.Options
	switch schema.Scope(scope) {
	case schema.ScopeProject, schema.ScopeUser:
		o.Scope = schema.Scope(scope)
	default:
		return o, withCode(exitUsage, fmt.Errorf("--scope must be project or user, not %q", scope))
	}
	o.Module = args[0]
	if len(args) > 1 {
		if o.Scope == schema.ScopeUser {
			return o, withCode(exitUsage, errors.New("PROJECT is for --scope project; a user-scope install goes into your home"))
		}
		o.Project = args[1]
	}
	st, err := openState("")
	if err != nil {
		return o, withCode(exitUsage, err)
	}
	o.Home, o.Config = st.home, st.cfg
	if o.Trust, err = extTrust(st); err != nil {
		return o, withCode(exitUsage, err)
	}
	if o.Remote, err = st.remoteClient(); err != nil {
		return o, withCode(exitUsage, err)
	}
	o.ExtraEnv = installTestEnv
	errOut := cmd.ErrOrStderr()
	o.Warn = func(s string) { fmt.Fprintln(errOut, "lola: warning:", s) }
	if installIsTerminal(errOut) {
		o.Progress = func(s string) { fmt.Fprintln(errOut, "lola: "+s+" ...") }
	}
	return o, nil
}

// openClawRoot makes an OpenClaw project-scope install's root its
// workspace, as today's Lola does: --workspace (a name or a path), or
// ~/.openclaw/workspace when neither it nor PROJECT is given. --workspace
// is refused with another assistant, and together with PROJECT.
func openClawRoot(o *install.Options, assistant, workspace string, hasProject bool) error {
	switch {
	case workspace != "" && assistant != "openclaw":
		return withCode(exitUsage, errors.New("--workspace is only valid with -a openclaw"))
	case assistant != "openclaw" || o.Scope != schema.ScopeProject:
		if workspace != "" {
			return withCode(exitUsage, errors.New("--workspace is for --scope project"))
		}
		return nil
	case hasProject && workspace != "":
		return withCode(exitUsage, errors.New("give PROJECT or --workspace, not both"))
	case hasProject:
		return nil
	}
	home := o.UserHome
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("--workspace needs a home directory: %v", err))
		}
		home = h
	}
	dir, err := install.OpenClawWorkspace(home, workspace)
	if err != nil {
		return withCode(exitUsage, err)
	}
	o.Project = dir
	return nil
}

// installIsTerminal reports whether w (a reader or writer) is a terminal
// (progress lines and prompts are for people, not for logs or pipes).
func installIsTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// installFinish prints the report and maps the result to an exit code;
// verbose also shows the target's stderr when the install succeeded.
func installFinish(cmd *cobra.Command, rep install.Report, err error, asJSON, verbose bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	jr := newInstallReport(rep, err)
	if asJSON {
		if werr := writeJSON(out, jr); werr != nil {
			return withCode(exitInternal, werr)
		}
	} else {
		printInstallReport(out, errOut, rep, jr, verbose)
	}
	if err != nil {
		code := installExitCode(rep, err)
		if errors.Is(err, install.ErrModuleNotFound) {
			err = fmt.Errorf("module %s not found in the store (lola mod ls lists it; lola mod add SOURCE adds one)", rep.Module)
		}
		if asJSON {
			return withCode(code, errors.New(""))
		}
		return withCode(code, err)
	}
	if rep.Result == nil {
		return withCode(exitInternal, errors.New("the install produced no result"))
	}
	return pipelineExit(*rep.Result, asJSON, errOut)
}

func installExitCode(rep install.Report, err error) int {
	switch {
	case errors.Is(err, install.ErrModuleNotFound):
		return exitInternal // today's Lola exits 1 for an unknown module
	case errors.Is(err, install.ErrUsage),
		errors.Is(err, install.ErrUnknownAssistant), errors.Is(err, install.ErrHookInvalid),
		errors.Is(err, install.ErrNativeDryRun), errors.Is(err, install.ErrNotInstalled),
		errors.Is(err, install.ErrAppendContext):
		return exitUsage
	case errors.Is(err, install.ErrPreInstallFailed):
		return exitExtension
	case errors.Is(err, install.ErrTargetFailed):
		if rep.Launched != nil {
			return exitcode.ForChild(rep.Launched.Child)
		}
		return exitExtension
	case pinRefused(err):
		return exitExtension // as ext run: the target never ran
	case len(rejection.All(err)) > 0:
		return exitRejected
	}
	return exitInternal
}

// pinRefused reports whether err refuses a target by its pin or the trust
// policy (extension.changed, extension.unsigned) rather than its plan.
func pinRefused(err error) bool {
	for _, v := range rejection.All(err) {
		if v.Rule == schema.RuleExtensionChanged || v.Rule == schema.RuleExtensionUnsigned {
			return true
		}
	}
	return false
}

// installReport is the --json object of install and uninstall.
type installReport struct {
	Operation   string             `json:"operation"`
	Module      string             `json:"module"`
	Assistant   string             `json:"assistant"`
	Scope       string             `json:"scope"`
	Root        string             `json:"root,omitempty"`
	Target      string             `json:"target,omitempty"`
	Tier        string             `json:"tier,omitempty"`
	Outcome     string             `json:"outcome"`
	Hooks       []installHookRep   `json:"hooks"`
	Changes     []apply.Change     `json:"changes"`
	Violations  []extRunViolation  `json:"violations,omitempty"`
	Correlation string             `json:"correlation,omitempty"`
	Record      *install.Record    `json:"record,omitempty"`
	Forced      []string           `json:"forced,omitempty"`
	Kept        []install.KeptFile `json:"kept,omitempty"`
	Symlinks    []install.Symlink  `json:"symlinks,omitempty"`
	Replaced    []install.Symlink  `json:"replaced_symlinks,omitempty"`
	Restored    []install.Symlink  `json:"restored_symlinks,omitempty"`
	Error       string             `json:"error,omitempty"`
}

type installHookRep struct {
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

func newInstallReport(rep install.Report, err error) installReport {
	jr := installReport{
		Operation: string(rep.Operation), Module: rep.Module, Assistant: rep.Assistant, Scope: string(rep.Scope),
		Root: rep.Root, Target: rep.Target, Tier: string(rep.TargetTier),
		Hooks: []installHookRep{}, Changes: []apply.Change{}, Record: rep.Record,
		Forced: rep.Forced, Kept: rep.Kept, Symlinks: rep.Symlinks, Replaced: rep.Replaced, Restored: rep.Restored,
	}
	for _, h := range rep.Hooks {
		hr := installHookRep{Point: h.Point.String(), Script: h.Script, Describe: h.Describe, Signature: hook.Signature, Ran: h.Ran}
		if h.Ran {
			hr.Outcome, hr.ElapsedMS = h.Child.Outcome, h.Child.Elapsed.Milliseconds()
			hr.Output, hr.Diagnostics = string(h.Child.Output), string(h.Child.Diagnostics)
			if h.Child.ExitStatus >= 0 {
				s := h.Child.ExitStatus
				hr.ExitStatus = &s
			}
		}
		jr.Hooks = append(jr.Hooks, hr)
	}
	if !rep.Correlation.IsZero() {
		jr.Correlation = rep.Correlation.String()
	}
	switch {
	case rep.Result != nil:
		pr := rep.Result
		jr.Outcome = pr.Outcome.String()
		if pr.Changes != nil {
			jr.Changes = pr.Changes
		}
		if pr.Outcome == pipeline.OutcomeRejected {
			for _, v := range rejection.All(pr.Err) {
				jr.Violations = append(jr.Violations, extRunViolation{Rule: v.Rule, Intents: v.IntentIndices(), Detail: v.Detail})
			}
		} else if pr.Err != nil {
			jr.Error = pr.Err.Error()
		}
	case errors.Is(err, install.ErrPreInstallFailed):
		jr.Outcome = "hook-failed"
	case rep.Launched != nil:
		jr.Outcome = pipeline.OutcomeExtensionFailed.String()
	default:
		jr.Outcome = "refused"
	}
	if err != nil {
		jr.Error = err.Error()
		if jr.Record != nil && rep.Result == nil {
			jr.Record = nil
		}
	}
	return jr
}

// printInstallReport is the report for people. Hook output and extension
// diagnostics are untrusted bytes: prefixed and escaped.
func printInstallReport(out, errOut io.Writer, rep install.Report, jr installReport, verbose bool) {
	where := "project " + rep.Root
	if rep.Scope == schema.ScopeUser {
		where = "your home (user scope)"
	}
	verb := string(rep.Operation)
	for _, h := range rep.Hooks {
		if !h.Ran {
			fmt.Fprintf(out, "would run %s\n", h.Describe)
			continue
		}
		state := "ok"
		if h.Failed() {
			state = "FAILED: " + h.Child.Outcome.String()
			if h.Child.ExitStatus >= 0 {
				state += fmt.Sprintf(" (exit status %d)", h.Child.ExitStatus)
			}
		}
		fmt.Fprintf(out, "%s hook %s: %s; %s\n", h.Point, extRunShown(h.Script), hook.Signature, state)
		installPrintUntrusted(out, "  | ", h.Child.Output)
		installPrintUntrusted(errOut, "  "+h.Point.String()+" stderr | ", h.Child.Diagnostics)
	}
	if rep.Launched != nil {
		// The target's stderr is for diagnosing a failure; on success it
		// is shown with -v, else counted in one line.
		extRunGuestLog(errOut, rep.Target, *rep.Launched, pipeline.ShowGuestLog(rep.Result, verbose))
	}
	for _, l := range rep.Symlinks {
		fmt.Fprintf(errOut, "lola: %s is a symbolic link (to %s) on a path the install writes; lola does not write through links. Rerun with --replace-symlinks to replace it with a real directory (audited; 'lola uninstall' puts the link back).\n",
			extRunEscape(l.Path), extRunEscape(l.Target))
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
		fmt.Fprintf(out, "%s %s for %s into %s (%s, %s):\n", verb, rep.Module, rep.Assistant, where, rep.Target, rep.TargetTier)
		printTreeDiff(out, pr.Changes)
		for _, k := range rep.Kept {
			fmt.Fprintf(out, "  would keep %s (%s)\n", extRunEscape(k.Path), keptWhy(k))
		}
	case pipeline.OutcomeCommitted:
		past := map[schema.Operation]string{schema.OperationInstall: "Installed", schema.OperationUninstall: "Uninstalled"}[rep.Operation]
		prep := "into"
		if rep.Operation == schema.OperationUninstall {
			prep = "from"
		}
		fmt.Fprintf(out, "%s %s for %s %s %s: %s\n", past, rep.Module, rep.Assistant, prep, where, installChangeCounts(pr.Changes))
		for _, c := range pr.Changes {
			installPrintChange(out, c)
		}
		for _, p := range rep.Forced {
			fmt.Fprintf(out, "  taken over (--force): %s\n", extRunEscape(p))
		}
		for _, l := range rep.Replaced {
			fmt.Fprintf(out, "  replaced symbolic link %s (was -> %s)\n", extRunEscape(l.Path), extRunEscape(l.Target))
		}
		for _, l := range rep.Restored {
			fmt.Fprintf(out, "  restored symbolic link %s -> %s\n", extRunEscape(l.Path), extRunEscape(l.Target))
		}
		for _, k := range rep.Kept {
			fmt.Fprintf(out, "  kept %s (%s)\n", extRunEscape(k.Path), keptWhy(k))
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
	p := c.Path
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
		fmt.Fprintf(w, "  > %s -> %s\n", c.From, p)
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
		fmt.Fprintf(w, "%s%s\n", prefix, extRunEscape(strings.TrimSuffix(line, "\n")))
	}
}

// installSymlinkPrompt asks on the terminal whether the links found may be
// replaced; anything but y or yes is no.
func installSymlinkPrompt(in io.Reader, errOut io.Writer) func([]install.Symlink) bool {
	return func(ls []install.Symlink) bool {
		for _, l := range ls {
			fmt.Fprintf(errOut, "lola: %s is a symbolic link (to %s) on a path the install writes.\n", extRunEscape(l.Path), extRunEscape(l.Target))
		}
		fmt.Fprint(errOut, "Replace it with a real directory for this install? The replacement is audited and 'lola uninstall' restores the link. [y/N] ")
		line, _ := bufio.NewReader(in).ReadString('\n')
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes"
	}
}

// keptWhy says why uninstall keeps a file.
func keptWhy(k install.KeptFile) string {
	if k.Reason == install.KeptUnowned {
		return "lola did not write it"
	}
	return "you edited it after lola wrote it"
}

package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
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
paths are skipped. A PATH that does not exist is named in a warning and
the module's instructions are not installed (no line at all), the rest
of the module is, as today's Lola does; a PATH holding a control
character refuses the install (exit 2). A module without instructions
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
an --append-context path holding a control character, --dry-run of a native target); 3 the plan was rejected (nothing applied); 4 the
pre-install hook or the target extension failed, or the target's pin or
trust refused it (extension.changed, extension.unsigned, a native target
not added with lola ext add; nothing ran); 5
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
	// No -a: every assistant target lola knows, one after the other.
	stopped, err := install.InstallAll(ctx, o, len(args) > 1, func(rep install.Report, err error) error {
		return installFinish(cmd, rep, err, f.json, f.verbose)
	})
	if stopped != nil {
		if len(stopped.NotReached) > 0 && !f.json {
			fmt.Fprintf(cmd.ErrOrStderr(), "lola: not installed (stopped at %s): %s\n", stopped.At, strings.Join(stopped.NotReached, ", "))
		}
		return err
	}
	if err != nil {
		return exitcode.Wrap(exitcode.ForInstall(install.Report{}, err), err)
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
		return o, exitcode.Wrap(exitcode.Usage, fmt.Errorf("--scope must be project or user, not %q", scope))
	}
	o.Module = args[0]
	if len(args) > 1 {
		if o.Scope == schema.ScopeUser {
			return o, exitcode.Wrap(exitcode.Usage, errors.New("PROJECT is for --scope project; a user-scope install goes into your home"))
		}
		o.Project = args[1]
	}
	st, err := openState("")
	if err != nil {
		return o, exitcode.Wrap(exitcode.Usage, err)
	}
	return o, installStateOptions(cmd, st, &o)
}

// installStateOptions sets what every install under st shares: the home,
// configuration, trust policy, remote client, and where warnings and
// progress go.
func installStateOptions(cmd *cobra.Command, st *lolaState, o *install.Options) error {
	var err error
	o.Home, o.Config = st.home, st.cfg
	if o.Trust, err = extTrust(st); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if o.Remote, err = st.remoteClient(); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	o.ExtraEnv = installTestEnv
	errOut := cmd.ErrOrStderr()
	o.Warn = func(s string) { fmt.Fprintln(errOut, "lola: warning:", s) }
	if installIsTerminal(errOut) {
		o.Progress = func(s string) { fmt.Fprintln(errOut, "lola: "+s+" ...") }
	}
	return nil
}

// installIsTerminal reports whether w (a reader or writer) is a terminal
// (progress lines and prompts are for people, not for logs or pipes). It
// asks the terminal driver rather than looking for a character device:
// /dev/null is one, and a script run with </dev/null must not be taken
// for a person who answered.
func installIsTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// openClawRoot applies install.OpenClawRoot (the OpenClaw workspace as
// the project-scope root) with its exit code.
func openClawRoot(o *install.Options, assistant, workspace string, hasProject bool) error {
	if err := install.OpenClawRoot(o, assistant, workspace, hasProject); err != nil {
		return exitcode.Wrap(exitcode.ForInstall(install.Report{}, err), err)
	}
	return nil
}

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/shim"
)

// exitError carries an exit code through cobra's error return.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error) error { return &exitError{code: code, err: err} }

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "lola",
		Short: "lola - AI Skills Package Manager",
		Long: `lola - AI Skills Package Manager

Lola installs modules (skills, commands, agents, instructions, MCP servers)
into the files AI assistants read: Claude Code, Cursor, Gemini CLI, OpenCode
and more. Every effect flows through an extension that returns a plan; lola
validates the plan whole, logs it, and applies it atomically.

Quick start:
  lola mod add GIT-URL|FOLDER|ZIP|TAR   add a module to the store
  lola mod ls                           list the modules in the store
  lola install MODULE -a ASSISTANT      install a module for an assistant

More help on any command: lola COMMAND --help (or -h).`,
		Version:       lolaVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("lola {{.Version}}\n")
	root.SetUsageTemplate(root.UsageTemplate() + "\n" + exitCodeHelp + "\n")
	root.AddCommand(newPlanCmd(), newExtCmd(), newExtensionHostCmd())
	for _, c := range topCommands {
		root.AddCommand(c())
	}
	strictUsage(root)
	return root
}

// Command files register themselves in init so that each command lives in
// one file of its own and adding one never edits another.
var (
	topCommands  []func() *cobra.Command // lola <cmd>
	planCommands []func() *cobra.Command // lola plan <cmd>
	extCommands  []func() *cobra.Command // lola ext <cmd>
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != shim.Subcommand {
		registerBuiltinsOnce(stderr)
	}
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "lola:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "lola:", err)
	// cobra reports flag and argument errors as plain errors.
	return exitUsage
}

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/shim"
)

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
	root.SetUsageTemplate(root.UsageTemplate() + "\n" + exitcode.Help + "\n")
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
		return exitcode.OK
	}
	// A command returns its failure with the code host/exitcode decided
	// for it; an empty message means the command has told people already.
	var e *exitcode.Error
	if errors.As(err, &e) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "lola:", msg)
		}
		return e.Code
	}
	fmt.Fprintln(stderr, "lola:", err)
	// cobra reports flag and argument errors as plain errors.
	return exitcode.Usage
}

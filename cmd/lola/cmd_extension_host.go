package main

import (
	"errors"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/shim"
	"github.com/spf13/cobra"
)

// newExtensionHostCmd is the tier-1 shim child. It is hidden: lola runs it
// by re-executing itself (shim.NewInvocation), and nothing else should.
// Its flags are the shim's own (shim.ParseArgs), so the parent's
// invocation and this parser cannot drift; --caps is recorded, not
// interpreted. It writes the plan to stdout and one outcome line to
// stderr, and exits with the shim's code (0, 1, 2 or 4).
func newExtensionHostCmd() *cobra.Command {
	c := &cobra.Command{
		Use:                shim.Subcommand + " --module PATH --caps LIST",
		Short:              "Run one tier-1 module (internal)",
		Hidden:             true,
		DisableFlagParsing: true,
		ValidArgsFunction:  cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			code := shim.Run(args, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
			if code == shim.ExitOK {
				return nil
			}
			// The shim has written its own diagnostic; add nothing.
			return exitcode.Wrap(code, errors.New(""))
		},
	}
	return c
}

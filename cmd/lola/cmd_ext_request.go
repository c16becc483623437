package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/schema"
)

func init() { extCommands = append(extCommands, newExtRequestCmd) }

func newExtRequestCmd() *cobra.Command {
	var assistant, scope, workspace string
	var uninstall bool
	c := &cobra.Command{
		Use:   "request MODULE -a TARGET [--scope project|user] [--uninstall] [--workspace W] [PROJECT]",
		Short: "Print the exact request 'lola install' would send a target extension",
		Long: `Print, as one line of JSON, the request 'lola install MODULE -a TARGET'
(or, with --uninstall, 'lola uninstall') would send the target extension
TARGET now: built by the install's own code from the module in the store
(its files and its inventory: skills, commands, agents, instructions, MCP
servers), the assistant and scope, and the current content of the files
the target's manifest lists as managed, read beneath the project (or your
home for --scope user), with "created" naming those lola made there.
The bytes are the ones lola writes to the extension, so the output is a
real test case: save it as testdata/<case>.request.json for 'lola ext
test', or give it to 'lola ext run --request'.

Nothing runs and nothing is written: no hook, no extension, no audit
record. MODULE is a name in the store ('lola mod add' it first; nothing is
fetched). TARGET is any target lola knows: a built-in, or one added or
linked with 'lola ext add' / 'lola ext link' (link your project while you
develop it). An install whose pre-install hook edits a managed file sends
that file as the hook left it.

Exit status: 0 printed; 1 the module is not in the store; 2 usage (no
such target, a bad scope or project); 3 a managed file is a symbolic link
(path.symlink).`,
		Example: `  # The request your target gets for a module, as a golden test case
  lola ext request my-skills -a my-target > testdata/install.request.json
  lola ext request my-skills -a my-target --uninstall > testdata/uninstall.request.json

  # What a built-in target receives, then run it by hand
  lola ext request my-skills -a claude-code ~/work/app > req.json
  lola ext run --root ~/work/app --request req.json --dry-run claude-code

  # For a user-scope install (managed files read from your home)
  lola ext request my-skills -a my-target --scope user`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if assistant == "" {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext request: -a TARGET is required"))
			}
			if err := checkAssistantFlag([]string{assistant}, nil); err != nil {
				return err
			}
			o, err := installOptions(cmd, scope, args)
			if err != nil {
				return err
			}
			o.Assistant = assistant
			if err := openClawRoot(&o, assistant, workspace, len(args) > 1); err != nil {
				return err
			}
			op := schema.OperationInstall
			if uninstall {
				op = schema.OperationUninstall
			}
			req, err := install.Request(o, op)
			if err != nil {
				return exitcode.Wrap(exitcode.ForInstall(install.Report{}, err), fmt.Errorf("ext request: %w", err))
			}
			b, err := pipeline.EncodeRequest(req)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext request: %w", err))
			}
			_, err = cmd.OutOrStdout().Write(append(b, '\n'))
			return err
		},
	}
	fl := c.Flags()
	fl.StringVarP(&assistant, "assistant", "a", "", "the target extension the request is for (a built-in, or one added or linked)")
	fl.StringVarP(&scope, "scope", "s", "project", "project (managed files read from PROJECT) or user (from your home)")
	fl.BoolVar(&uninstall, "uninstall", false, "the request 'lola uninstall' would send instead")
	fl.StringVar(&workspace, "workspace", "", "OpenClaw workspace, as for lola install (only with -a openclaw)")
	return c
}

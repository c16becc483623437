package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X main.version=1.2.3"); without
// it the module version of the build is used, else a development marker
// that still reads as "lola MAJOR.MINOR".
var version = ""

func lolaVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "0.0.0-dev"
}

// strictUsage makes every misuse of the command tree a usage error (exit
// 2), so a script can tell a typo from success: a command group run without
// a subcommand prints its help to stderr, an unknown subcommand or flag is
// named, and an argument-count error shows the command's usage line.
// cobra's defaults print help and exit 0 for the first two.
func strictUsage(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "unknown flag: "); ok {
			msg = "No such option: " + name
		} else if rest, ok := strings.CutPrefix(msg, "unknown shorthand flag: "); ok {
			if _, flag, ok := strings.Cut(rest, " in "); ok {
				msg = "No such option: " + flag
			}
		}
		return fmt.Errorf("%s\nUsage: %s (see %s --help)", msg, c.UseLine(), c.CommandPath())
	})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.HasSubCommands() && !c.Runnable() {
			c.Args = cobra.ArbitraryArgs
			c.RunE = groupRun
			return
		}
		if check := c.Args; check != nil {
			c.Args = func(c *cobra.Command, args []string) error {
				if err := check(c, args); err != nil {
					return fmt.Errorf("%w\nUsage: %s (see %s --help)", err, c.UseLine(), c.CommandPath())
				}
				return nil
			}
		}
	}
	walk(root)
}

// groupRun is the body of a command group (lola, lola mod, ...): without a
// subcommand it shows the group's help on stderr; with an unknown one it
// names it and suggests near names. Both are usage errors.
func groupRun(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		c.SetOut(c.ErrOrStderr())
		_ = c.Help()
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s needs a command", c.CommandPath()))
	}
	msg := fmt.Sprintf("No such command %q for %s", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return exitcode.Wrap(exitcode.Usage, errors.New(msg+"\nRun '"+c.CommandPath()+" --help' for its commands."))
}

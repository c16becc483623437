package main

import (
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
)

// checkAssistantFlag refuses, as a usage error (exit 2), an -a/--assistant
// value that is no target extension lola knows, before the command looks
// at anything else (today's Lola checks its choice list first). An empty
// value is no choice and passes. also admits names besides the targets
// (lola list -a: an assistant installed.yml records).
func checkAssistantFlag(names []string, also func(string) bool) error {
	home, err := config.Home()
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	for _, n := range names {
		if n == "" || (also != nil && also(n)) {
			continue
		}
		if err := extension.CheckTarget(home, n); err != nil {
			if errors.Is(err, extension.ErrNotTarget) {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("Invalid value for '-a' / '--assistant': %w (see lola ext ls)", err))
			}
			return exitcode.Wrap(exitcode.Internal, err)
		}
	}
	return nil
}

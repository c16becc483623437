// Command lola-shim is the tier-1 child on its own: the same code as
// `lola __extension-host` (host/shim), in a binary that links nothing else,
// so a warm tier-1 run does not pay for starting the whole CLI twice.
// lola runs it when it lies beside the lola executable and falls back to
// re-executing itself otherwise. It is not meant to be run by hand.
package main

import (
	"os"

	"github.com/lola-pm/lola/host/shim"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == shim.Subcommand {
		args = args[1:]
	}
	os.Exit(shim.Run(args, os.Stdin, os.Stdout, os.Stderr))
}

package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newExtensionHostCmd is the tier-1 shim child. It is hidden: lola runs it
// by re-executing itself, and nothing else should.
func newExtensionHostCmd() *cobra.Command {
	var module, caps string
	c := &cobra.Command{
		Use:    "__extension-host --module PATH --caps LIST",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withCode(exitExtension, errors.New("__extension-host: not implemented"))
		},
	}
	c.Flags().StringVar(&module, "module", "", "path of the WASI preview 1 module")
	c.Flags().StringVar(&caps, "caps", "", "granted capabilities (recorded, not interpreted)")
	return c
}

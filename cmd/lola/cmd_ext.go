package main

import "github.com/spf13/cobra"

func newExtCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "ext",
		Short: "Run, scaffold, build and inspect extensions",
	}
	for _, sub := range extCommands {
		c.AddCommand(sub())
	}
	return c
}

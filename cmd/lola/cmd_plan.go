package main

import "github.com/spf13/cobra"

func newPlanCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "plan",
		Short: "Validate and apply plan files (the authoring and debugging path for plans)",
	}
	for _, sub := range planCommands {
		c.AddCommand(sub())
	}
	return c
}

package main

import "github.com/spf13/cobra"

func newExtCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "ext",
		Short: "Scaffold, build, test, pack, sign, run and inspect extensions",
		Long: `Scaffold, build, test, pack, sign, add, run and inspect extensions.

An author's path: lola ext new, build, test, sign, pack, then add the
archive (or its https URL) anywhere. The manifest's every key: lola ext
manifest. What a target must do with the request lola sends it, and how to
refuse a bad one from each SDK: lola ext target-contract.`,
	}
	for _, sub := range extCommands {
		c.AddCommand(sub())
	}
	return c
}

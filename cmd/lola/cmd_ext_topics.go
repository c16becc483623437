package main

import (
	_ "embed"
	"fmt"

	"github.com/spf13/cobra"
)

// The reference an author needs offline, shipped inside the lola binary as
// topics of `lola ext`: commands that print their text (so a stray
// argument is a usage error, exit 2, as for every command). The scaffolded
// manifest's header names them.

//go:embed help/ext-manifest.txt
var extManifestTopic string

//go:embed help/ext-target-contract.txt
var extTargetContractTopic string

func init() {
	extCommands = append(extCommands,
		extTopic("manifest", "The extension manifest (lola-extension.yaml), key by key", extManifestTopic),
		extTopic("target-contract", "What a target must do with lola's request: inventory, managed files, uninstall, bad requests", extTargetContractTopic))
}

// extTopic is a topic: `lola ext NAME` prints text; `lola ext NAME
// --help` and `lola help ext NAME` print it too.
func extTopic(name, short, text string) func() *cobra.Command {
	return func() *cobra.Command {
		return &cobra.Command{
			Use: name, Short: short, Long: text, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				_, err := fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			},
		}
	}
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/schema"
)

func init() { extCommands = append(extCommands, newExtLsCmd) }

func newExtLsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "ls [--json]",
		Short: "List the built-in and installed extensions",
		Long: `List every extension lola can run: those built into the lola binary and
those installed under $LOLA_HOME/extensions/<name>/ (each a directory named as
the extension, holding its lola-extension.yaml). For each: name, version,
kind (target, source, hook), the tier it runs in (tier1 when its WASI module
is built, otherwise tier2, native), its granted capabilities and its source
(builtin or home).

An installed extension that cannot be loaded (a broken manifest, an unknown
capability, a directory named differently from its manifest, a name that
clashes with a built-in) is never skipped silently: it is reported on
stderr (and under "problems" with --json) and the exit status is 1.

--json prints one object:
  {"extensions": [{"name": ..., "version": ..., "kind": ..., "tier": ...,
                   "capabilities": [...], "source": "builtin"|"home"}],
   "problems": [{"where": ..., "error": ...}]}

Exit status: 0 listed; 1 at least one extension could not be loaded (the
others are still listed); 2 $LOLA_HOME is unusable.`,
		Example: `  # What can lola run?
  lola ext ls

  # The same for scripts
  lola ext ls --json | jq -r '.extensions[].name'

  # Against another state directory
  LOLA_HOME=/tmp/lola-test lola ext ls`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExtLs(cmd, asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the list as one JSON object")
	return c
}

// extLsEntry is one extension in `ext ls --json`.
type extLsEntry struct {
	Name         string              `json:"name"`
	Version      string              `json:"version"`
	Kind         extension.Kind      `json:"kind"`
	Tier         extension.Tier      `json:"tier"`
	Capabilities []schema.Capability `json:"capabilities"`
	Source       extension.Source    `json:"source"`
}

// extProblem is an extension that could not be loaded, in --json output.
type extProblem struct {
	Where string `json:"where"`
	Error string `json:"error"`
}

// extCatalog discovers the extensions under $LOLA_HOME; the error carries
// the exit code.
func extCatalog() (home string, cat *extension.Catalog, err error) {
	home, err = config.Home()
	if err != nil {
		return "", nil, withCode(exitUsage, err)
	}
	cat, err = extension.Discover(home)
	if err != nil {
		return "", nil, withCode(exitUsage, err)
	}
	return home, cat, nil
}

func runExtLs(cmd *cobra.Command, asJSON bool) error {
	_, cat, err := extCatalog()
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	exts := cat.Extensions()
	probs := cat.Problems()
	if asJSON {
		rep := struct {
			Extensions []extLsEntry `json:"extensions"`
			Problems   []extProblem `json:"problems"`
		}{Extensions: []extLsEntry{}, Problems: []extProblem{}}
		for _, e := range exts {
			caps := e.Capabilities().List()
			if caps == nil {
				caps = []schema.Capability{}
			}
			rep.Extensions = append(rep.Extensions, extLsEntry{
				Name: e.Name(), Version: e.Version(), Kind: e.Kind(), Tier: e.Tier(),
				Capabilities: caps, Source: e.Source(),
			})
		}
		for _, p := range probs {
			rep.Problems = append(rep.Problems, extProblem{Where: p.Where(), Error: p.Err.Error()})
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return withCode(exitInternal, err)
		}
	} else {
		extLsTable(out, exts)
	}
	if len(probs) == 0 {
		return nil
	}
	msgs := make([]string, len(probs))
	for i, p := range probs {
		msgs[i] = "ext ls: " + p.Error()
	}
	return withCode(exitInternal, errors.New(strings.Join(msgs, "\nlola: ")))
}

func extLsTable(out io.Writer, exts []*extension.Extension) {
	if len(exts) == 0 {
		fmt.Fprintln(out, "no extensions (built-in or under $LOLA_HOME/extensions)")
		return
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tKIND\tTIER\tCAPABILITIES\tSOURCE")
	for _, e := range exts {
		caps := e.Capabilities().String()
		if caps == "" {
			caps = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Name(), e.Version(), e.Kind(), extTierLabel(e.Tier()), caps, e.Source())
	}
	tw.Flush()
}

// extTierLabel says what a tier means to a person.
func extTierLabel(t extension.Tier) string {
	if t.Native() {
		return string(t) + " (native)"
	}
	return string(t) + " (wasm)"
}

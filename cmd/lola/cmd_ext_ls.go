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
	"github.com/lola-pm/lola/host/exitcode"
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
(builtin, home, or dev for a directory registered by lola ext link) and its
pin (PIN): the signature verdict of the artifact it runs as pinned by lola
ext add (verified:key:NAME, unsigned-opted-in, unsigned), dev, unpinned for
an installed extension nothing pins, - for a built-in.

An installed extension that cannot be loaded (a broken manifest, an unknown
capability, a directory named differently from its manifest) is never
skipped silently: it is reported on stderr (and under "problems" with
--json) and the exit status is 1. One named as a built-in (lola ext add
refuses such a name; an older lola did not) is reported as a warning
(under "warnings" with --json): the built-in runs instead, and lola ext rm
NAME removes the unused copy.

--json prints one object:
  {"extensions": [{"name": ..., "version": ..., "kind": ..., "tier": ...,
                   "capabilities": [...], "source": "builtin"|"home"}],
   "problems": [{"where": ..., "error": ...}],
   "warnings": [{"where": ..., "error": ...}]}

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
	// Pin is the lock entry's summary for an added or linked extension.
	Pin *extPinJSON `json:"pin,omitempty"`
}

// extPinJSON is an extension's pin as ls and info print it.
type extPinJSON struct {
	From      string               `json:"from"`
	Dev       bool                 `json:"dev,omitempty"`
	Manifest  string               `json:"manifest_sha256,omitempty"`
	Artifacts []extPinArtifactJSON `json:"artifacts"`
}

type extPinArtifactJSON struct {
	Tier    extension.Tier    `json:"tier"`
	Path    string            `json:"path"`
	SHA256  string            `json:"sha256"`
	Verdict extension.Verdict `json:"verdict"`
	Signer  string            `json:"signer,omitempty"`
}

func extPinOf(e *extension.Extension) *extPinJSON {
	ent := e.Pinned()
	if ent == nil {
		return nil
	}
	p := &extPinJSON{From: ent.Source, Dev: ent.Dev, Manifest: ent.Manifest, Artifacts: []extPinArtifactJSON{}}
	for _, t := range extension.Tiers() {
		if a := ent.Artifacts[t]; a != nil {
			p.Artifacts = append(p.Artifacts, extPinArtifactJSON{Tier: t, Path: a.Path, SHA256: a.SHA256, Verdict: a.Verdict, Signer: a.Signer})
		}
	}
	return p
}

// extPinColumn is ls's PIN column: the verdict of the artifact the
// extension runs, "dev" for a linked directory, "unpinned" for an
// installed one nothing pins, "-" for a built-in or a directory.
func extPinColumn(e *extension.Extension) string {
	ent := e.Pinned()
	switch {
	case ent != nil && ent.Dev:
		return "dev"
	case ent != nil && ent.Artifacts[e.Tier()] != nil:
		a := ent.Artifacts[e.Tier()]
		if a.Verdict == extension.VerdictVerified {
			return "verified:" + strings.ReplaceAll(a.Signer, " ", ":")
		}
		return string(a.Verdict)
	case ent != nil:
		return "changed"
	case e.Source() == extension.SourceHome:
		return "unpinned"
	}
	return "-"
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
		return "", nil, exitcode.Wrap(exitcode.Usage, err)
	}
	cat, err = extension.Discover(home)
	if err != nil {
		return "", nil, exitcode.Wrap(exitcode.Usage, err)
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
			Warnings   []extProblem `json:"warnings"`
		}{Extensions: []extLsEntry{}, Problems: []extProblem{}, Warnings: []extProblem{}}
		for _, e := range exts {
			caps := e.Capabilities().List()
			if caps == nil {
				caps = []schema.Capability{}
			}
			rep.Extensions = append(rep.Extensions, extLsEntry{
				Name: e.Name(), Version: e.Version(), Kind: e.Kind(), Tier: e.Tier(),
				Capabilities: caps, Source: e.Source(), Pin: extPinOf(e),
			})
		}
		for _, p := range probs {
			if errors.Is(p.Err, extension.ErrShadowedByBuiltin) {
				rep.Warnings = append(rep.Warnings, extProblem{Where: p.Where(), Error: p.Err.Error()})
				continue
			}
			rep.Problems = append(rep.Problems, extProblem{Where: p.Where(), Error: p.Err.Error()})
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return exitcode.Wrap(exitcode.Internal, err)
		}
	} else {
		extLsTable(out, exts)
	}
	var msgs []string
	for _, p := range probs {
		if errors.Is(p.Err, extension.ErrShadowedByBuiltin) {
			// Unused, not broken: the listing stands.
			fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: ext ls: %s\n", shownText(p.Error()))
			continue
		}
		msgs = append(msgs, "ext ls: "+p.Error())
	}
	if len(msgs) == 0 {
		return nil
	}
	return exitcode.Wrap(exitcode.Internal, errors.New(strings.Join(msgs, "\nlola: ")))
}

func extLsTable(out io.Writer, exts []*extension.Extension) {
	if len(exts) == 0 {
		fmt.Fprintln(out, "no extensions (built-in or under $LOLA_HOME/extensions)")
		return
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tKIND\tTIER\tCAPABILITIES\tSOURCE\tPIN")
	for _, e := range exts {
		caps := e.Capabilities().String()
		if caps == "" {
			caps = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", shown(e.Name()), shown(e.Version()), e.Kind(), extTierLabel(e.Tier()), caps, e.Source(), extPinColumn(e))
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

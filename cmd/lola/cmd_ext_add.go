package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/signature"
)

func init() {
	extCommands = append(extCommands, newExtAddCmd, newExtRmCmd, newExtUpdateCmd, newExtLinkCmd)
}

// extTrust builds the trust policy of config.yaml's trust: section.
func extTrust(st *lolaState) (extension.TrustPolicy, error) {
	v, err := signature.FromConfig(st.home, st.cfg.Trust())
	if err != nil {
		return extension.TrustPolicy{}, err
	}
	return extension.TrustPolicy{Verifier: v, RequireTier1: st.cfg.Trust().RequireTier1()}, nil
}

// extAddExit maps an add/update/link error to the closed exit codes: a
// rule (path.*, extension.changed) is 3, everything else a usage error.
func extAddExit(verb string, err error) error {
	if len(rejection.All(err)) > 0 {
		return withCode(exitRejected, fmt.Errorf("ext %s: %w", verb, err))
	}
	return withCode(exitUsage, fmt.Errorf("ext %s: %w", verb, err))
}

type extAddFlags struct {
	name, home    string
	allowUnsigned bool
}

func newExtAddCmd() *cobra.Command {
	var f extAddFlags
	c := &cobra.Command{
		Use:   "add [--name N] [--allow-unsigned] SOURCE",
		Short: "Install an extension from a built directory or an archive, and pin it",
		Long: `Install the extension at SOURCE into $LOLA_HOME/extensions/<name>/ and pin
it in $LOLA_HOME/extensions.lock.

SOURCE is a built extension directory (lola-extension.yaml and its built
artifacts, e.g. dist/), or a .zip, .tar, .tar.gz or .tgz of one (an archive
whose entries all lie under one directory is unwrapped). It is staged under
the same path rules and bounds as 'lola mod add': a path leaving the
archive, an absolute path, a symbolic or hard link, a device, too many or too
large files refuse the whole source and nothing is installed.

The lock records the sha256 of the manifest and of every built artifact, the
source, and each artifact's signature verdict. Every later run checks the
bytes it launches against the pin and refuses a changed artifact or manifest
(extension.changed, exit 4, audited).

A native (tier-2) artifact must come with a Sigstore bundle beside it
(<artifact>.sigstore.json, made by 'lola ext sign' or 'cosign sign-blob')
that verifies against config.yaml's trust: section:
  trust:
    keys:       [{name: alice, file: keys/alice.pub}]   # key-based bundles
    identities: [{issuer: https://..., subject_regexp: "^...$"}]  # keyless,
                # checked against $LOLA_HOME/trusted_root.json, offline
    require_tier1: false   # true: tier-1 modules must be signed too, checked
                           # at every run (extension.unsigned, exit 4)
--allow-unsigned installs an unsigned or unverifiable artifact anyway: the
opt-in is recorded for exactly the pinned bytes and never carries over to a
changed artifact. A tier-1 module is verified when a bundle is present.

--name must equal the manifest's name (the directory is always named as
the manifest).

Git and https sources are not supported yet: clone or download, then add
the directory or archive.

Exit status: 0 installed; 2 usage, an unsigned native artifact, a name
already installed, a source that is not an extension; 3 a path rule refused
the source (path.traversal, path.symlink, ...).`,
		Example: `  # Install what 'lola ext build' produced
  lola ext add ./my-target

  # From a release archive
  lola ext add ./my-target-1.0.0.tar.gz`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext add: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext add: %w", err))
			}
			got, err := extension.Add(st.home, args[0], extension.AddOptions{Name: f.name, AllowUnsigned: f.allowUnsigned, Trust: tp})
			if err != nil {
				return extAddExit("add", err)
			}
			extPrintPinned(cmd.OutOrStdout(), "added", got)
			return nil
		},
	}
	c.Flags().StringVar(&f.name, "name", "", "expected extension name (must equal the manifest's)")
	c.Flags().BoolVar(&f.allowUnsigned, "allow-unsigned", false, "install an unsigned native artifact, pinned by its sha256 (audited in the lock)")
	c.Flags().StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

// extPrintPinned prints what was pinned: one line, then one per artifact.
func extPrintPinned(out io.Writer, verb string, a *extension.Added) {
	fmt.Fprintf(out, "%s %s %s from %s\n", verb, a.Name, a.Entry.Version, extRunEscape(a.Entry.Source))
	for _, t := range extension.Tiers() {
		la := a.Entry.Artifacts[t]
		if la == nil {
			continue
		}
		fmt.Fprintf(out, "  %s %s sha256:%s %s\n", t, extRunEscape(la.Path), la.SHA256[:16], extVerdictText(la))
	}
}

// extVerdictText is a pinned artifact's verdict for people.
func extVerdictText(la *extension.LockArtifact) string {
	return (extension.RunPin{Verdict: la.Verdict, Signer: la.Signer}).Describe()
}

func newExtRmCmd() *cobra.Command {
	var home string
	c := &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove an added extension (or unlink a linked directory)",
		Long: `Remove the extension NAME that 'lola ext add' installed: its pin leaves
$LOLA_HOME/extensions.lock, then its directory is deleted. For a directory
registered with 'lola ext link' only the registration is removed; the
directory itself is never touched.

Exit status: 0 removed; 2 no extension of that name was added or linked.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(home)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext rm: %w", err))
			}
			if err := extension.Remove(st.home, args[0]); err != nil {
				return withCode(exitUsage, fmt.Errorf("ext rm: %w", err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s\n", args[0])
			return nil
		},
	}
	c.Flags().StringVar(&home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

func newExtUpdateCmd() *cobra.Command {
	var f extAddFlags
	var accept bool
	c := &cobra.Command{
		Use:   "update [--accept] [--allow-unsigned] NAME",
		Short: "Re-install an added extension from its recorded source",
		Long: `Re-fetch the extension NAME from the source its pin records and replace the
installed version, with the same checks as 'lola ext add'.

When the new version asks for more than the installed one — a capability it
did not have, a path prefix its old grant did not cover, or running native
(tier 2) where it ran confined (tier 1) — the difference is shown and the
update needs --accept, or a "yes" at the terminal. Refused, the installed
version and its pin stay exactly as they were.

Exit status: 0 updated; 2 refused (widening not accepted, unsigned native
artifact, no such extension); 3 a path rule refused the source.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext update: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext update: %w", err))
			}
			in, errOut := cmd.InOrStdin(), cmd.ErrOrStderr()
			ask := func(w extension.Widening) bool {
				if accept {
					fmt.Fprintf(errOut, "lola: %s asks for more; accepted with --accept:\n%s", args[0], w)
					return true
				}
				if !installIsTerminal(in) || !installIsTerminal(errOut) {
					return false
				}
				fmt.Fprintf(errOut, "lola: the new %s asks for more than the installed one:\n%sAccept? [y/N] ", args[0], w)
				line, _ := bufio.NewReader(in).ReadString('\n')
				a := strings.ToLower(strings.TrimSpace(line))
				return a == "y" || a == "yes"
			}
			got, err := extension.Update(st.home, args[0], extension.AddOptions{AllowUnsigned: f.allowUnsigned, Trust: tp, Accept: ask})
			if err != nil {
				if errors.Is(err, extension.ErrNotAccepted) {
					err = fmt.Errorf("%w\n(re-run with --accept to grant it)", err)
				}
				return extAddExit("update", err)
			}
			extPrintPinned(cmd.OutOrStdout(), "updated", got)
			return nil
		},
	}
	c.Flags().BoolVar(&accept, "accept", false, "accept what the new version asks for beyond the installed one")
	c.Flags().BoolVar(&f.allowUnsigned, "allow-unsigned", false, "accept an unsigned native artifact, pinned by its sha256")
	c.Flags().StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

func newExtLinkCmd() *cobra.Command {
	var f extAddFlags
	c := &cobra.Command{
		Use:   "link [--allow-unsigned] DIR",
		Short: "Register a development directory as an extension, re-read on every run",
		Long: `Register the extension directory DIR under its manifest's name, for
development: nothing is copied or pinned, every run re-reads DIR, so a
rebuild needs no new link. It is marked dev in 'lola ext ls' and 'lola ext
info', and runs with its manifest's capabilities and path grant, exactly as
it will once added.

DIR must hold no symbolic link. A native (tier-2) artifact still needs a
verifying <artifact>.sigstore.json or --allow-unsigned, which opts in for
the artifact's present bytes only: after a rebuild, sign it or link again.

Exit status: 0 linked; 2 refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext link: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext link: %w", err))
			}
			got, err := extension.Link(st.home, args[0], extension.AddOptions{AllowUnsigned: f.allowUnsigned, Trust: tp})
			if err != nil {
				return extAddExit("link", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "linked %s (dev) to %s\n", got.Name, extRunEscape(got.Entry.Dir))
			return nil
		},
	}
	c.Flags().BoolVar(&f.allowUnsigned, "allow-unsigned", false, "opt in to the native artifact's present bytes")
	c.Flags().StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

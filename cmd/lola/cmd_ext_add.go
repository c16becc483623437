package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/reinstall"
	"github.com/lola-pm/lola/schema"
)

func init() {
	extCommands = append(extCommands, newExtAddCmd, newExtRmCmd, newExtUpdateCmd, newExtLinkCmd)
}

// extTrust builds the trust policy of config.yaml's trust: section.
func extTrust(st *lolaState) (extension.TrustPolicy, error) {
	return extension.TrustFromConfig(st.home, st.cfg)
}

// extAddError is an add/update/link error as people read it, with the
// code exitcode.ForExtAdd decided.
func extAddError(verb string, err error) error {
	return exitcode.Wrap(exitcode.ForExtAdd(err), fmt.Errorf("ext %s: %w", verb, err))
}

type extAddFlags struct {
	name, home    string
	allowUnsigned bool
}

func newExtAddCmd() *cobra.Command {
	var f extAddFlags
	c := &cobra.Command{
		Use:   "add [--name N] [--allow-unsigned] SOURCE",
		Short: "Install an extension from a directory, an archive, an https archive URL or a git URL, and pin it",
		Long: `Install the extension at SOURCE into $LOLA_HOME/extensions/<name>/ and pin
it in $LOLA_HOME/extensions.lock.

SOURCE is one of:
  DIR                    a built extension or its whole project folder:
                         only lola-extension.yaml, the artifacts it
                         declares and their .sigstore.json bundles are
                         read (target/, node_modules/, sources are not)
  FILE.tar.gz            a release archive, as 'lola ext pack' makes it
                         (.zip, .tar and .tgz too; one whose entries all
                         lie under one directory is unwrapped): it must hold
                         nothing but those files (module.unlisted)
  https://HOST/x.tar.gz  such an archive (.zip, .tar, .tgz too), fetched
  https://HOST/r.git     a git repository holding the manifest and its
  ssh://HOST/r.git       built artifacts, cloned (its default branch); only
  user@host:path         what the manifest names is taken from it
A URL is fetched or cloned by lola's remote executor under config.yaml's
remote policy (https only, no http://: remote.scheme; every address
checked, a private or loopback one refused unless remote.allow admits it:
remote.destination; redirects checked the same way; byte and time bounds:
remote.bound). Everything is staged under the same path rules and bounds as
'lola mod add': a path leaving the archive, an absolute path, a symbolic or
hard link (in an archive, a git checkout, or on the way to a file the
manifest names), a device, a duplicate entry, too many or too large files,
a manifest whose artifact path is absolute or holds '..' refuse the whole
source and nothing is installed.

The lock records the sha256 of the manifest and of every built artifact, the
source (a URL with its query values and credentials redacted) and each
artifact's signature verdict; 'lola ext update' fetches the recorded source
again. Every later run checks the bytes it launches against the pin and
refuses a changed artifact or manifest (extension.changed, exit 4, audited).

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

Exit status: 0 installed; 1 the remote client could not be set up
(credentials, cache); 2 usage, an unsigned native artifact, a name already
installed, a source that is not an extension or could not be fetched (a
network error, an HTTP status); 3 a rule or bound refused the source
(path.traversal, path.symlink, remote.scheme, remote.destination,
remote.redirect, remote.bound, module.*, module.unlisted).`,
		Example: `  # Install what 'lola ext build' produced, from the project folder
  lola ext add ./my-target

  # From a release archive ('lola ext pack' makes one)
  lola ext add ./my-target-1.0.0.tar.gz

  # From a release archive on the web, or a git repository
  lola ext add https://example.com/releases/my-target-1.0.0.tar.gz
  lola ext add https://github.com/me/my-target.git`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext add: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext add: %w", err))
			}
			o := extension.AddOptions{Name: f.name, AllowUnsigned: f.allowUnsigned, Trust: tp, Context: cmd.Context()}
			r := &remoteOnDemand{home: f.home, announce: cmd.ErrOrStderr()}
			o.Fetcher, o.Cloner = r, r
			got, err := extension.Add(st.home, args[0], o)
			if err != nil {
				return extAddError("add", err)
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
	fmt.Fprintf(out, "%s %s %s from %s\n", verb, shown(a.Name), shown(a.Entry.Version), shownText(a.Entry.Source))
	for _, t := range extension.Tiers() {
		la := a.Entry.Artifacts[t]
		if la == nil {
			continue
		}
		fmt.Fprintf(out, "  %s %s sha256:%s %s\n", t, shownText(la.Path), la.SHA256[:16], extVerdictText(la))
	}
}

// extVerdictText is a pinned artifact's verdict for people.
func extVerdictText(la *extension.LockArtifact) string {
	return (extension.RunPin{Verdict: la.Verdict, Signer: la.Signer}).Describe()
}

func newExtRmCmd() *cobra.Command {
	var home string
	var force bool
	c := &cobra.Command{
		Use:   "rm [--force] NAME",
		Short: "Remove an added extension (or unlink a linked directory)",
		Long: `Remove the extension NAME that 'lola ext add' installed: its pin leaves
$LOLA_HOME/extensions.lock, then its directory is deleted. For a directory
registered with 'lola ext link' only the registration is removed; the
directory itself is never touched.

A target extension that installs still use (installed.yml records them) is
not removed: each install is named, with how to uninstall it first
('lola uninstall MODULE -a NAME'). --force removes it anyway; 'lola
uninstall' of those installs then works by installed.yml's record: it
deletes the files lola wrote that still hold what it wrote (an edited one
is kept), and names what the target wrote into shared files (an
instructions block, MCP servers), which only the target could take out.

Exit status: 0 removed; 2 no extension of that name was added or linked,
or installs use it and --force was not given.`,
		Example: `  # Remove a target no install uses any more
  lola ext rm my-target

  # Remove it although installs use it; uninstall them by the record after
  lola ext rm --force my-target
  lola uninstall my-skills -a my-target`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(home)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext rm: %w", err))
			}
			name := args[0]
			users, err := install.Dependents(st.home, name)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext rm: %w", err))
			}
			if len(users) > 0 && !force {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext rm: %d install(s) use %s as their target; uninstall them first:\n%s\nor remove it anyway with --force ('lola uninstall' then removes, by installed.yml's record, the files lola wrote for them); nothing was removed",
					len(users), shown(name), extRmUsage(users, name)))
			}
			if err := extension.Remove(st.home, name); err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext rm: %w", err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s\n", shown(name))
			if len(users) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: %d install(s) used %s; uninstall each (lola removes, by installed.yml's record, the files it wrote for them; 'lola update' stops at them until then):\n%s\n",
					len(users), shown(name), extRmUsage(users, name))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "remove a target extension although installs use it")
	c.Flags().StringVar(&home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

// extReconcileUsers runs again, through the extension name just updated,
// the installs that use it as their target (host/reinstall, as 'lola
// update -a NAME'): each then holds what the new version writes, and what
// the old version wrote and the new one does not is removed.
func extReconcileUsers(cmd *cobra.Command, st *lolaState, name string) error {
	users, err := install.Dependents(st.home, name)
	if err != nil || len(users) == 0 {
		if err != nil {
			return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext update: the extension is updated, but installed.yml cannot be read: %w", err))
		}
		return nil
	}
	var o install.Options
	if err := installStateOptions(cmd, st, &o); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "reinstalling the %d install(s) that use %s:\n", len(users), shown(name))
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	res, err := reinstall.Run(ctx, o, reinstall.Filter{Assistant: name})
	if perr := printReinstall(cmd, res, err, false, "no longer written by the new "+shown(name)); perr != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "lola: %s is updated; run lola update -a %s for the installs not reinstalled\n", shown(name), shown(name))
		return perr
	}
	return nil
}

// extRmUsage is one 'lola uninstall' line per install.
func extRmUsage(users []install.Record, name string) string {
	lines := make([]string, len(users))
	for i, r := range users {
		l := "  lola uninstall " + shown(r.Module) + " -a " + shown(name)
		if r.Scope == string(schema.ScopeUser) {
			l += " --scope user"
		} else {
			l += " " + shownText(r.ProjectPath)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func newExtUpdateCmd() *cobra.Command {
	var f extAddFlags
	var accept bool
	var from string
	c := &cobra.Command{
		Use:   "update [--accept] [--allow-unsigned] [--from SOURCE] NAME",
		Short: "Re-install an added extension from its recorded source",
		Long: `Re-fetch the extension NAME from the source its pin records and replace the
installed version, with the same checks as 'lola ext add'.

When the new version asks for more than the installed one — a capability it
did not have, a path prefix its old grant did not cover, or running native
(tier 2) where it ran confined (tier 1) — the difference is shown and the
update needs --accept, or a "yes" at the terminal. Refused, the installed
version and its pin stay exactly as they were.

A recorded https or git source is fetched or cloned again under
config.yaml's remote policy, as 'lola ext add' does. The lock records a URL
with its query values and credentials redacted (a signed release URL
carries its token there), so such a source cannot be fetched as recorded:
name it again with --from, which also moves an extension to a new source
(the new version must have the same name). The pin then records --from.

A target extension's installs (installed.yml records them) are then run
again through the new version, as 'lola update -a NAME' runs them (hooks
included), so what they hold is what the new version writes; the files the
old version wrote that the new one no longer writes are removed when they
still hold what lola wrote (one you changed is kept and named). The first
install that fails stops the run: the extension stays updated, and
'lola update -a NAME' runs the rest.

Exit status: 0 updated; 1 the remote client could not be set up; 2 refused
(widening not accepted, unsigned native artifact, no such extension, a
redacted source without --from, source not fetched); 3 a rule or bound
refused the source (path.*, remote.*, module.*); after the update, an
install that failed exits with its code, as 'lola update' does.`,
		Example: `  # Re-fetch from the recorded source
  lola ext update my-target

  # A signed release URL (its query was redacted in the lock)
  lola ext update my-target --from 'https://example.com/my-target-1.1.0.tar.gz?X-Amz-Signature=...'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext update: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext update: %w", err))
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
			o := extension.AddOptions{AllowUnsigned: f.allowUnsigned, Trust: tp, Accept: ask, Context: cmd.Context(), From: from}
			r := &remoteOnDemand{home: f.home, announce: cmd.ErrOrStderr()}
			o.Fetcher, o.Cloner = r, r
			got, err := extension.Update(st.home, args[0], o)
			if err != nil {
				if errors.Is(err, extension.ErrNotAccepted) {
					err = fmt.Errorf("%w\n(re-run with --accept to grant it)", err)
				}
				return extAddError("update", err)
			}
			extPrintPinned(cmd.OutOrStdout(), "updated", got)
			return extReconcileUsers(cmd, st, args[0])
		},
	}
	c.Flags().BoolVar(&accept, "accept", false, "accept what the new version asks for beyond the installed one")
	c.Flags().StringVar(&from, "from", "", "stage the new version from SOURCE instead of the recorded one (needed for a redacted URL)")
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
When the tier-1 module is built too, an unsigned native build does not
stop the link: the tier-1 module is linked (it is what runs when both are
built) and the native artifact is named as ignored until it is signed
(lola ext sign) or opted in (--allow-unsigned).

Exit status: 0 linked; 2 refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openState(f.home)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext link: %w", err))
			}
			tp, err := extTrust(st)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext link: %w", err))
			}
			got, err := extension.Link(st.home, args[0], extension.AddOptions{AllowUnsigned: f.allowUnsigned, Trust: tp})
			if err != nil {
				return extAddError("link", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "linked %s (dev) to %s\n", got.Name, shownText(got.Entry.Dir))
			if got.IgnoredNative != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: note: the tier-1 module is linked; the native (tier-2) artifact is ignored until it is signed (lola ext sign --key KEY %s) or opted in (lola ext link --allow-unsigned): %s\n",
					shownText(args[0]), shownText(got.IgnoredNative.Error()))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&f.allowUnsigned, "allow-unsigned", false, "opt in to the native artifact's present bytes")
	c.Flags().StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

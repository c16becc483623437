package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/exttest"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/sigverify"
)

func init() { extCommands = append(extCommands, newExtSignCmd) }

// extSignMaxArtifact bounds what ext sign reads.
const extSignMaxArtifact = 512 << 20

type extSignFlags struct {
	key, trustName, home string
	trust                bool
}

func newExtSignCmd() *cobra.Command {
	var f extSignFlags
	c := &cobra.Command{
		Use:   "sign --key KEY [--trust [--trust-name NAME]] DIR|ARTIFACT",
		Short: "Sign an extension's artifacts: write <artifact>.sigstore.json, a key-based Sigstore bundle",
		Long: `Sign with the private key KEY and write a Sigstore bundle beside each
artifact, <artifact>.sigstore.json, as 'cosign sign-blob --key' does
(without a transparency log upload: verification is offline).

DIR is an extension directory: every built artifact its manifest
(lola-extension.yaml) names is signed, tier 1 and tier 2, so a rebuild
is re-signed in one step. ARTIFACT is one file, signed alone.

The public key is printed with how to trust it. --trust trusts it on this
machine: the key goes to $LOLA_HOME/keys/NAME.pub and an entry
{name: NAME, file: keys/NAME.pub} to config.yaml's trust.keys, and the
change to config.yaml is shown as a diff. NAME is --trust-name, else the
key file's name without its extension. Every other line of config.yaml is
kept as it was; a config.yaml that does not parse, a trust: section that
cannot be edited by inserting the entry alone, or a NAME already used for
another key is refused and nothing is changed (the lines to add by hand
are printed). A key already trusted is reported, not added twice.

A bundle is written atomically, by descriptor: a bundle path that is a
symbolic link is refused (path.symlink) and what it points to is never
written.

KEY is an ECDSA P-256 private key: unencrypted PEM (PKCS #8 or SEC 1), or
the encrypted cosign.key 'cosign generate-key-pair' writes. A cosign key's
password is read from $COSIGN_PASSWORD, as cosign reads it, or asked for at
the terminal (not echoed).

Exit status: 0 signed (and trusted with --trust); 2 the key, the artifact
or the manifest cannot be read, nothing is built, a cosign key's password
is wrong or not given, or --trust was refused; 3 a bundle path is a
symbolic link (path.symlink).`,
		Example: `  # Make a key (once), sign every built artifact, and trust the key here
  openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out author.key
  lola ext sign --key author.key --trust ./my-target

  # One artifact, with a key cosign made
  COSIGN_PASSWORD=... lola ext sign --key cosign.key dist/my-target`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runExtSign(cmd, f, args[0]) },
	}
	c.Flags().StringVar(&f.key, "key", "", "PEM ECDSA P-256 private key")
	c.Flags().BoolVar(&f.trust, "trust", false, "also trust the public key in $LOLA_HOME/config.yaml (trust.keys), showing the change")
	c.Flags().StringVar(&f.trustName, "trust-name", "", "the trust.keys entry's name (default: the key file's name without extension)")
	c.Flags().StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	return c
}

// extSignTarget is one artifact to sign: where its bundle goes, as a root
// and a slash path beneath it, and how it is named to the user.
type extSignTarget struct {
	shown, root, rel string
	read             func() ([]byte, error)
}

func runExtSign(cmd *cobra.Command, f extSignFlags, target string) error {
	if f.key == "" {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: --key is required"))
	}
	if f.trustName != "" && !f.trust {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: --trust-name needs --trust"))
	}
	trustName := f.trustName
	if f.trust && trustName == "" {
		trustName = extSignKeyName(f.key)
	}
	targets, err := extSignTargets(target)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: %w", err))
	}
	kb, err := os.ReadFile(f.key)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: cannot read --key"))
	}
	k, err := sigverify.ParsePrivateKeyWithPassword(kb, func() ([]byte, error) { return extSignPassword(cmd) })
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: --key: %w", err))
	}
	pub, err := sigverify.PublicKeyPEM(k)
	if err != nil {
		return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext sign: %w", err))
	}
	// --trust is prepared before anything is signed, so a refusal
	// changes nothing at all.
	var edit *config.TrustKeyEdit
	var home string
	if f.trust {
		if home, edit, err = extSignTrustEdit(f.home, trustName, pub); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	for _, t := range targets {
		art, err := t.read()
		if err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: %s: %w", shownText(t.shown), err))
		}
		b, err := sigverify.Sign(k, art)
		if err != nil {
			return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext sign: %w", err))
		}
		if err := fsroot.WriteFileBeneath(t.root, t.rel+extension.BundleSuffix, 0o644, b); err != nil {
			return exitcode.Wrap(extSignWriteCode(err), fmt.Errorf("ext sign: cannot write the bundle of %s: %w", shownText(t.shown), err))
		}
		sum := sha256.Sum256(art)
		fmt.Fprintf(out, "signed %s (sha256:%s)\nwrote %s\n", shownText(t.shown), hex.EncodeToString(sum[:]), shownText(t.shown+extension.BundleSuffix))
	}
	fmt.Fprintf(out, "public key:\n%s", pub)
	if edit == nil {
		extSignHowToTrust(cmd, f, pub)
		return nil
	}
	return extSignTrust(cmd, home, edit)
}

// extSignWriteCode is the exit code of a write refused by a rule
// (path.symlink: 3) or failing otherwise (1).
func extSignWriteCode(err error) int {
	if len(rejection.All(err)) > 0 {
		return exitcode.Rejected
	}
	return exitcode.Internal
}

// extSignTargets is DIR's built artifacts (its manifest names them), or
// the one file named.
func extSignTargets(target string) ([]extSignTarget, error) {
	fi, err := os.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read", shownText(target))
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() || fi.Size() > extSignMaxArtifact {
			return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", shownText(target), extSignMaxArtifact)
		}
		abs, err := filepath.Abs(target)
		if err != nil {
			return nil, err
		}
		return []extSignTarget{{shown: target, root: filepath.Dir(abs), rel: filepath.Base(abs),
			read: func() ([]byte, error) { return extSignRead(os.Open(target)) }}}, nil
	}
	e, err := extension.Load(target)
	if err != nil {
		return nil, err
	}
	var out []extSignTarget
	for _, a := range e.Artifacts() {
		if !a.Present() {
			continue
		}
		t := a.Tier()
		out = append(out, extSignTarget{
			shown: filepath.Join(target, filepath.FromSlash(a.Path().String())), root: e.Dir(), rel: a.Path().String(),
			read: func() ([]byte, error) {
				f, err := e.OpenArtifact(t)
				return extSignRead(f, err)
			},
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no artifact its manifest names is built (lola ext build first)", shownText(target))
	}
	return out, nil
}

// extSignRead reads an opened artifact, bounded by extSignMaxArtifact.
func extSignRead[F io.ReadCloser](f F, err error) ([]byte, error) {
	if err != nil {
		return nil, errors.New("cannot be opened")
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, extSignMaxArtifact+1))
	if err != nil {
		return nil, errors.New("cannot be read")
	}
	if len(b) > extSignMaxArtifact {
		return nil, fmt.Errorf("is larger than %d bytes", extSignMaxArtifact)
	}
	return b, nil
}

// extSignHowToTrust says how the printed key becomes trusted: already,
// by --trust, or by hand.
func extSignHowToTrust(cmd *cobra.Command, f extSignFlags, pub []byte) {
	out := cmd.OutOrStdout()
	name := extSignKeyName(f.key)
	if home, err := lolaHome(f.home); err == nil {
		if e, err := config.TrustKey(home, name, pub); err == nil && e.Already {
			fmt.Fprintf(out, "this key is trusted on this machine (config.yaml trust.keys: %s)\n", shownText(e.Name))
			return
		}
	}
	fmt.Fprintf(out, "to trust it where the extension is added: run this command again with --trust there, or save the key above as $LOLA_HOME/%s/%s.pub and add to $LOLA_HOME/config.yaml:\n%s",
		config.KeysDir, shownText(name), shownLines(config.TrustSnippet(name)))
}

// extSignKeyName is the default trust.keys name: the key file's name
// without its extension (author.key: author).
func extSignKeyName(key string) string {
	return strings.TrimSuffix(filepath.Base(key), filepath.Ext(key))
}

// extSignTrustEdit prepares adding the key to config.yaml's trust.keys;
// a refusal is a usage error that says how to trust the key by hand.
func extSignTrustEdit(flagHome, name string, pub []byte) (string, *config.TrustKeyEdit, error) {
	home, err := lolaHome(flagHome)
	if err != nil {
		return "", nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign --trust: %w", err))
	}
	e, err := config.TrustKey(home, name, pub)
	if err != nil {
		hint := " (name another with --trust-name NAME)"
		if errors.Is(err, config.ErrUnparseable) || errors.Is(err, config.ErrNotEditable) {
			hint = fmt.Sprintf("\nto trust the key by hand, save it as $LOLA_HOME/%s/%s.pub and add to config.yaml:\n%s",
				config.KeysDir, shownText(name), strings.TrimSuffix(shownLines(config.TrustSnippet(name)), "\n"))
		}
		return "", nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign --trust: %w%s; nothing was signed or changed", err, hint))
	}
	return home, e, nil
}

// extSignTrust applies the prepared edit and shows the change.
func extSignTrust(cmd *cobra.Command, home string, e *config.TrustKeyEdit) error {
	out := cmd.OutOrStdout()
	if e.Already {
		fmt.Fprintf(out, "this key is already trusted (config.yaml trust.keys: %s); config.yaml unchanged\n", shownText(e.Name))
		return nil
	}
	if err := e.Apply(home); err != nil {
		return exitcode.Wrap(extSignWriteCode(err), fmt.Errorf("ext sign --trust: the artifacts are signed, but the key is not trusted: %w", err))
	}
	fmt.Fprintf(out, "trusted as %s: wrote $LOLA_HOME/%s and changed $LOLA_HOME/config.yaml:\n", shownText(e.Name), shownText(e.File))
	fmt.Fprint(out, shownLines(exttest.Diff("config.yaml (before)", "config.yaml", string(e.Before), string(e.After))))
	return nil
}

// extSignPassword is an encrypted cosign key's password: $COSIGN_PASSWORD
// when set (even empty, as cosign treats it), else asked for at the
// terminal without echo; with neither, an error saying so.
func extSignPassword(cmd *cobra.Command) ([]byte, error) {
	if pw, ok := os.LookupEnv("COSIGN_PASSWORD"); ok {
		return []byte(pw), nil
	}
	in, ok := cmd.InOrStdin().(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return nil, errors.New("the key is an encrypted cosign key: set COSIGN_PASSWORD, or run at a terminal to be asked")
	}
	fmt.Fprint(cmd.ErrOrStderr(), "Enter password for private key: ")
	pw, err := term.ReadPassword(int(in.Fd()))
	fmt.Fprintln(cmd.ErrOrStderr())
	if err != nil {
		return nil, errors.New("cannot read the password")
	}
	return pw, nil
}

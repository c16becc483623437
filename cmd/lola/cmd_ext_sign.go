package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/sigverify"
)

func init() { extCommands = append(extCommands, newExtSignCmd) }

// extSignMaxArtifact bounds what ext sign reads.
const extSignMaxArtifact = 512 << 20

func newExtSignCmd() *cobra.Command {
	var key string
	c := &cobra.Command{
		Use:   "sign --key KEY ARTIFACT",
		Short: "Sign an artifact: write ARTIFACT.sigstore.json, a key-based Sigstore bundle",
		Long: `Sign ARTIFACT with the private key KEY and write the Sigstore bundle ARTIFACT.sigstore.json beside it, as 'cosign
sign-blob --key' does (without a transparency log upload: verification is
offline). The public key to trust, in config.yaml's trust.keys, is printed.

KEY is an ECDSA P-256 private key: unencrypted PEM (PKCS #8 or SEC 1), or
the encrypted cosign.key 'cosign generate-key-pair' writes. A cosign key's
password is read from $COSIGN_PASSWORD, as cosign reads it, or asked for at
the terminal (not echoed).

Exit status: 0 signed; 2 the key or artifact cannot be read, or a cosign
key's password is wrong or not given.`,
		Example: `  # Make a key (once), sign, and trust it
  openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out author.key
  lola ext sign --key author.key dist/my-target

  # With a key cosign made
  COSIGN_PASSWORD=... lola ext sign --key cosign.key dist/my-target`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: --key is required"))
			}
			kb, err := os.ReadFile(key)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: cannot read --key"))
			}
			k, err := sigverify.ParsePrivateKeyWithPassword(kb, func() ([]byte, error) { return extSignPassword(cmd) })
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: --key: %w", err))
			}
			fi, err := os.Stat(args[0])
			if err != nil || !fi.Mode().IsRegular() || fi.Size() > extSignMaxArtifact {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: %s is not a regular file of at most %d bytes", shownText(args[0]), extSignMaxArtifact))
			}
			art, err := os.ReadFile(args[0])
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext sign: cannot read %s", shownText(args[0])))
			}
			b, err := sigverify.Sign(k, art)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext sign: %w", err))
			}
			out := args[0] + extension.BundleSuffix
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("ext sign: cannot write %s", shownText(out)))
			}
			pub, _ := sigverify.PublicKeyPEM(k)
			sum := sha256.Sum256(art)
			fmt.Fprintf(cmd.OutOrStdout(), "signed %s (sha256:%s)\nwrote %s\ntrust this public key (config.yaml trust.keys):\n%s",
				shownText(args[0]), hex.EncodeToString(sum[:]), shownText(out), pub)
			return nil
		},
	}
	c.Flags().StringVar(&key, "key", "", "PEM ECDSA P-256 private key")
	return c
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

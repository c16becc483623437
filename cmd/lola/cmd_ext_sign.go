package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/signature"
)

func init() { extCommands = append(extCommands, newExtSignCmd) }

// extSignMaxArtifact bounds what ext sign reads.
const extSignMaxArtifact = 512 << 20

func newExtSignCmd() *cobra.Command {
	var key string
	c := &cobra.Command{
		Use:   "sign --key KEY ARTIFACT",
		Short: "Sign an artifact: write ARTIFACT.sigstore.json, a key-based Sigstore bundle",
		Long: `Sign ARTIFACT with the private key KEY (an unencrypted PEM ECDSA P-256 key)
and write the Sigstore bundle ARTIFACT.sigstore.json beside it, as 'cosign
sign-blob --key' does (without a transparency log upload: verification is
offline). The public key to trust, in config.yaml's trust.keys, is printed.

Exit status: 0 signed; 2 the key or artifact cannot be read.`,
		Example: `  # Make a key (once), sign, and trust it
  openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out author.key
  lola ext sign --key author.key dist/my-target`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return withCode(exitUsage, fmt.Errorf("ext sign: --key is required"))
			}
			kb, err := os.ReadFile(key)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext sign: cannot read --key"))
			}
			k, err := signature.ParsePrivateKey(kb)
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext sign: --key: %w", err))
			}
			fi, err := os.Stat(args[0])
			if err != nil || !fi.Mode().IsRegular() || fi.Size() > extSignMaxArtifact {
				return withCode(exitUsage, fmt.Errorf("ext sign: %s is not a regular file of at most %d bytes", extRunEscape(args[0]), extSignMaxArtifact))
			}
			art, err := os.ReadFile(args[0])
			if err != nil {
				return withCode(exitUsage, fmt.Errorf("ext sign: cannot read %s", extRunEscape(args[0])))
			}
			b, err := signature.Sign(k, art)
			if err != nil {
				return withCode(exitInternal, fmt.Errorf("ext sign: %w", err))
			}
			out := args[0] + extension.BundleSuffix
			if err := os.WriteFile(out, b, 0o644); err != nil {
				return withCode(exitInternal, fmt.Errorf("ext sign: cannot write %s", extRunEscape(out)))
			}
			pub, _ := signature.PublicKeyPEM(k)
			sum := sha256.Sum256(art)
			fmt.Fprintf(cmd.OutOrStdout(), "signed %s (sha256:%s)\nwrote %s\ntrust this public key (config.yaml trust.keys):\n%s",
				extRunEscape(args[0]), hex.EncodeToString(sum[:]), extRunEscape(out), pub)
			return nil
		},
	}
	c.Flags().StringVar(&key, "key", "", "PEM ECDSA P-256 private key")
	return c
}

package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/module"
)

func init() { extCommands = append(extCommands, newExtPackCmd) }

func newExtPackCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "pack [-o FILE] [DIR]",
		Short: "Pack an extension's manifest and built artifacts into a release .tar.gz",
		Long: `Write the extension in DIR (default ".") as a .tar.gz that 'lola ext add'
installs, from a file or an https URL: exactly the manifest
(lola-extension.yaml, checked strictly), each artifact it declares that is
built, and the <artifact>.sigstore.json beside each ('lola ext sign'). The
rest of DIR (sources, target/, node_modules/, dist/'s other files) is
never read. What the archive holds is read under the same rules as 'lola
ext add' reads a directory: a named file that is a symbolic link, or lies
under one, is refused (path.symlink), as is one over the intake's bounds
(module.file-bytes).

The archive is reproducible: regular files only, in path order, at its
top, owned by 0, dated 1970-01-01, mode 0755 for the tier-2 artifact and
0644 for the rest, gzip without name or time. The same files give the same
bytes on any machine, whatever their times, owners or modes.

FILE (default NAME-VERSION.tar.gz in the working directory, from the
manifest) must end in .tar.gz or .tgz; it is written whole or not at all.
Sign before packing: a native (tier-2) artifact without a bundle is packed
with a warning, and 'lola ext add' refuses it unless its key is trusted
(or --allow-unsigned).

Exit status: 0 packed; 2 DIR is not a built extension (no manifest, a
manifest key misspelt, nothing built) or FILE cannot be written; 3 a rule
or bound refused a named file.`,
		Example: `  # Build, sign the native artifact, pack: my-target-0.1.0.tar.gz
  lola ext build --tier both .
  lola ext sign --key author.key dist/my-target
  lola ext pack .

  # Into a release directory, then install the archive
  lola ext pack -o release/my-target.tar.gz ./my-target
  lola ext add release/my-target.tar.gz`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			rep, wrote, err := extension.PackFile(dir, out, module.DefaultBounds())
			if err != nil {
				return exitcode.Wrap(exitcode.ForExtAdd(err), fmt.Errorf("ext pack: %w", err))
			}
			w, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			fmt.Fprintf(w, "packed %s %s into %s:\n", shown(rep.Name), shown(rep.Version), shownText(wrote))
			for _, f := range rep.Files {
				fmt.Fprintf(w, "  %s %s (%d bytes)\n", f.Mode, shownText(f.Path), f.Size)
			}
			for _, t := range rep.Missing {
				fmt.Fprintf(errOut, "lola: warning: the %s artifact is not built and was not packed (lola ext build --tier %s)\n", t, strings.TrimPrefix(string(t), "tier"))
			}
			for _, t := range rep.Unsigned {
				fmt.Fprintf(errOut, "lola: warning: the %s (native) artifact has no %s bundle: lola ext add refuses it unless signed by a trusted key (lola ext sign) or --allow-unsigned\n", t, extension.BundleSuffix)
			}
			return nil
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "the archive to write (default NAME-VERSION.tar.gz); .tar.gz or .tgz")
	return c
}

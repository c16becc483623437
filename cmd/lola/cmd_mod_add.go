package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
)

func init() { modCommands = append(modCommands, newModAddCmd) }

func newModAddCmd() *cobra.Command {
	var name, ref, content string
	var force, asJSON bool
	c := &cobra.Command{
		Use:   "add SOURCE [--name NAME] [--force] [--ref REF] [--module-content DIR] [--json]",
		Short: "Add a module from a folder, a .zip, a .tar/.tar.gz/.tgz (local or https) or a git URL",
		Long: `Add a module to the store ($LOLA_HOME/modules/NAME).

SOURCE is one of:
  a local folder          copied (symbolic links as below; special files refused)
  a .zip file             unpacked by lola
  a .tar, .tar.gz, .tgz   unpacked by lola
  https://.../x.zip, .tar, .tar.gz or .tgz   an archive, fetched over https
                          by lola's remote executor, then unpacked by lola
  https://... or ssh://...  or user@host:path   a git repository, cloned by
                          lola's remote executor
The remote executor applies config.yaml's remote policy (destination
checks, pinned dialing, TLS or known_hosts verification, byte and time
bounds); http:// is refused (remote.scheme).

Every file and archive entry must pass the plan path rules: no absolute
paths, no "..", no names Windows cannot hold, no hard links, no devices, no
duplicates and no two names equal under Windows or macOS case folding.
A symbolic link is stored as a copy of what it points to (a file, or a
whole folder) when that lies inside SOURCE: the folder, the whole git
repository, the archive's top. A link that is absolute, climbs out of
SOURCE, dangles, loops or crosses a mount is refused, naming the link and
its target; a plugin folder whose scripts link into its repository is
added from the repository: lola mod add REPO --module-content plugins/NAME.
Sizes are bounded, links' copies included: 2000 entries, 8 MiB per file,
64 MiB in all, 1024 bytes per path. The source is staged in full and checked before it is
renamed into the store: a refused add leaves the store as it was. An
archive whose entries all lie in one top-level folder is unwrapped.

The module's content is module/ when SOURCE has that folder, else its
root; --module-content DIR (or --content-path DIR) takes DIR inside SOURCE
as it is, and '/' (or '.') the root even where a module/ folder is: the
whole SOURCE is then stored, as today's Lola stores it. The choice is
recorded, in the module's .lola/source.yml as today's Lola writes it
(which install hooks may read) and in $LOLA_HOME/sources: lola mod update
reads the new content the same way.

NAME defaults to the source's base name without .git or the archive
extension, lower-cased; a folder or archive whose content lies in module/
(skills/ or commands/ there) is named "module", after that folder, as
today's Lola names it (give --name to choose). It must match
^[a-z0-9][a-z0-9._-]{0,62}$.
An existing module is not replaced unless --force (then atomically).

Exit status: 0 added; 2 bad name, existing module or unsupported source;
3 refused input (the rule or limit is named; nothing stored); 1 otherwise.`,
		Example: `  lola mod add ./my-skills
  lola mod add ~/Downloads/skills.zip --name team-skills
  lola mod add ./release.tar.gz --force
  lola mod add https://example.com/releases/skills-1.0.tar.gz
  lola mod add https://github.com/user/my-skills.git --ref v1.0.0
  lola mod add git@github.com:user/my-skills.git
  lola mod add https://github.com/org/monorepo.git --module-content packages/skills`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := module.ParseSource(args[0])
			if err != nil {
				return exitcode.Wrap(exitcode.ForSource(err), err)
			}
			o := module.AddOptions{Force: force, Bounds: module.DefaultBounds(), Ref: ref, Content: content}
			if name != "" {
				if o.Name, err = modParseName(name); err != nil {
					return err
				}
			}
			if strings.HasPrefix(ref, "-") {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("invalid ref %q: a ref cannot start with '-'", ref))
			}
			if ref != "" && src.Kind() != module.SourceGit {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--ref applies to git sources only"))
			}
			s, home, err := modStore()
			if err != nil {
				return err
			}
			r := &remoteOnDemand{home: home}
			if !asJSON {
				r.announce = cmd.ErrOrStderr()
			}
			o.Cloner, o.Fetcher = r, r
			added, err := s.Add(context.Background(), src, o)
			if err != nil {
				return modError(err)
			}
			m := added.Module
			if err := modsource.Write(home, m.Name(), modsource.Of(src, ref, content, added)); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: %s was added, but its source was not recorded (mod update will not find it): %v\n", m.Name(), err)
			}
			if asJSON {
				return jsonOrInternal(cmd.OutOrStdout(), struct {
					modSummary
					Source   string `json:"source"`
					Replaced bool   `json:"replaced"`
					Commit   string `json:"commit,omitempty"`
				}{newModSummary(m.Name().String(), m.Layout()), src.Kind().String(), added.Replaced, commitOf(added)})
			}
			w := cmd.OutOrStdout()
			verb := "Added"
			if added.Replaced {
				verb = "Replaced"
			}
			l := m.Layout()
			fmt.Fprintf(w, "%s %s (from %s) in $LOLA_HOME/%s/%s\n", verb, m.Name(), src.Kind(), module.ModulesDir, m.Name())
			if c := commitOf(added); c != "" {
				fmt.Fprintf(w, "  commit: %s\n", c)
			}
			fmt.Fprintf(w, "  %s, %s, %s\n", countText(len(l.Skills), "skill"), countText(len(l.Commands), "command"), countText(len(l.Agents), "agent"))
			fmt.Fprintf(w, "Next: lola install %s -a <assistant> [--scope project|user]\n", m.Name())
			return nil
		},
	}
	c.Flags().StringVarP(&name, "name", "n", "", "module name (default: the source's base name)")
	c.Flags().BoolVar(&force, "force", false, "replace an existing module of that name")
	c.Flags().StringVar(&ref, "ref", "", "git only: branch, tag, full ref or 40-hex commit to check out")
	c.Flags().BoolVar(&asJSON, "json", false, "print the added module as JSON")
	c.Flags().StringVar(&content, "module-content", "", "the module's content directory inside SOURCE, as it is (a monorepo's packages/skills); '/' or '.': the root, even where a module/ folder is; default: module/ when present, else the root")
	c.Flags().StringVar(&content, "content-path", "", "same as --module-content")
	return c
}

func commitOf(a *module.Added) string {
	if a.Clone == nil {
		return ""
	}
	return a.Clone.Commit
}

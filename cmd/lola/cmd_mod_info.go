package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
)

func init() { modCommands = append(modCommands, newModInfoCmd) }

func newModInfoCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "info NAME|PATH [--json]",
		Short: "Show a module's skills, commands, agents, instructions and hooks",
		Long: `Show what a module holds: skills with the description from their SKILL.md
frontmatter, commands (with argument hints), agents (with models), whether
it has instructions (AGENTS.md), its MCP servers, the install hooks its
lola.yaml declares and, for a stored module, where it was added from.

NAME is a module in the store. PATH ("." or anything with a '/') is a
module folder read in place, as an author sees it before 'lola mod add';
a bare NAME that is not in the store but is a folder here is read too.

Exit status: 0 shown (also for a folder holding no module, which is said);
1 no such module or path; 2 a bad name.`,
		Example: `  lola mod info my-skills
  lola mod info .
  lola mod info ./path/to/module
  lola mod info my-skills --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, home, err := modStore()
			if err != nil {
				return err
			}
			arg := args[0]
			name, nerr := module.ParseName(arg)
			if modInfoIsPath(arg) || (nerr != nil && modInfoIsDir(arg)) {
				return modInfoPath(cmd, arg, asJSON)
			}
			if nerr != nil {
				return exitcode.Wrap(exitcode.Usage, nerr)
			}
			m, err := s.Get(name)
			if errors.Is(err, module.ErrNotFound) && modInfoIsDir(arg) {
				return modInfoPath(cmd, arg, asJSON)
			}
			if err != nil {
				return modError(err)
			}
			l := m.Layout()
			src, serr := modsource.Read(home, name)
			var source *modsource.Record
			if serr == nil {
				source = &src
			}
			if asJSON {
				return jsonOrInternal(cmd.OutOrStdout(), struct {
					Name string `json:"name"`
					module.Layout
					Source *modsource.Record `json:"source,omitempty"`
				}{m.Name().String(), modNonNil(l), source})
			}
			out := cmd.OutOrStdout()
			modPrintInfo(out, m.Name().String(), l)
			if source != nil {
				fmt.Fprintf(out, "\nSource\n  type: %s\n  location: %s\n", shown(source.Kind), shownText(source.Source))
				if source.Content != "" { // --module-content as given; the store may keep it in module/
					fmt.Fprintf(out, "  content: %s\n", shownText(source.Content))
				}
				if source.Ref != "" {
					fmt.Fprintf(out, "  ref: %s\n", shown(source.Ref))
				}
				if source.Commit != "" {
					fmt.Fprintf(out, "  commit: %s\n", shown(source.Commit))
				}
				if source.Upstream {
					fmt.Fprintf(out, "  recorded in: %s (as today's Lola wrote it)\n", module.SourceInfoFile)
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, `print {"name", "content_dir", "skills", "commands", "agents", "instructions", "mcps", "hooks", "single_skill", "source" or "path"}`)
	return c
}

// modInfoIsPath: "." and anything holding a path separator names a folder.
func modInfoIsPath(arg string) bool {
	return arg == "." || arg == ".." || strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, filepath.Separator)
}

func modInfoIsDir(arg string) bool {
	fi, err := os.Stat(arg)
	return err == nil && fi.IsDir()
}

// modInfoPath shows the module folder at arg, read in place.
func modInfoPath(cmd *cobra.Command, arg string, asJSON bool) error {
	name, l, err := module.InspectDir(arg)
	out := cmd.OutOrStdout()
	switch {
	case errors.Is(err, os.ErrNotExist):
		return exitcode.Wrap(exitcode.ForModule(err), fmt.Errorf("Path not found: %s", shownText(arg)))
	case errors.Is(err, module.ErrNotDir):
		return exitcode.Wrap(exitcode.ForModule(err), fmt.Errorf("Not a directory: %s", shownText(arg)))
	case errors.Is(err, module.ErrNotModule):
		fmt.Fprintf(out, "No skills or commands found in '%s'\n", shownText(arg))
		return nil
	case err != nil:
		return modError(err)
	}
	abs, _ := filepath.Abs(arg)
	if asJSON {
		return jsonOrInternal(out, struct {
			Name string `json:"name"`
			module.Layout
			Path string `json:"path"`
		}{name, modNonNil(l), abs})
	}
	modPrintInfo(out, shown(name), l)
	fmt.Fprintf(out, "\nPath: %s\n", shownText(abs))
	return nil
}

// modNonNil makes empty lists [] rather than null in JSON.
func modNonNil(l module.Layout) module.Layout {
	if l.Skills == nil {
		l.Skills = []module.Skill{}
	}
	if l.Commands == nil {
		l.Commands = []module.Command{}
	}
	if l.Agents == nil {
		l.Agents = []module.Agent{}
	}
	if l.MCPs == nil {
		l.MCPs = []string{}
	}
	return l
}

func modPrintInfo(w io.Writer, name string, l module.Layout) {
	fmt.Fprintln(w, name)
	if l.ContentDir != "" {
		fmt.Fprintf(w, "  content: %s/\n", l.ContentDir)
	}
	section := func(title string, n int) bool {
		fmt.Fprintf(w, "\n%s\n", title)
		if n == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		return n > 0
	}
	described := func(label, desc string) {
		if desc == "" {
			fmt.Fprintf(w, "  %s\n", shown(label))
			return
		}
		fmt.Fprintf(w, "  %s  %s\n", shown(label), shown(desc))
	}
	if section("Skills", len(l.Skills)) {
		for _, s := range l.Skills {
			described(s.Name, s.Description)
		}
	}
	if section("Commands", len(l.Commands)) {
		for _, c := range l.Commands {
			label := "/" + c.Name
			if c.ArgumentHint != "" {
				label += " " + c.ArgumentHint
			}
			described(label, c.Description)
		}
	}
	if section("Agents", len(l.Agents)) {
		for _, a := range l.Agents {
			label := "@" + a.Name
			if a.Model != "" {
				label += " (" + a.Model + ")"
			}
			described(label, a.Description)
		}
	}
	fmt.Fprintln(w)
	if l.Instructions {
		fmt.Fprintln(w, "Instructions: AGENTS.md")
	} else {
		fmt.Fprintln(w, "Instructions: (none)")
	}
	if len(l.MCPs) > 0 {
		fmt.Fprintf(w, "MCP servers: %s\n", shown(strings.Join(l.MCPs, ", ")))
	}
	fmt.Fprintln(w, "\nHooks")
	if l.Hooks.PreInstall == "" && l.Hooks.PostInstall == "" {
		fmt.Fprintln(w, "  (none)")
	}
	if l.Hooks.PreInstall != "" {
		fmt.Fprintf(w, "  pre-install: %s\n", shownText(l.Hooks.PreInstall))
	}
	if l.Hooks.PostInstall != "" {
		fmt.Fprintf(w, "  post-install: %s\n", shownText(l.Hooks.PostInstall))
	}
}

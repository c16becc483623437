package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/lola-pm/lola/schema"
)

// contextReference is the line today's Lola writes for each
// --append-context path instead of the module's instructions.
const contextReference = "Read the module context from `%s`"

// applyAppendContext is `lola install --append-context PATH...`: the
// module's instructions, as handed to the target, become one reference
// line per path ("Read the module context from `PATH`"), so the assistant
// reads the file where the module's relative links resolve. The target
// extension is unchanged: it installs the lines as it would the module's
// AGENTS.md.
//
// Each path is trimmed; empty ones are skipped. A relative path is read
// from the module's root in the store (where today's Lola reads it from
// its copy of the module), an absolute one as given; symbolic links are
// resolved. The reference names the file relative to the project when it
// lies inside it, absolutely otherwise (always for scope user). Lines that
// come out the same are written once.
//
// Guarantees: a path that holds a control character (a newline would
// forge lines, a module's markers among them, in the assistant's file)
// refuses the install with ErrAppendContext before anything runs, naming
// every such path. A path that does not exist is named in a warning and
// the module's instructions are not installed at all (no block, not even
// for the paths found), the rest of the module is, as today's Lola does;
// a reference to a file that is not there would point the assistant at
// nothing. A module without
// instructions gets nothing from the flag (as today's Lola): the paths are
// not checked and a warning says so. When every path is empty the module's
// instructions are not installed (as today's Lola). Non-guarantees: the
// files are not read, only found; a file removed after the install leaves
// a reference to nothing.
func (j *job) applyAppendContext(m *schema.Module) error {
	if len(j.o.AppendContext) == 0 {
		return nil
	}
	if m.Inventory == nil || m.Inventory.Instructions == "" {
		j.o.warn(fmt.Sprintf("--append-context ignored: module %s has no instructions (AGENTS.md)", m.Name))
		return nil
	}
	text, missing, err := contextReferences(j.o.AppendContext, j.mod.Dir(), j.project)
	if err != nil {
		return fmt.Errorf("%w: %v (a relative path is read from the module's root in the store, $LOLA_HOME/modules/%s); nothing was installed", ErrAppendContext, err, m.Name)
	}
	if len(missing) > 0 {
		j.o.warn(fmt.Sprintf("--append-context: no such file: %s (a relative path is read from the module's root in the store, $LOLA_HOME/modules/%s); %s's instructions are not installed", strings.Join(missing, ", "), m.Name, m.Name))
		text = ""
	}
	for i := range m.Files {
		if m.Files[i].Path == m.Inventory.Instructions {
			m.Files[i].Content, m.Files[i].Encoding = text, ""
		}
	}
	if text == "" {
		m.Inventory.Instructions = ""
	}
	j.instructions = []byte(text)
	j.contextApplied = true
	return nil
}

// contextReferences is the reference lines for the given paths, joined
// by "\n", and the paths that do not exist; the error names every path
// refused for a control character.
func contextReferences(given []string, moduleDir, project string) (string, []string, error) {
	root := ""
	if project != "" {
		root = project
		if r, err := filepath.EvalSymlinks(project); err == nil {
			root = r
		}
	}
	var refs, missing, unsafe []string
	seen := map[string]bool{}
	for _, g := range given {
		p := strings.TrimSpace(g)
		if p == "" {
			continue
		}
		if strings.IndexFunc(p, unicode.IsControl) >= 0 {
			unsafe = append(unsafe, strconv.Quote(p))
			continue
		}
		file := p
		if !filepath.IsAbs(file) {
			// Not filepath.Join: its lexical cleaning would take "link/.."
			// differently from the filesystem, which EvalSymlinks follows.
			file = moduleDir + string(filepath.Separator) + p
		}
		resolved, err := filepath.EvalSymlinks(file)
		if err == nil {
			resolved, err = filepath.Abs(resolved)
		}
		if err == nil {
			_, err = os.Stat(resolved)
		}
		if err != nil {
			missing = append(missing, p)
			continue
		}
		shown := resolved
		if root != "" {
			if rel, err := filepath.Rel(root, resolved); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				shown = filepath.ToSlash(rel)
			}
		}
		if strings.IndexFunc(shown, unicode.IsControl) >= 0 {
			// A symbolic link may lead to a name the user never typed.
			unsafe = append(unsafe, strconv.Quote(p)+" (resolved to "+strconv.Quote(shown)+")")
			continue
		}
		ref := fmt.Sprintf(contextReference, shown)
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	if len(unsafe) > 0 {
		return "", missing, fmt.Errorf("path holds a control character: %s", strings.Join(unsafe, ", "))
	}
	return strings.Join(refs, "\n"), missing, nil
}

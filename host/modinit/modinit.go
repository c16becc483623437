// Package modinit scaffolds a new module folder for an author to fill in:
// a README.md at the root and, under module/, skills/, commands/, agents/,
// an example skill, command and agent, mcps.json and AGENTS.md, each
// optional. The layout is the one today's Lola's `mod init` creates, so a
// scaffolded module is added by either.
//
// Guarantees:
//   - Nothing that exists is changed: without Existing, a directory that
//     already exists is refused (ErrExists) and nothing is written; with
//     Existing, the scaffold fills in only the files that are absent and
//     reports the ones it left alone (Skipped). No file is ever removed or
//     overwritten.
//   - Every write stays beneath the module directory (through os.Root: a
//     symbolic link pointing outside is refused, not followed).
//   - Names (module, skill, command, agent) must be module names
//     (^[a-z0-9][a-z0-9._-]{0,62}$), so none can climb out or hide.
//
// Non-guarantees: a failure part-way (a full disk) can leave a partial
// scaffold; it is the author's own new folder, and a re-run with Existing
// completes it.
package modinit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/module"
)

// ErrExists: the directory exists and Options.Existing was not set.
var ErrExists = errors.New("already exists")

// Options says what to scaffold. An empty Skill, Command or Agent creates
// none of that kind (its directory is still created).
type Options struct {
	Skill, Command, Agent  string
	NoMCPs, NoInstructions bool
	Existing               bool // fill in an existing directory (never overwriting)
}

// Result reports a scaffold.
type Result struct {
	Name    string   // the module's name (the directory's base name)
	Dir     string   // absolute
	Created []string // slash paths relative to Dir, in creation order
	Skipped []string // files that existed and were left as they were
}

// Init scaffolds the module dir (created, with parents, unless it exists).
// The module's name is dir's base name.
func Init(dir string, o Options) (Result, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Result{}, err
	}
	name := filepath.Base(abs)
	if _, err := module.ParseName(name); err != nil {
		return Result{}, err
	}
	for _, n := range []string{o.Skill, o.Command, o.Agent} {
		if n == "" {
			continue
		}
		if _, err := module.ParseName(n); err != nil {
			return Result{}, err
		}
	}
	r := Result{Name: name, Dir: abs}
	if _, err := os.Lstat(abs); err == nil {
		if !o.Existing {
			return r, fmt.Errorf("directory %s: %w", abs, ErrExists)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return r, err
	} else {
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return r, err
		}
		if err := os.Mkdir(abs, 0o755); err != nil {
			if errors.Is(err, fs.ErrExist) && !o.Existing {
				return r, fmt.Errorf("directory %s: %w", abs, ErrExists)
			}
			return r, err
		}
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return r, err
	}
	defer root.Close()
	for _, f := range files(name, o) {
		if f.dir {
			if err := root.Mkdir(f.path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return r, fmt.Errorf("%s: %w", f.path, err)
			}
			continue
		}
		w, err := root.OpenFile(f.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			r.Skipped = append(r.Skipped, f.path)
			continue
		}
		if err != nil {
			return r, fmt.Errorf("%s: %w", f.path, err)
		}
		_, werr := w.WriteString(f.body)
		if cerr := w.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return r, fmt.Errorf("%s: %w", f.path, werr)
		}
		r.Created = append(r.Created, f.path)
	}
	return r, nil
}

type file struct {
	path string
	dir  bool
	body string
}

func files(name string, o Options) []file {
	fs := []file{
		{path: "module", dir: true},
		{path: "module/skills", dir: true},
		{path: "module/commands", dir: true},
		{path: "module/agents", dir: true},
	}
	if o.Skill != "" {
		fs = append(fs, file{path: path.Join("module/skills", o.Skill), dir: true},
			file{path: path.Join("module/skills", o.Skill, "SKILL.md"), body: skillBody(o.Skill)})
	}
	if o.Command != "" {
		fs = append(fs, file{path: path.Join("module/commands", o.Command+".md"), body: commandBody})
	}
	if o.Agent != "" {
		fs = append(fs, file{path: path.Join("module/agents", o.Agent+".md"), body: agentBody(o.Agent)})
	}
	if !o.NoMCPs {
		fs = append(fs, file{path: "module/mcps.json", body: mcpsBody})
	}
	if !o.NoInstructions {
		fs = append(fs, file{path: "module/AGENTS.md", body: instructionsBody(name, o)})
	}
	return append(fs, file{path: "README.md", body: readmeBody(name)})
}

// Title turns "code-review" into "Code Review".
func Title(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

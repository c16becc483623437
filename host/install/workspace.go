package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// OpenClawWorkspace resolves `lola install -a openclaw --workspace W` to
// the directory that is the install's root, as today's Lola does: no W is
// <userHome>/.openclaw/workspace; a W holding a path separator ("/" or
// "\") is that path, a leading "~/" meaning userHome, made absolute; any
// other W names <userHome>/.openclaw/workspace-W. The directory is created
// (0755, with its parents) when missing, as today's Lola creates it, so a
// first install into a new workspace works; nothing else is created.
func OpenClawWorkspace(userHome, w string) (string, error) {
	var dir string
	switch {
	case w == "":
		dir = filepath.Join(userHome, ".openclaw", "workspace")
	case strings.ContainsAny(w, `/\`):
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			w = filepath.Join(userHome, rest)
		}
		abs, err := filepath.Abs(w)
		if err != nil {
			return "", fmt.Errorf("%w: --workspace: %v", ErrUsage, err)
		}
		dir = abs
	case w == "." || w == "..":
		return "", fmt.Errorf("%w: --workspace %q is neither a workspace name nor a path", ErrUsage, w)
	default:
		dir = filepath.Join(userHome, ".openclaw", "workspace-"+w)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%w: --workspace: %v", ErrUsage, err)
	}
	return dir, nil
}

// OpenClawRoot makes an OpenClaw project-scope install's root (o.Project)
// its workspace, as today's Lola does: workspace (--workspace, a name or
// a path; OpenClawWorkspace), or <home>/.openclaw/workspace when neither
// it nor a PROJECT argument (hasProject) is given. workspace is refused
// with another assistant, for scope user, and together with PROJECT. Every
// refusal is ErrUsage; o is unchanged for any other assistant.
func OpenClawRoot(o *Options, assistant, workspace string, hasProject bool) error {
	switch {
	case workspace != "" && assistant != "openclaw":
		return flagError("--workspace is only valid with -a openclaw")
	case assistant != "openclaw" || o.Scope != schema.ScopeProject:
		if workspace != "" {
			return flagError("--workspace is for --scope project")
		}
		return nil
	case hasProject && workspace != "":
		return flagError("give PROJECT or --workspace, not both")
	case hasProject:
		return nil
	}
	home := o.UserHome
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return flagError(fmt.Sprintf("--workspace needs a home directory: %v", err))
		}
		home = h
	}
	dir, err := OpenClawWorkspace(home, workspace)
	if err != nil {
		return err
	}
	o.Project = dir
	return nil
}

// flagError is an ErrUsage worded as the flag's own complaint, without
// ErrUsage's prefix.
type flagError string

func (e flagError) Error() string        { return string(e) }
func (e flagError) Is(target error) bool { return target == ErrUsage }

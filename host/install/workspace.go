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

// OpenClawRoot makes an explicit `-a openclaw` project-scope install's
// root (o.Project) its workspace, as today's Lola does: workspace
// (--workspace, a name or a path; OpenClawWorkspace), else
// <home>/.openclaw/workspace. A PROJECT argument (hasProject) does not
// change that, as it does not for today's Lola, which writes into the
// workspace whatever PROJECT says; o.Warn is told that PROJECT was not
// used and how to install into a folder (--workspace PATH), so the place
// written is never a surprise. workspace is refused with another
// assistant, for scope user, and together with PROJECT (one of them would
// be ignored). Every refusal is ErrUsage; o is unchanged for any other
// assistant.
//
// InstallAll, installing for every assistant, keeps a given PROJECT for
// OpenClaw too (openClawRootForAll), as today's Lola does without -a.
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
	}
	given := o.Project
	if err := openClawWorkspaceRoot(o, workspace); err != nil {
		return err
	}
	if hasProject && given != o.Project {
		o.warn(fmt.Sprintf("-a openclaw installs into its workspace %s, not into %s (as today's Lola does); to install into that folder, give --workspace %s", o.Project, given, workspacePathArg(given)))
	}
	return nil
}

// openClawRootForAll is OpenClawRoot for one of InstallAll's installs:
// a given PROJECT is the root, as today's Lola has it without -a, and
// without one the workspace is.
func openClawRootForAll(o *Options, assistant string, hasProject bool) error {
	if assistant != "openclaw" || o.Scope != schema.ScopeProject || hasProject {
		return nil
	}
	return openClawWorkspaceRoot(o, "")
}

// openClawWorkspaceRoot sets o.Project to the workspace.
func openClawWorkspaceRoot(o *Options, workspace string) error {
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

// workspacePathArg is p as a --workspace value OpenClawWorkspace reads
// as a path (it holds a separator), not as a workspace name.
func workspacePathArg(p string) string {
	if strings.ContainsAny(p, `/\`) {
		return p
	}
	return "./" + p
}

// flagError is an ErrUsage worded as the flag's own complaint, without
// ErrUsage's prefix.
type flagError string

func (e flagError) Error() string        { return string(e) }
func (e flagError) Is(target error) bool { return target == ErrUsage }

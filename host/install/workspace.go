package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

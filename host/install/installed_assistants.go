package install

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/schema"
)

// InstalledAssistants lists, in installed.yml's order, the assistants the
// registry records for o.Module in o's scope and, for project scope, in
// o's project directory ("" is the working directory). It is what an
// uninstall without an assistant acts on. None is ErrNotInstalled; a
// project directory that is not one is ErrUsage; an unreadable
// installed.yml is returned as is. It reads only; it decides nothing
// about confirmation, which is the caller's.
func InstalledAssistants(o Options) ([]string, error) {
	reg, err := ReadRegistry(o.Home)
	if err != nil {
		return nil, err
	}
	scope := o.Scope
	if scope == "" {
		scope = schema.ScopeProject
	}
	project := ""
	if scope != schema.ScopeUser {
		var err error
		if project, err = ProjectDir(o.Project); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, r := range reg.Find(o.Module, "", string(scope), "") {
		if r.ProjectPath == project {
			out = append(out, r.Assistant)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s is not installed in this %s scope", ErrNotInstalled, o.Module, scope)
	}
	return out, nil
}

// ProjectDir is dir ("" is the working directory) made absolute, once it
// is an existing directory; otherwise ErrUsage.
func ProjectDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%w: project directory: %v", ErrUsage, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%w: the project directory does not exist or is not a directory", ErrUsage)
	}
	return abs, nil
}

package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/pathrule"
)

// Script is a hook script that resolved inside its module: only Resolve
// constructs one.
type Script struct {
	point Point
	rel   string // as declared, module-relative
	abs   string // resolved, inside the module
}

// Point is when the script runs.
func (s Script) Point() Point { return s.point }

// Path is the script's module-relative path as declared.
func (s Script) Path() string { return s.rel }

// Resolve checks that script, relative to contentDir (a module's content
// directory, inside moduleDir), names a regular file inside moduleDir: the
// path must pass the plan path vocabulary (no absolute path, no ".."), and
// after resolving every symlink it must still lie inside the module. Errors
// name the script as declared, never a host absolute path.
func Resolve(p Point, moduleDir, contentDir, script string) (Script, error) {
	if _, err := pathrule.Parse(script); err != nil {
		return Script{}, fmt.Errorf("%s script %q: %w", p, script, err)
	}
	mod, err := filepath.EvalSymlinks(moduleDir)
	if err != nil {
		return Script{}, fmt.Errorf("%s: module directory: %w", p, cause(err))
	}
	content, err := filepath.EvalSymlinks(contentDir)
	if err != nil {
		return Script{}, fmt.Errorf("%s: module content directory: %w", p, cause(err))
	}
	if !within(mod, content) {
		return Script{}, fmt.Errorf("%s: the module's content directory lies outside the module", p)
	}
	full, err := filepath.EvalSymlinks(filepath.Join(content, filepath.FromSlash(script)))
	if errors.Is(err, os.ErrNotExist) {
		return Script{}, fmt.Errorf("%s script not found: %s", p, script)
	}
	if err != nil {
		return Script{}, fmt.Errorf("%s script %s: %w", p, script, cause(err))
	}
	if !within(mod, full) {
		return Script{}, fmt.Errorf("%s script outside module directory: %s", p, script)
	}
	st, err := os.Stat(full)
	if err != nil {
		return Script{}, fmt.Errorf("%s script %s: %w", p, script, cause(err))
	}
	if !st.Mode().IsRegular() {
		return Script{}, fmt.Errorf("%s script %s is not a regular file", p, script)
	}
	return Script{point: p, rel: script, abs: full}, nil
}

func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// cause is err without the host path an *fs.PathError carries.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

package extension

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Targets lists, by name, the assistant target extensions lola knows
// under home (built in or installed): what `lola install` without -a and
// `lola sync` without an assistant install for, as today's Lola installs
// for every assistant when none is chosen.
func Targets(home string) ([]string, error) {
	cat, err := Discover(home)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range cat.Extensions() {
		if e.Kind() == KindTarget {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// implicitExclude are targets left out when the user names none: as in
// today's Lola, copilot-cli and copilot-vscode write the same project
// files, so the implicit set keeps only the finer-grained copilot-vscode.
var implicitExclude = map[string]bool{"copilot-cli": true}

// DefaultTargets is Targets without the ones today's Lola leaves out of an
// install that names no assistant (copilot-cli).
func DefaultTargets(home string) ([]string, error) {
	all, err := Targets(home)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range all {
		if !implicitExclude[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// ErrNotTarget: a name given as an assistant is not a target extension
// lola knows.
var ErrNotTarget = errors.New("not an assistant target lola knows")

// ShippedTargets are the assistant targets lola ships (built in beside
// the executable by make build): today's Lola's seven assistants.
var ShippedTargets = []string{"claude-code", "copilot-cli", "copilot-vscode", "cursor", "gemini-cli", "openclaw", "opencode"}

// CheckTarget returns nil when name is an assistant lola ships
// (ShippedTargets) or a target extension it knows under home, and
// otherwise an error wrapping ErrNotTarget that lists them (for the CLI's
// usage error). A shipped name whose files are missing passes here; the
// install reports it.
func CheckTarget(home, name string) error {
	all, err := Targets(home)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, n := range append(append([]string(nil), ShippedTargets...), all...) {
		known[n] = true
	}
	if known[name] {
		return nil
	}
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Errorf("%w: %q is not one of %s", ErrNotTarget, name, strings.Join(names, ", "))
}

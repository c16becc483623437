package extension

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

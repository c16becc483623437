package main

// How the built-in assistant targets reach lola.
//
// The targets (claude-code, copilot-cli, copilot-vscode, cursor, gemini-cli,
// openclaw, opencode) are ordinary extensions under examples/. `make build`
// (scripts/build-examples.sh) builds each for both tiers into
// examples/<name>/dist/; then, for each, its manifest and its tier-1
// artifact only (built-ins run confined: the manifest's tier 2 is absent,
// so the host can only pick tier 1) are
//
//   - embedded in lola: copied into cmd/lola/builtins/<name>/
//     (scripts/embed-builtins.sh), committed, and compiled in
//     (builtin_embedded.go), so a lola built by `go install` or unpacked
//     from a release archive alone has them. A test fails when the copy is
//     not the examples' build, and `make test` fails when a build from
//     source does not reproduce the committed bytes; or
//   - for a target whose tier-1 module is too large to carry in the source
//     (scripts/build-examples.sh says which), installed beside the binary
//     in bin/builtin/<name>/.
//
// Order: at startup lola registers every directory of builtin/ beside its
// own executable (symlinks to the executable resolved first) through
// extension.RegisterBuiltinDir, then every embedded built-in of another
// name through extension.RegisterBuiltin. A builtin/ directory therefore
// overrides the embedded copy of its name: that is for development and
// packagers only. Either way `lola ext ls` lists them with source
// "builtin" and tier "tier1", a $LOLA_HOME extension of the same name can
// never shadow one, and its manifest is loaded strictly.
//
// An embedded module has no host path. The shim takes its module by path,
// so the install writes the embedded bytes to a private file and holds
// the shim to their digest (pipeline.Launch.Expect): bytes swapped on disk
// never yield a plan. Nothing on disk is trusted for an embedded built-in.
//
// Registration happens once per process, when run starts a command other
// than the hidden shim (which must touch nothing before it confines
// itself); tests call registerBuiltinsIn and registerEmbeddedBuiltins on
// trees of their own. An entry of builtin/ that cannot be a built-in (a
// file, a symlink, a name outside the extension name vocabulary, a name
// already registered) is reported on stderr, never skipped silently; a
// broken manifest inside a registered directory or embedded tree is a
// Problem that `lola ext ls` reports.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lola-pm/lola/host/extension"
)

// builtinDirName is the directory beside the lola executable holding one
// directory per built-in extension.
const builtinDirName = "builtin"

var builtinsOnce sync.Once

// registerBuiltinsOnce registers the executable's built-ins the first time
// it is called; in-process tests call run many times.
func registerBuiltinsOnce(warn io.Writer) {
	builtinsOnce.Do(func() { registerExecutableBuiltins(warn) })
}

// registerExecutableBuiltins registers the built-ins installed beside the
// running executable. A lola without a builtin/ directory (go run, go
// install) has no built-ins; that is not an error.
func registerExecutableBuiltins(warn io.Writer) {
	exe, err := os.Executable()
	if err != nil {
		if registerEmbedded {
			if _, err := registerEmbeddedBuiltins(embeddedBuiltinsFS(), extension.BuiltinNames(), extension.RegisterBuiltin); err != nil {
				fmt.Fprintf(warn, "lola: warning: %v\n", err)
			}
		}
		return
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	_, skipped, err := registerBuiltinsIn(filepath.Join(filepath.Dir(exe), builtinDirName), extension.BuiltinNames(), extension.RegisterBuiltinDir)
	if err != nil {
		fmt.Fprintf(warn, "lola: warning: cannot read the built-in extensions directory: %v\n", err)
	}
	for _, s := range skipped {
		fmt.Fprintf(warn, "lola: warning: %s\n", s)
	}
	if !registerEmbedded {
		return
	}
	if _, err := registerEmbeddedBuiltins(embeddedBuiltinsFS(), extension.BuiltinNames(), extension.RegisterBuiltin); err != nil {
		fmt.Fprintf(warn, "lola: warning: %v\n", err)
	}
}

// registerBuiltinsIn calls register(name, dir/name) for every directory of
// dir whose name is an extension name and not in registered (the names
// already registered: extension.BuiltinNames), in name order, and returns the names
// registered. Entries beginning with "." are ignored; every other entry that
// cannot be registered is returned in skipped with the reason (never a host
// path: "builtin/<entry>: ..."). A missing dir registers nothing and is not
// an error; an unreadable one is.
func registerBuiltinsIn(dir string, registered []string, register func(name, dir string)) (names, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, errors.New(builtinDirName + "/ is not a readable directory")
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, ent := range entries {
		name := ent.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		skip := func(why string) {
			skipped = append(skipped, fmt.Sprintf("%s/%q: %s; not registered", builtinDirName, name, why))
		}
		switch {
		case ent.Type()&fs.ModeSymlink != 0:
			skip("is a symbolic link; a built-in must be a directory")
		case !ent.IsDir():
			skip("is not a directory")
		case !extension.ValidName(name):
			skip("is not an extension name (^[a-z][a-z0-9-]{0,62}$)")
		case slices.Contains(registered, name):
			skip("a built-in of that name is already registered")
		default:
			register(name, filepath.Join(dir, name))
			names = append(names, name)
		}
	}
	return names, skipped, nil
}

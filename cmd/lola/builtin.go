package main

// How the built-in assistant targets reach lola.
//
// The targets (claude-code, copilot-cli, copilot-vscode, cursor, gemini-cli,
// openclaw, opencode) are ordinary
// extensions under examples/, in Go, Rust and AssemblyScript. They are not
// embedded in the binary: `make build` (scripts/build-examples.sh) builds
// each one for both tiers into examples/<name>/dist/, then installs, for
// each, its manifest and its tier-1 artifact only into
//
//	bin/builtin/<name>/lola-extension.yaml
//	bin/builtin/<name>/dist/<name>.wasm
//
// next to bin/lola. At startup lola registers every directory of
// builtin/ beside its own executable (symlinks to the executable resolved
// first, so a lola linked from a PATH directory still finds the files it was
// built with) through extension.RegisterBuiltinDir, so `lola ext ls` lists
// them with source "builtin" and tier "tier1". Why this shape:
//   - Built-ins run confined. Only the tier-1 artifact is shipped; the
//     manifest still declares tier 2, which is absent, so the host can only
//     ever pick tier 1 for a built-in.
//   - The shim (`lola __extension-host --module PATH`) takes a module by
//     path; an embedded fs.FS has none, a directory does (Artifact.HostPath).
//   - Go cannot embed files built after it (the cmd module would depend on
//     three toolchains and on its own output), and a directory beside the
//     binary can be inspected, diffed and replaced by packagers.
//   - A built-in directory is loaded exactly as an installed extension is
//     (strict manifest, artifacts resolved beneath it through os.Root), and
//     a $LOLA_HOME extension of the same name can never shadow it.
//
// Registration happens once per process, when run starts a command other
// than the hidden shim (which must touch nothing before it confines
// itself); tests call registerBuiltinsIn on a directory of their own, and a
// test binary has no builtin/ beside it. An entry of builtin/ that
// cannot be a built-in (a file, a symlink, a name outside the extension
// name vocabulary, a name already registered) is reported on stderr, never
// skipped silently; a broken manifest inside a registered directory is a
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

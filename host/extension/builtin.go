package extension

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"sync"
)

var builtins struct {
	sync.Mutex
	byName map[string]builtin
}

// builtin is one registration: files in an fs.FS (embedded; no host path),
// or a host directory (artifacts with a HostPath the shim and exec need).
type builtin struct {
	fsys fs.FS
	dir  string
}

// RegisterBuiltin makes the extension in fsys part of every Catalog, as a
// built-in: fsys holds lola-extension.yaml at its top and the artifacts it
// names (typically an embed.FS subtree). Call it from an init function of
// the binary. name must be the manifest's name; the manifest is loaded, and
// a mismatch or a broken manifest reported, by Discover.
//
//	//go:embed builtin/claude-code
//	var claudeCode embed.FS
//	func init() { extension.RegisterBuiltin("claude-code", must(fs.Sub(claudeCode, "builtin/claude-code"))) }
//
// It panics on an invalid name, a nil fsys or a second registration of one
// name, as database/sql.Register does: those are programming errors.
//
// An extension registered this way has no host path: Artifact.HostPath is
// "" and its bytes come from OpenArtifact. Use RegisterBuiltinDir for files
// installed next to the binary, which the shim (--module) and exec need by
// path.
func RegisterBuiltin(name string, fsys fs.FS) {
	if fsys == nil {
		panic("extension: RegisterBuiltin of " + name + " with nil files")
	}
	register("RegisterBuiltin", name, builtin{fsys: fsys})
}

// RegisterBuiltinDir makes the extension in the host directory dir part of
// every Catalog, as a built-in. Discover loads it as it loads an installed
// extension (the manifest decoded strictly, each artifact resolved beneath
// dir through os.Root, a symlink leaving dir refusing it), so its artifacts
// carry a HostPath; its Source is SourceBuiltin and its Dir is dir. dir
// should be absolute: it is resolved once, here. The manifest name must
// equal name, or Discover reports a Problem.
//
// It panics on an invalid name, an empty dir or a second registration of
// one name: those are programming errors.
func RegisterBuiltinDir(name, dir string) {
	if dir == "" {
		panic("extension: RegisterBuiltinDir of " + name + " with an empty directory")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	register("RegisterBuiltinDir", name, builtin{dir: dir})
}

func register(fn, name string, b builtin) {
	if !ValidName(name) {
		panic(fmt.Sprintf("extension: %s of invalid name %q", fn, name))
	}
	builtins.Lock()
	defer builtins.Unlock()
	if builtins.byName == nil {
		builtins.byName = map[string]builtin{}
	}
	if _, dup := builtins.byName[name]; dup {
		panic("extension: " + fn + " called twice for " + name)
	}
	builtins.byName[name] = b
}

// BuiltinNames lists the registered built-ins, sorted.
func BuiltinNames() []string {
	builtins.Lock()
	defer builtins.Unlock()
	out := make([]string, 0, len(builtins.byName))
	for n := range builtins.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// notBuiltin refuses name when a built-in extension has it.
func notBuiltin(name string) error {
	builtins.Lock()
	_, ok := builtins.byName[name]
	builtins.Unlock()
	if ok {
		return fmt.Errorf("%s %w", quote(name), ErrBuiltinName)
	}
	return nil
}

func builtinOf(name string) builtin {
	builtins.Lock()
	defer builtins.Unlock()
	return builtins.byName[name]
}

// loadBuiltin loads a registered built-in from its files or its directory.
func loadBuiltin(name string) (*Extension, error) {
	b := builtinOf(name)
	if b.dir != "" {
		return loadDir(b.dir, SourceBuiltin)
	}
	return loadFS(b.fsys, SourceBuiltin, "")
}

// unregisterBuiltin is for tests.
func unregisterBuiltin(name string) {
	builtins.Lock()
	defer builtins.Unlock()
	delete(builtins.byName, name)
}

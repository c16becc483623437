package extension

import (
	"fmt"
	"io/fs"
	"sort"
	"sync"
)

var builtins struct {
	sync.Mutex
	byName map[string]fs.FS
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
func RegisterBuiltin(name string, fsys fs.FS) {
	if !ValidName(name) {
		panic(fmt.Sprintf("extension: RegisterBuiltin of invalid name %q", name))
	}
	if fsys == nil {
		panic("extension: RegisterBuiltin of " + name + " with nil files")
	}
	builtins.Lock()
	defer builtins.Unlock()
	if builtins.byName == nil {
		builtins.byName = map[string]fs.FS{}
	}
	if _, dup := builtins.byName[name]; dup {
		panic("extension: RegisterBuiltin called twice for " + name)
	}
	builtins.byName[name] = fsys
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

func builtinFS(name string) fs.FS {
	builtins.Lock()
	defer builtins.Unlock()
	return builtins.byName[name]
}

// unregisterBuiltin is for tests.
func unregisterBuiltin(name string) {
	builtins.Lock()
	defer builtins.Unlock()
	delete(builtins.byName, name)
}

package main

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sort"

	"github.com/lola-pm/lola/host/extension"
)

// embeddedBuiltins holds the built-in targets lola carries inside itself:
// builtins/<name>/lola-extension.yaml and the tier-1 artifact the manifest
// names, nothing else. `make build` regenerates the tree from the
// examples' sources (scripts/embed-builtins.sh) and rebuilds lola; `make
// test` fails when the committed copy is not what a build from source
// produces (TestEmbeddedBuiltinsAreTheBuiltOnes, and the reproduction
// check in the Makefile), so what `go install` compiles in is what the
// sources say.
//
//go:embed builtins
var embeddedBuiltins embed.FS

// embeddedDir is the top of embeddedBuiltins.
const embeddedDir = "builtins"

// registerEmbedded is whether startup registers the embedded built-ins.
// This package's tests run lola in-process, in a test binary that cannot
// serve as a built-in's shim, so a _test.go file turns it off there; the
// tests of the embedded built-ins call registerEmbeddedBuiltins, or run
// the built lola.
var registerEmbedded = true

// registerEmbeddedBuiltins registers every embedded built-in whose name
// is not in registered (a builtin/ directory beside the executable,
// registered first, overrides the embedded copy of its name: that is for
// development, and `make build` makes none). It returns the names
// registered. Bytes of an embedded built-in never come from disk: lola
// writes them to a private file for the shim and holds the shim to their
// digest (host/install, pipeline.Launch.Expect).
func registerEmbeddedBuiltins(fsys fs.FS, registered []string, register func(name string, fsys fs.FS)) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("the embedded built-ins cannot be read: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var names []string
	for _, ent := range entries {
		name := ent.Name()
		if !ent.IsDir() || !extension.ValidName(name) || slices.Contains(registered, name) {
			continue
		}
		sub, err := fs.Sub(fsys, name)
		if err != nil {
			return names, err
		}
		register(name, sub)
		names = append(names, name)
	}
	return names, nil
}

// embeddedBuiltinsFS is embeddedBuiltins below its top directory.
func embeddedBuiltinsFS() fs.FS {
	sub, err := fs.Sub(embeddedBuiltins, embeddedDir)
	if err != nil { // a constant, valid directory name: cannot happen
		panic(err)
	}
	return sub
}

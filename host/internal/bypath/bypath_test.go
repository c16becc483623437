package bypath

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// banned are the os functions that act on a path by name.
var banned = map[string]bool{
	"WriteFile": true, "Remove": true, "RemoveAll": true, "Symlink": true, "Lstat": true,
	"Rename": true, "MkdirAll": true, "Mkdir": true, "Create": true, "CreateTemp": true,
	"MkdirTemp": true, "OpenFile": true, "Chmod": true, "Chtimes": true, "Link": true,
	"Truncate": true,
}

// checked are the package directories (relative to the repository) whose
// code acts on a user's tree.
var checked = []string{"host/install", "host/exttest", "host/reinstall", "host/sync", "cmd/lola"}

// allowed is every by-path call left in those packages: "dir/file.go
// Func os.Call" -> why it is safe. Keep it in step with
// docs/by-path-filesystem.md.
var allowed = map[string]string{
	// LOLA_HOME state, under lola's lock.
	"host/install/installed.go withRegistryLocked os.MkdirAll": "creates LOLA_HOME itself (lola's own state directory, 0700) before taking its lock",
	"host/install/installed.go Registry.Save os.MkdirAll":      "installed.yml's directory under LOLA_HOME; Save is called under the home lock (UpdateRegistry)",
	"host/install/installed.go Registry.Save os.CreateTemp":    "the temporary installed.yml beside the real one under LOLA_HOME, under the home lock",
	"host/install/installed.go Registry.Save os.Remove":        "removes that temporary file on a failed write",
	"host/install/installed.go Registry.Save os.Rename":        "renames the temporary installed.yml over the real one (atomic replace of lola's own state, under the home lock)",
	"host/install/workspace.go OpenClawWorkspace os.MkdirAll":  "creates the install root itself (the OpenClaw workspace the user names, or ~/.openclaw/workspace[-NAME]) before fsroot opens it: the root's own path is the user's to name, as --project is; nothing beneath the root is touched by path",
	// Temporary directories lola creates (0700, random names).
	"host/exttest/run.go holdToRules os.MkdirTemp": "a fresh empty scratch root for the dry run that holds a plan to the rules (nothing is applied in it)",
	"host/exttest/run.go holdToRules os.RemoveAll": "removes that temporary directory (cleanup)",
	// An extension author's own source tree (lola ext new/build): the
	// author runs lola there on their own files, and the toolchains lola
	// starts (go, npm, cargo) write anywhere in it anyway.
	"cmd/lola/cmd_ext_build.go extBuild os.MkdirAll":            "creates the directory the manifest names for a build artifact, in the author's own extension tree",
	"cmd/lola/cmd_ext_new.go extScaffold os.MkdirAll":           "scaffolds a new extension into a directory lola ext new checked was absent or empty",
	"cmd/lola/cmd_ext_new.go extScaffold os.WriteFile":          "writes the template files of that new extension",
	"cmd/lola/ext_build_as_sdk.go extASRefreshSDK os.WriteFile": "rewrites package-lock.json of the author's own AssemblyScript extension (npm rewrites it next anyway)",
	"cmd/lola/ext_build_as_sdk.go extASRefreshSDK os.RemoveAll": "removes node_modules' aside copy of the SDK package, which lola made",
	"cmd/lola/ext_build_as_sdk.go extASRefreshSDK os.Rename":    "moves the SDK package in the author's node_modules aside and back",
	"cmd/lola/ext_sdk_shipped.go extSeedGoSum os.WriteFile":     "seeds go.sum of the Go extension lola ext new just scaffolded into an absent or empty directory (go mod tidy maintains it next)",
}

// A call site found by scan.
type site struct {
	key string
	pos token.Position
}

// scan reports every call of a banned os function in the non-test Go
// files of dir, keyed "rel/file.go Func os.Call" (rel is dir's name in
// the report; Func is Type.Method for a method, or "init" outside any
// function).
func scan(t *testing.T, fset *token.FileSet, dir, rel string) []site {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []site
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scanFile(f, fset, rel+"/"+n)...)
	}
	return out
}

func scanFile(f *ast.File, fset *token.FileSet, name string) []site {
	osNames := map[string]bool{}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "os" {
			name := "os"
			if im.Name != nil {
				name = im.Name.Name
			}
			osNames[name] = true
		}
	}
	if len(osNames) == 0 {
		return nil
	}
	var out []site
	visit := func(fn string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// A reference, called or not (a function value passed on
			// acts by path just the same).
			if id, ok := sel.X.(*ast.Ident); ok && osNames[id.Name] && id.Obj == nil && banned[sel.Sel.Name] {
				out = append(out, site{name + " " + fn + " os." + sel.Sel.Name, fset.Position(sel.Pos())})
			}
			return true
		})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			visit("init", d)
			continue
		}
		fn := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			rt := fd.Recv.List[0].Type
			if s, ok := rt.(*ast.StarExpr); ok {
				rt = s.X
			}
			if ix, ok := rt.(*ast.IndexExpr); ok {
				rt = ix.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				fn = id.Name + "." + fn
			}
		}
		visit(fn, fd)
	}
	return out
}

// TestNoByPathFilesystemCallsOnAUsersTree: the packages that act on a
// user's tree call no by-path os function except at the allow-listed
// sites, each with its reason; an allow-list entry that matches nothing
// is stale and fails too, so the list stays the inventory.
func TestNoByPathFilesystemCallsOnAUsersTree(t *testing.T) {
	repo := filepath.Join("..", "..", "..")
	fset := token.NewFileSet()
	used := map[string]bool{}
	var bad []string
	for _, d := range checked {
		for _, s := range scan(t, fset, filepath.Join(repo, filepath.FromSlash(d)), d) {
			if _, ok := allowed[s.key]; ok {
				used[s.key] = true
				continue
			}
			bad = append(bad, s.pos.String()+": "+s.key)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("by-path filesystem call on a user's tree: %s; act through host/fsroot descriptors, or allow-list it here with why it is safe (and list it in docs/by-path-filesystem.md)", b)
	}
	for k, why := range allowed {
		if strings.TrimSpace(why) == "" {
			t.Errorf("allow-list entry %q has no reason", k)
		}
		if !used[k] {
			t.Errorf("stale allow-list entry %q: no such call any more", k)
		}
	}
}

// TestTheScanFindsByPathCalls: the scan sees a direct call, a call under
// a renamed import and a function value, inside functions, methods and
// package-level declarations, and not a local variable that shadows the
// package or a test file.
func TestTheScanFindsByPathCalls(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import (
	"os"
	xos "os"
)

var del = os.Remove

type T struct{}

func (t *T) M(p string) { _ = xos.WriteFile(p, nil, 0o644) }

func F(p string) {
	_ = os.Symlink("x", p)
	_, _ = os.ReadFile(p)
}

func G() {
	os := struct{ Remove func(string) error }{}
	_ = os.Remove("x")
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nimport \"os\"\n\nvar _ = os.Remove\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range scan(t, token.NewFileSet(), dir, "x") {
		got = append(got, s.key)
	}
	sort.Strings(got)
	want := []string{"x/p.go F os.Symlink", "x/p.go T.M os.WriteFile", "x/p.go init os.Remove"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("found %v, want %v", got, want)
	}
}

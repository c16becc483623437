package durable

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileIsCounted(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := Calls()
	if err := File(f); err != nil {
		t.Fatal(err)
	}
	if Calls() != before+1 {
		t.Fatalf("File counted %d", Calls()-before)
	}
	if d := DeviceOf(f); d.Known() && !d.Same(DeviceOf(f)) {
		t.Fatal("a file is not on its own device")
	}
	if (Device{}).Same(Device{}) {
		t.Fatal("the zero Device covers the zero Device")
	}
}

// flushers are the calls that reach stable storage directly. Every one in
// the host's code must be made here, or Calls undercounts what an apply
// costs.
var flushers = map[string]bool{
	"(*os.File).Sync":                           true,
	"syscall.Fsync":                             true,
	"syscall.Fdatasync":                         true,
	"golang.org/x/sys/unix.Fsync":               true,
	"golang.org/x/sys/unix.Fdatasync":           true,
	"golang.org/x/sys/unix.Syncfs":              true,
	"golang.org/x/sys/unix.Sync":                true,
	"golang.org/x/sys/windows.FlushFileBuffers": true,
}

// TestEveryFlushGoesThroughThisPackage type-checks every package of the
// host module (this platform's files, tests excluded) and fails on a call
// to fsync, fdatasync, syncfs or (*os.File).Sync made anywhere but here.
func TestEveryFlushGoesThroughThisPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the host module")
	}
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{.Module}}\t{{join .GoFiles \" \"}}", "github.com/lola-pm/lola/host/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	type pkg struct {
		path, dir string
		files     []string
	}
	var host []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			continue
		}
		exports[f[0]] = f[1]
		if strings.HasPrefix(f[3], "github.com/lola-pm/lola/host") && f[0] != "github.com/lola-pm/lola/host/internal/durable" && f[4] != "" {
			host = append(host, pkg{f[0], f[2], strings.Fields(f[4])})
		}
	}
	if len(host) < 10 {
		t.Fatalf("only %d host packages listed", len(host))
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	for _, p := range host {
		var files []*ast.File
		for _, name := range p.files {
			f, err := parser.ParseFile(fset, filepath.Join(p.dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		if _, err := (&types.Config{Importer: imp}).Check(p.path, fset, files, info); err != nil {
			t.Fatalf("%s: %v", p.path, err)
		}
		for id, obj := range info.Uses {
			if fn, ok := obj.(*types.Func); ok && flushers[fn.FullName()] {
				t.Errorf("%s: %s called directly; flush through host/internal/durable so that it is counted", fset.Position(id.Pos()), fn.FullName())
			}
		}
	}
}

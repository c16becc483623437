package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// upstreamFile is one file of a tree upstream Lola left
// (examples/testdata/upstream/upstream.json).
type upstreamFile struct {
	Content    string `json:"content"`
	Executable bool   `json:"executable"`
}

// upstreamStep is the tree upstream Lola left after one step.
type upstreamStep struct {
	Step  string                  `json:"step"`
	Files map[string]upstreamFile `json:"files"`
}

// upstreamIgnored are what a tree comparison with upstream leaves out:
// lola's lock file, and the module copies lola keeps for gemini-cli's
// skill listing (upstream's own copy, .lola/, is outside its trees too).
func upstreamIgnored(rel string) bool {
	return rel == ".lola.lock" || strings.HasPrefix(rel, ".lola/") || strings.HasPrefix(rel, ".gemini/lola/")
}

// TestEndToEndEqualsUpstream runs the real bin/lola (make build) through
// the scenario the upstream goldens record (examples/testdata/upstream/
// gen.py: install kit, solo, second and edge, then uninstall each) for
// every assistant in project and user scope, starting from the files
// upstream's run started from: after every step the tree must be the one
// today's Lola left, byte for byte and execute bit for execute bit, apart
// from the intentional differences gen.py applies and lola's own state.
// This holds the host's side (the requests it builds from its store, the
// managed files it hands over, how it applies plans) to upstream, not only
// the targets.
func TestEndToEndEqualsUpstream(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	if runtime.GOOS == "windows" {
		t.Skip("execute bits are a POSIX notion")
	}
	exe, names := builtLola(t)
	if len(names) < 7 {
		t.Fatalf("built-in targets %v: want the seven assistants", names)
	}
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "examples", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string][]upstreamStep
	b, err := os.ReadFile(filepath.Join(fixtures, "upstream", "upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	for _, assistant := range names {
		for _, scope := range e2eScopes {
			steps := all[assistant+"/"+scope]
			t.Run(assistant+"/"+scope, func(t *testing.T) {
				if len(steps) < 9 {
					t.Fatalf("%d upstream steps", len(steps))
				}
				w := e2eWorld{base: t.TempDir()}
				w.home, w.lolaHome = filepath.Join(w.base, "home"), filepath.Join(w.base, "lolahome")
				w.project, w.cwd = filepath.Join(w.base, "project"), filepath.Join(w.base, "cwd")
				for _, d := range []string{w.home, w.project, w.cwd} {
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				root := w.root(scope)
				writeUpstreamTree(t, root, steps[0].Files)
				run := func(args ...string) {
					t.Helper()
					if r := runBuiltIn(t, exe, w.env(), w.cwd, args...); r.code != 0 {
						t.Fatalf("lola %s: %+v", strings.Join(args, " "), r)
					}
				}
				for _, m := range []string{"kit", "solo", "second", "edge"} {
					// Named as today's Lola recorded them: kit keeps its content in
					// module/, which names a module "module" without --name.
					run("mod", "add", filepath.Join(fixtures, "modules", m), "--name", m)
				}
				for _, st := range steps[1:] {
					op, name, _ := strings.Cut(st.Step, " ")
					run(w.args(scope, op, name, "-a", assistant)...)
					if d := upstreamTreeDiff(readUpstreamTree(t, root), st.Files); d != "" {
						t.Fatalf("after %s the tree differs from today's Lola's:\n%s", st.Step, d)
					}
				}
			})
		}
	}
}

func writeUpstreamTree(t *testing.T, root string, files map[string]upstreamFile) {
	t.Helper()
	for rel, f := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if f.Executable {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(f.Content), mode); err != nil {
			t.Fatal(err)
		}
	}
}

func readUpstreamTree(t *testing.T, root string) map[string]upstreamFile {
	t.Helper()
	out := map[string]upstreamFile{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if upstreamIgnored(rel) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		out[rel] = upstreamFile{Content: string(b), Executable: info.Mode().Perm()&0o100 != 0}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func upstreamTreeDiff(got, want map[string]upstreamFile) string {
	g := map[string]string{}
	for k, v := range got {
		g[k] = v.Content
		if v.Executable {
			g[k] += "\x00 executable"
		}
	}
	wm := map[string]string{}
	for k, v := range want {
		wm[k] = v.Content
		if v.Executable {
			wm[k] += "\x00 executable"
		}
	}
	var d []string
	for k, v := range wm {
		if gv, ok := g[k]; !ok {
			d = append(d, "missing "+k)
		} else if gv != v {
			d = append(d, "differs "+k+"\n  got  "+strings.ReplaceAll(gv, "\n", "\\n")+"\n  want "+strings.ReplaceAll(v, "\n", "\\n"))
		}
	}
	for k := range g {
		if _, ok := wm[k]; !ok {
			d = append(d, "extra "+k)
		}
	}
	sort.Strings(d)
	return strings.Join(d, "\n")
}

package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSDKBuildersAgreeWithTheHostOnPaths feeds every path of the shared
// plan vectors to each SDK's native fixture as a module file (which it
// writes to out/<module>/<path>): the paths of valid and conflict-only
// vectors must be accepted, and a vector labelled path.* must make the
// builder refuse the run (status 2). The builders are each SDK's own copy
// of the host's lexical rules (Rust and AssemblyScript cannot import Go).
func TestSDKBuildersAgreeWithTheHostOnPaths(t *testing.T) {
	root := filepath.Join(repoRoot(t), "schema/vectors")
	type vec struct {
		name  string
		paths []string
		bad   bool
	}
	var vs []vec
	add := func(dir string, bad bool) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			var p struct {
				Intents []map[string]any `json:"intents"`
			}
			if json.Unmarshal(b, &p) != nil {
				continue
			}
			v := vec{name: filepath.Base(dir) + "/" + filepath.Base(f), bad: bad}
			for _, in := range p.Intents {
				for _, k := range []string{"path", "from", "to", "dest"} {
					if s, ok := in[k].(string); ok {
						v.paths = append(v.paths, s)
					}
				}
			}
			if len(v.paths) > 0 {
				vs = append(vs, v)
			}
		}
	}
	add(filepath.Join(root, "valid"), false)
	dirs, _ := filepath.Glob(filepath.Join(root, "invalid", "*"))
	for _, d := range dirs {
		switch base := filepath.Base(d); {
		case strings.HasPrefix(base, "path."):
			add(d, true)
		case strings.HasPrefix(base, "conflict."):
			add(d, false)
		}
	}
	if len(vs) < 50 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for _, p := range fixtures {
		t.Run(p.lang, func(t *testing.T) {
			fx := build(t, p)
			for _, v := range vs {
				files := make([]map[string]string, len(v.paths))
				for i, s := range v.paths {
					files[i] = map[string]string{"path": s, "content": "x"}
				}
				req, _ := json.Marshal(map[string]any{"protocol": 1, "operation": "install",
					"modules": []any{map[string]any{"name": "m", "files": files}}})
				f := filepath.Join(t.TempDir(), "req.json")
				if err := os.WriteFile(f, req, 0o600); err != nil {
					t.Fatal(err)
				}
				_, stderr, status := runNative(t, fx.native, f)
				switch {
				case v.bad && status != 2:
					t.Errorf("%s: status %d, want 2 (a path the host refuses)", v.name, status)
				case !v.bad && status != 0:
					t.Errorf("%s: status %d, want 0: %s", v.name, status, stderr)
				}
			}
		})
	}
}

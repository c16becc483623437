// Package assistanttest holds the tests every assistant target shares:
// Replay holds a target to today's Lola's behaviour (goldens recorded by
// running the Python upstream, examples/testdata/upstream) over the
// fixture modules as the host's store hands them over, and Hostile feeds it
// requests it must refuse. Import it from _test.go files only.
package assistanttest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

var writeCases = flag.Bool("write-cases", false, "write each replayed request into testdata/ as a golden case (then run -update for the plans)")

// File is one file of a tree: its content and execute bit.
type File struct {
	Content    string `json:"content"`
	Executable bool   `json:"executable"`
}

// Step is the tree upstream left after one step.
type Step struct {
	Step  string          `json:"step"`
	Files map[string]File `json:"files"`
}

// Replay runs, for scope project and user, the steps upstream ran (install
// kit, solo, second and edge, then uninstall them in that order) through the
// registered handler in-process, applying each plan to an in-memory tree
// that starts as upstream's did, and requires the tree after each step to
// equal upstream's, byte for byte and execute bit for execute bit.
// managed are the manifest's managed: paths (handed over as current, and
// named created when a replayed step created them).
// fixtures is examples/testdata relative to the test.
func Replay(t *testing.T, assistant string, managed []string, fixtures string) {
	t.Helper()
	var all map[string][]Step
	mustJSON(t, filepath.Join(fixtures, "upstream", "upstream.json"), &all)
	for _, scope := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
		steps := all[assistant+"/"+string(scope)]
		if len(steps) < 2 {
			t.Fatalf("no upstream steps for %s/%s", assistant, scope)
		}
		tree := map[string]File{}
		for k, v := range steps[0].Files {
			tree[k] = v
		}
		// created is the managed files a replayed install created, as the
		// host's installed.yml tracks them (schema.Request.Created).
		created := map[string]bool{}
		for i, st := range steps[1:] {
			op, name, _ := strings.Cut(st.Step, " ")
			var m schema.Module
			mustJSON(t, filepath.Join(fixtures, "modules", name+".module.json"), &m)
			req := schema.Request{Protocol: 1, Operation: schema.Operation(op), Assistant: assistant, Scope: scope, Modules: []schema.Module{m}}
			for _, p := range managed {
				if f, ok := tree[p]; ok {
					req.Current = append(req.Current, schema.File{Path: p, Content: f.Content})
					if created[p] {
						req.Created = append(req.Created, p)
					}
				}
			}
			b, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			label := fmt.Sprintf("%s-%d-%s-%s", scope, i+1, op, name)
			if *writeCases {
				if err := os.WriteFile(filepath.Join("testdata", label+".request.json"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			plan, status, err := lola.Process(b)
			if status != lola.StatusOK {
				t.Fatalf("%s: status %s: %v", label, status, err)
			}
			had := map[string]bool{}
			for _, p := range managed {
				_, had[p] = tree[p]
			}
			if err := Apply(tree, plan); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			for _, p := range managed {
				_, has := tree[p]
				created[p] = has && (created[p] || !had[p])
			}
			if d := Diff(tree, st.Files); d != "" {
				t.Errorf("%s: the tree differs from today's Lola's:\n%s", label, d)
			}
		}
	}
}

// Apply applies a plan's writes and deletes to tree (a delete removes the
// path and everything beneath it).
func Apply(tree map[string]File, plan []byte) error {
	var p schema.Plan
	if err := json.Unmarshal(plan, &p); err != nil {
		return err
	}
	for _, in := range p.Intents {
		switch {
		case in.Write != nil:
			c := in.Write.Content
			if in.Write.Encoding == schema.EncodingBase64 {
				d, err := base64.StdEncoding.DecodeString(c)
				if err != nil {
					return err
				}
				c = string(d)
			}
			tree[in.Write.Path] = File{Content: c, Executable: in.Write.Executable}
		case in.Delete != nil:
			for k := range tree {
				if k == in.Delete.Path || strings.HasPrefix(k, in.Delete.Path+"/") {
					delete(tree, k)
				}
			}
		default:
			return fmt.Errorf("unexpected intent %+v", in)
		}
	}
	return nil
}

// Diff describes how got differs from want, "" when equal.
func Diff(got, want map[string]File) string {
	var out []string
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			out = append(out, "missing "+k)
		case g.Content != w.Content:
			out = append(out, fmt.Sprintf("content of %s:\n  got  %q\n  want %q", k, g.Content, w.Content))
		case g.Executable != w.Executable:
			out = append(out, fmt.Sprintf("execute bit of %s: got %v want %v", k, g.Executable, w.Executable))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, "extra "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func mustJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

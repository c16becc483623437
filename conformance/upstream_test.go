package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// treeFile is one file of a golden tree: what upstream Lola left there.
type treeFile struct {
	Content    string `json:"content"`
	Executable bool   `json:"executable"`
}

// copyPrefixes are where a target keeps copies of skills that upstream
// keeps in its own module copy (.lola/modules/, which upstream's tree
// leaves out): they are checked by the listing test, not against upstream.
var copyPrefixes = []string{".lola/", ".gemini/lola/"}

// upstreamStep is one step of examples/testdata/upstream/upstream.json: the
// files upstream Lola left after it.
type upstreamStep struct {
	Step  string              `json:"step"`
	Files map[string]treeFile `json:"files"`
}

// managedPaths are the manifests' managed: files of the targets checked
// here (handed over as the request's current, as the host does).
var managedPaths = map[string][]string{
	"cursor":     {".cursor/mcp.json"},
	"gemini-cli": {"GEMINI.md", ".gemini/settings.json"},
	// The built-ins on sdk-rust's assistant module, in the order their
	// golden requests were recorded (examples/go-<name>/golden_test.go).
	"claude-code":    {"CLAUDE.md", ".claude/CLAUDE.md", ".mcp.json"},
	"copilot-cli":    {".github/copilot-instructions.md", ".copilot/copilot-instructions.md", ".vscode/mcp.json", ".copilot/mcp-config.json"},
	"copilot-vscode": {".github/copilot-instructions.md", ".copilot/copilot-instructions.md", ".vscode/mcp.json"},
	"openclaw":       {},
	"opencode":       {"AGENTS.md", ".config/opencode/AGENTS.md", "opencode.json", ".config/opencode/opencode.json"},
}

// TestTargetsProduceUpstreamTrees runs the Rust cursor and AssemblyScript
// gemini-cli targets (tier 2; the golden-plan test proves tier 1 plans the
// same) over the scenario of examples/testdata/upstream/gen.py (the one
// generator every target's goldens come from) in both scopes: each step's
// request is built from the fixture modules as the host's store hands them
// over (examples/testdata/modules/<name>.module.json) and must equal the
// target's testdata/<scope>-<n>-<op>-<module>.request.json (the Rust test and
// the golden-plan test run those); its plan, applied to the tree the step
// before left, must leave exactly the files upstream Lola's own code left,
// executable bits included. With LOLA_BLESS=1 it rewrites each step's
// request and, once the trees agree, its golden plan.
func TestTargetsProduceUpstreamTrees(t *testing.T) {
	root := repoRoot(t)
	var all map[string][]upstreamStep
	b, err := os.ReadFile(filepath.Join(root, "examples/testdata/upstream/upstream.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	bless := os.Getenv("LOLA_BLESS") != ""
	for _, p := range examples {
		assistant := filepath.Base(p.dir)
		managed, ok := managedPaths[assistant]
		if !ok {
			continue
		}
		t.Run(assistant, func(t *testing.T) {
			ex := build(t, p)
			dir := filepath.Join(root, p.dir, "testdata")
			for _, scope := range []schema.Scope{schema.ScopeProject, schema.ScopeUser} {
				steps := all[assistant+"/"+string(scope)]
				if len(steps) < 9 {
					t.Fatalf("%s: %d upstream steps", scope, len(steps))
				}
				tree := map[string]treeFile{}
				for k, v := range steps[0].Files {
					tree[k] = v
				}
				// created: the managed files a replayed step created, as
				// installed.yml's managed_created tracks them.
				created := map[string]bool{}
				for i, st := range steps[1:] {
					op, name, _ := strings.Cut(st.Step, " ")
					label := fmt.Sprintf("%s-%d-%s-%s", scope, i+1, op, name)
					req := filepath.Join(dir, label+".request.json")
					want := upstreamRequest(t, root, assistant, scope, op, name, managed, tree, created)
					if bless {
						if err := os.WriteFile(req, want, 0o644); err != nil {
							t.Fatal(err)
						}
					}
					// Compared compact: the Go built-ins' recorded requests
					// (sdk-go's assistanttest) are json.Marshal's layout.
					if got, err := os.ReadFile(req); err != nil || !bytes.Equal(compact(t, got), compact(t, want)) {
						t.Fatalf("%s is not the request the host sends for this step (LOLA_BLESS=1 rewrites it): %v", req, err)
					}
					validateRequestSchema(t, req)
					plan, stderr, status := runNative(t, ex.native, req)
					if status != 0 {
						t.Fatalf("%s: status %d: %s", label, status, stderr)
					}
					had := map[string]bool{}
					for _, p := range managed {
						_, had[p] = tree[p]
					}
					applyPlan(t, tree, plan)
					for _, p := range managed {
						_, has := tree[p]
						created[p] = has && (created[p] || !had[p])
					}
					ours, copies := splitCopies(tree)
					if g, w := mustJSON(t, ours), mustJSON(t, st.Files); !bytes.Equal(g, w) {
						t.Fatalf("%s: tree differs from upstream's\n got: %s\nwant: %s", label, g, w)
					}
					checkListedSkills(t, label, ours, copies)
					if bless {
						if err := os.WriteFile(filepath.Join(dir, label+".plan.json"), append(bytes.TrimSpace(plan), '\n'), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		})
	}
}

// upstreamRequest is the request the host sends for one step: the fixture
// module as the store hands it over, and the current content of the
// target's managed files, naming those lola created.
func upstreamRequest(t *testing.T, root, assistant string, scope schema.Scope, op, name string, managed []string, tree map[string]treeFile, created map[string]bool) []byte {
	t.Helper()
	var m schema.Module
	b, err := os.ReadFile(filepath.Join(root, "examples/testdata/modules", name+".module.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	req := schema.Request{Protocol: 1, Operation: schema.Operation(op), Assistant: assistant, Scope: scope, Modules: []schema.Module{m}}
	for _, p := range managed {
		if f, ok := tree[p]; ok {
			req.Current = append(req.Current, schema.File{Path: p, Content: f.Content})
			if created[p] {
				req.Created = append(req.Created, p)
			}
		}
	}
	out, err := json.MarshalIndent(req, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// validateRequestSchema: a golden request is one the host could send — it
// validates against schema/request.schema.json (inventory included).
func validateRequestSchema(t *testing.T, path string) {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join(repoRoot(t), "schema/request.schema.json"))
	if err != nil {
		t.Fatalf("compiling request.schema.json: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", path, err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("%s does not validate against request.schema.json: %v", path, err)
	}
}

// compact is b without insignificant whitespace.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return out.Bytes()
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// applyPlan applies a plan's writes and deletes (a delete takes a subtree).
func applyPlan(t *testing.T, tree map[string]treeFile, plan []byte) {
	t.Helper()
	var p struct {
		Intents []struct {
			Op, Path, Content, Encoding string
			Executable                  bool
		}
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		t.Fatal(err)
	}
	for _, in := range p.Intents {
		switch in.Op {
		case "write":
			content := in.Content
			if in.Encoding == "base64" {
				b, err := base64.StdEncoding.DecodeString(in.Content)
				if err != nil {
					t.Fatal(err)
				}
				content = string(b)
			}
			tree[in.Path] = treeFile{Content: content, Executable: in.Executable}
		case "delete":
			for k := range tree {
				if k == in.Path || strings.HasPrefix(k, in.Path+"/") {
					delete(tree, k)
				}
			}
		default:
			t.Fatalf("unexpected op %q", in.Op)
		}
	}
}

func splitCopies(tree map[string]treeFile) (ours, copies map[string]treeFile) {
	ours, copies = map[string]treeFile{}, map[string]treeFile{}
	for k, v := range tree {
		copied := false
		for _, p := range copyPrefixes {
			copied = copied || strings.HasPrefix(k, p)
		}
		if copied {
			copies[k] = v
		} else {
			ours[k] = v
		}
	}
	return ours, copies
}

var listed = regexp.MustCompile("Read `(?:~/)?([^`]+/SKILL.md)`")

// checkListedSkills: every SKILL.md a GEMINI.md listing names is among the
// copies, and every copy belongs to a listed skill (none is left behind).
func checkListedSkills(t *testing.T, step string, ours, copies map[string]treeFile) {
	t.Helper()
	dirs := map[string]bool{}
	for _, m := range listed.FindAllStringSubmatch(ours["GEMINI.md"].Content, -1) {
		if _, ok := copies[m[1]]; !ok {
			t.Fatalf("%s: GEMINI.md lists %s, which is not there", step, m[1])
		}
		dirs[strings.TrimSuffix(m[1], "SKILL.md")] = true
	}
	for k := range copies {
		owned := false
		for d := range dirs {
			owned = owned || strings.HasPrefix(k, d)
		}
		if !owned {
			t.Fatalf("%s: %s is left behind, no listed skill owns it", step, k)
		}
	}
}

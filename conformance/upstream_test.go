package conformance

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

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

// TestTargetsProduceUpstreamTrees runs the Rust cursor and AssemblyScript
// gemini-cli targets (tier 2; the golden-plan test proves tier 1 plans the
// same) over scripts/upstream-goldens.py's scenario in both scopes: each
// step's plan, applied to the tree the step before left, must leave exactly
// the files upstream Lola's own code left, executable bits included. With
// LOLA_BLESS=1 it rewrites each step's golden plan once the trees agree.
func TestTargetsProduceUpstreamTrees(t *testing.T) {
	for _, p := range examples {
		if p.dir != "examples/cursor" && p.dir != "examples/gemini-cli" {
			continue
		}
		t.Run(filepath.Base(p.dir), func(t *testing.T) {
			ex := build(t, p)
			dir := filepath.Join(repoRoot(t), p.dir, "testdata")
			for _, scope := range []string{"project", "user"} {
				tree := readTree(t, filepath.Join(dir, "upstream", scope+"-0-before.tree.json"))
				steps, _ := filepath.Glob(filepath.Join(dir, "upstream", scope+"-[1-9]-*.tree.json"))
				sort.Strings(steps)
				if len(steps) < 4 {
					t.Fatalf("%s: %d steps", scope, len(steps))
				}
				for _, s := range steps {
					step := strings.TrimSuffix(filepath.Base(s), ".tree.json")
					req := filepath.Join(dir, step+".request.json")
					validateRequestSchema(t, req)
					plan, stderr, status := runNative(t, ex.native, req)
					if status != 0 {
						t.Fatalf("%s: status %d: %s", step, status, stderr)
					}
					applyPlan(t, tree, plan)
					ours, copies := splitCopies(tree)
					want := readTree(t, s)
					if g, w := mustJSON(t, ours), mustJSON(t, want); !bytes.Equal(g, w) {
						t.Fatalf("%s: tree differs from upstream's\n got: %s\nwant: %s", step, g, w)
					}
					checkListedSkills(t, step, ours, copies)
					if os.Getenv("LOLA_BLESS") != "" {
						if err := os.WriteFile(filepath.Join(dir, step+".plan.json"), append(bytes.TrimSpace(plan), '\n'), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		})
	}
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

func readTree(t *testing.T, path string) map[string]treeFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tree := map[string]treeFile{}
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	return tree
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

package plan_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// vectorsDir is the shared vector tree, relative to this package.
const vectorsDir = "../../schema/vectors"

// vectorLimits are the limits every vector is judged under, as
// schema/vectors/README.md states; the SDKs use the same.
func vectorLimits(t testing.TB) plan.Limits {
	l, err := plan.NewLimits(65536, 64, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readVectors(t testing.TB, pattern string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(vectorsDir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string][]byte, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(vectorsDir, f)
		out[filepath.ToSlash(rel)] = b
	}
	return out
}

func TestValidVectorsDecode(t *testing.T) {
	vs := readVectors(t, "valid/*.json")
	if len(vs) < 5 {
		t.Fatalf("only %d valid vectors found", len(vs))
	}
	for name, b := range vs {
		t.Run(name, func(t *testing.T) {
			p, err := plan.Decode(bytes.NewReader(b), vectorLimits(t))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			for i := 0; i < p.Len(); i++ {
				if p.Intent(i).Op() == "" {
					t.Errorf("intent %d holds no op", i)
				}
			}
		})
	}
}

// TestInvalidVectorsRefusedWithTheirRule decodes every vector this package
// owns (invalid/plan.* and invalid/remote.*) and requires exactly its
// labelled rule: the directory name.
func TestInvalidVectorsRefusedWithTheirRule(t *testing.T) {
	n := 0
	for _, pattern := range []string{"invalid/plan.*/*.json", "invalid/remote.*/*.json"} {
		for name, b := range readVectors(t, pattern) {
			n++
			label := strings.Split(name, "/")[1]
			rule, ok := schema.ParseRule(label)
			if !ok {
				t.Errorf("%s: directory %q is not a rule", name, label)
				continue
			}
			t.Run(name, func(t *testing.T) {
				p, err := plan.Decode(bytes.NewReader(b), vectorLimits(t))
				if err == nil {
					t.Fatalf("accepted (%d intents), want %s", p.Len(), rule)
				}
				if !errors.Is(err, rejection.Rule(rule)) {
					t.Fatalf("refused with %v, want %s", err, rule)
				}
				vs := rejection.All(err)
				if len(vs) != 1 || vs[0].Rule != rule {
					t.Fatalf("want exactly one %s violation, got %v", rule, err)
				}
			})
		}
	}
	if n < 100 {
		t.Fatalf("only %d invalid vectors found", n)
	}
}

// TestEveryDecodeRuleHasAVector keeps the vectors complete: every rule this
// package can return has at least one vector.
func TestEveryDecodeRuleHasAVector(t *testing.T) {
	for _, r := range schema.Rules() {
		s := r.String()
		if !strings.HasPrefix(s, "plan.") && !decodeRemoteRules[r] {
			continue
		}
		if len(readVectors(t, "invalid/"+s+"/*.json")) == 0 {
			t.Errorf("no vector under invalid/%s/", s)
		}
	}
}

// decodeRemoteRules are the remote rules decided from a plan's text.
var decodeRemoteRules = map[schema.Rule]bool{
	schema.RuleRemoteScheme: true, schema.RuleRemoteMethod: true,
	schema.RuleRemoteURL: true, schema.RuleRemoteHeader: true,
}

func TestInvalidDirectoriesAreRules(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(vectorsDir, "invalid"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatal("no invalid vectors")
	}
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("invalid/%s is not a directory", e.Name())
			continue
		}
		r, ok := schema.ParseRule(e.Name())
		if !ok {
			t.Errorf("invalid/%s: not a rule of the vocabulary", e.Name())
			continue
		}
		if r.String() != e.Name() {
			t.Errorf("invalid/%s parses as %s", e.Name(), r)
		}
	}
}

// TestValidVectorsMatchTheSchema holds the shared vectors to the generated
// JSON Schema too, so the SDKs (which validate against the schema) and the
// host agree on what is valid.
func TestValidVectorsMatchTheSchema(t *testing.T) {
	sch := compileSchema(t, "plan.schema.json")
	vs := readVectors(t, "valid/*.json")
	if len(vs) == 0 {
		t.Fatal("no valid vectors: the check would be vacuous")
	}
	for name, b := range vs {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: does not match plan.schema.json: %v", name, err)
		}
	}
}

// TestRequestVectorsMatchTheSchema holds every request vector that the
// SDKs' fixtures must accept to request.schema.json, so the generated
// schema and the vectors (inventory included) cannot drift apart.
func TestRequestVectorsMatchTheSchema(t *testing.T) {
	sch := compileSchema(t, "request.schema.json")
	plans, err := filepath.Glob(filepath.Join(vectorsDir, "requests", "*.plan.json"))
	if err != nil || len(plans) == 0 {
		t.Fatalf("no request vectors with plans: %v", err)
	}
	for _, p := range plans {
		name := strings.TrimSuffix(p, ".plan.json") + ".request.json"
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: does not match request.schema.json: %v", filepath.Base(name), err)
		}
	}
}

// compileSchema compiles one of the generated schemas under ../../schema.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("../../schema", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

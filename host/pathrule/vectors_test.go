package pathrule

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// vectorsDir is the shared vector tree, relative to this package.
const vectorsDir = "../../schema/vectors"

// vectorLimits are the limits the shared vectors are judged under (the
// same host/plan's vector test uses).
func vectorLimits(t testing.TB) plan.Limits {
	l, err := plan.NewLimits(65536, 64, 4096)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func vectorFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(vectorsDir, filepath.FromSlash(pattern)))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestInvalidVectorsRefusedWithTheirRule: every vector under
// invalid/path.*/ and invalid/conflict.*/ decodes (it is a well-formed
// plan) and is then refused by Validate under the bytes relation, every
// violation carrying the rule its directory names.
func TestInvalidVectorsRefusedWithTheirRule(t *testing.T) {
	perRule := map[schema.Rule]int{}
	for _, pattern := range []string{"invalid/path.*/*.json", "invalid/conflict.*/*.json"} {
		for _, f := range vectorFiles(t, pattern) {
			label := filepath.Base(filepath.Dir(f))
			name := label + "/" + filepath.Base(f)
			rule, ok := schema.ParseRule(label)
			if !ok {
				t.Errorf("%s: directory %q is not a rule", name, label)
				continue
			}
			perRule[rule]++
			t.Run(name, func(t *testing.T) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				p, err := plan.Decode(bytes.NewReader(b), vectorLimits(t))
				if err != nil {
					t.Fatalf("does not decode, so it is not a %s vector: %v", label, err)
				}
				v, err := Validate(p, Bytes)
				if err == nil {
					t.Fatalf("accepted (%d steps), want %s", v.Len(), label)
				}
				vs := rejection.All(err)
				if len(vs) == 0 {
					t.Fatalf("error is not a rejection: %v", err)
				}
				for _, v := range vs {
					if v.Rule != rule || len(v.Intents) == 0 {
						t.Errorf("violation %v, want rule %s naming intents", v, label)
					}
				}
			})
		}
	}
	for _, r := range []schema.Rule{schema.RulePathAbsolute, schema.RulePathTraversal, schema.RulePathInvalid,
		schema.RuleConflictSamePath, schema.RuleConflictNested} {
		if perRule[r] < 5 {
			t.Errorf("only %d vectors for %s", perRule[r], r)
		}
	}
}

// TestValidVectorsValidate: the shared valid plans, which every SDK emits
// and host/plan decodes, also pass the path and conflict rules under every
// relation — a disagreement here is a disagreement between packages.
func TestValidVectorsValidate(t *testing.T) {
	files := vectorFiles(t, "valid/*.json")
	if len(files) < 5 {
		t.Fatalf("only %d valid vectors found", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := plan.Decode(bytes.NewReader(b), vectorLimits(t))
			if err != nil {
				t.Fatalf("a valid vector does not decode: %v", err)
			}
			for _, eq := range Equalities() {
				if _, err := Validate(p, eq); err != nil {
					t.Errorf("under %s: %v", eq.Name(), strings.ReplaceAll(err.Error(), "\n", "; "))
				}
			}
		})
	}
}

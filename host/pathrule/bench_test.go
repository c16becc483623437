package pathrule

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// benchPlan is a realistic large plan that validates: per module a delete of
// its old directory and writes beneath it, some renames, fetches, clones.
func benchPlan(b *testing.B, n int) *plan.Plan {
	ins := make([]schema.Intent, 0, n)
	for i := 0; len(ins) < n; i++ {
		switch i % 10 {
		case 0:
			ins = append(ins, schema.Intent{Delete: &schema.Delete{Path: fmt.Sprintf("skills/m%d", i/10)}})
		case 7:
			ins = append(ins, schema.Intent{Rename: &schema.Rename{From: fmt.Sprintf("tmp/r%d", i), To: fmt.Sprintf("docs/Caf\u00e9/r%d", i)}})
		case 8:
			ins = append(ins, schema.Intent{Fetch: &schema.Fetch{URL: "https://example.org/x", Dest: fmt.Sprintf("vendor/f%d.tgz", i)}})
		case 9:
			ins = append(ins, schema.Intent{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: fmt.Sprintf("vendor/c%d", i)}})
		default:
			ins = append(ins, schema.Intent{Write: &schema.Write{Path: fmt.Sprintf("skills/m%d/F%d/SKILL.md", i/10, i%10)}})
		}
	}
	j, err := json.Marshal(schema.Plan{Protocol: 1, Intents: ins})
	if err != nil {
		b.Fatal(err)
	}
	l, err := plan.NewLimits(1<<30, n, 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	p, err := plan.Decode(bytes.NewReader(j), l)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkValidate measures Validate alone (decoding excluded) at 1k, 10k
// and 100k intents under the bytes and darwin relations. Linear-ish growth
// (about 10x per step, plus the log factor of the sort) is the contract; a
// quadratic validator would show 100x.
func BenchmarkValidate(b *testing.B) {
	for _, eq := range []Equality{Bytes, Darwin} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			p := benchPlan(b, n)
			b.Run(fmt.Sprintf("%s/%d", eq.Name(), n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Validate(p, eq); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkValidateConflicting: a plan whose every intent writes one path,
// the worst case for the number of conflicting pairs; the report bound
// keeps it cheap.
func BenchmarkValidateConflicting(b *testing.B) {
	const n = 100_000
	ins := make([]schema.Intent, n)
	for i := range ins {
		ins[i] = schema.Intent{Write: &schema.Write{Path: "same/path"}}
	}
	j, _ := json.Marshal(schema.Plan{Protocol: 1, Intents: ins})
	p, err := plan.Decode(bytes.NewReader(j), plan.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Validate(p, Bytes); err == nil {
			b.Fatal("accepted")
		}
	}
}

package pathrule

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// intent builds an intent from a one-line spelling: "write a/b",
// "delete a", "rename a b", "fetch a", "clone a".
func intent(t testing.TB, spec string) schema.Intent {
	t.Helper()
	f := strings.Fields(spec)
	switch {
	case len(f) == 2 && f[0] == "write":
		return schema.Intent{Write: &schema.Write{Path: f[1], Content: "x"}}
	case len(f) == 2 && f[0] == "delete":
		return schema.Intent{Delete: &schema.Delete{Path: f[1]}}
	case len(f) == 3 && f[0] == "rename":
		return schema.Intent{Rename: &schema.Rename{From: f[1], To: f[2]}}
	case len(f) == 2 && f[0] == "fetch":
		return schema.Intent{Fetch: &schema.Fetch{URL: "https://example.org/x", Dest: f[1], Method: "GET"}}
	case len(f) == 2 && f[0] == "clone":
		return schema.Intent{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: f[1]}}
	}
	t.Fatalf("bad intent spec %q", spec)
	return schema.Intent{}
}

// decode builds a plan the way the host does: JSON through plan.Decode.
func decode(t testing.TB, intents []schema.Intent) *plan.Plan {
	t.Helper()
	if intents == nil {
		intents = []schema.Intent{}
	}
	b, err := json.Marshal(schema.Plan{Protocol: 1, Intents: intents})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(bytes.NewReader(b), plan.DefaultLimits())
	if err != nil {
		t.Fatalf("plan.Decode: %v", err)
	}
	return p
}

func planOf(t testing.TB, specs ...string) *plan.Plan {
	t.Helper()
	var ins []schema.Intent
	for _, s := range specs {
		ins = append(ins, intent(t, s))
	}
	return decode(t, ins)
}

// conflict is an expected violation: a rule and the intents it names.
type conflict struct {
	rule    schema.Rule
	intents []int
}

func (c conflict) String() string { return fmt.Sprintf("%s%v", c.rule, c.intents) }

// violations flattens a Validate error into comparable form, sorted.
func violations(t testing.TB, err error) []conflict {
	t.Helper()
	var out []conflict
	for _, v := range rejection.All(err) {
		out = append(out, conflict{v.Rule, v.IntentIndices()})
	}
	slices.SortFunc(out, func(a, b conflict) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// mustReject asserts whole-plan rejection with exactly the given violations.
func mustReject(t *testing.T, p *plan.Plan, eq Equality, want ...conflict) {
	t.Helper()
	v, err := Validate(p, eq)
	if err == nil {
		t.Fatalf("under %s: plan accepted (%d steps), want rejection %v", eq.Name(), v.Len(), want)
	}
	if v != nil {
		t.Fatalf("under %s: rejection came with a *Validated", eq.Name())
	}
	for _, w := range want {
		if !errors.Is(err, rejection.Rule(w.rule)) {
			t.Errorf("under %s: errors.Is(err, %s) is false; err = %v", eq.Name(), w.rule, err)
		}
	}
	slices.SortFunc(want, func(a, b conflict) int { return strings.Compare(a.String(), b.String()) })
	if got := violations(t, err); !slices.EqualFunc(got, want, func(a, b conflict) bool {
		return a.rule == b.rule && slices.Equal(a.intents, b.intents)
	}) {
		t.Errorf("under %s: violations %v, want %v\n%v", eq.Name(), got, want, err)
	}
}

func mustAccept(t *testing.T, p *plan.Plan, eq Equality) *Validated {
	t.Helper()
	v, err := Validate(p, eq)
	if err != nil {
		t.Fatalf("under %s: rejected: %v", eq.Name(), err)
	}
	return v
}

// orderOf renders a validated plan's steps as "#index op path[ path]".
func orderOf(v *Validated) []string {
	var out []string
	for _, s := range v.Steps() {
		var ps []string
		for _, p := range s.Paths() {
			ps = append(ps, p.String())
		}
		out = append(out, fmt.Sprintf("#%d %s %s", s.Index(), s.Op(), strings.Join(ps, " ")))
	}
	return out
}

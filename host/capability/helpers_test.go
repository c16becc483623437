package capability

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// decode builds a plan from its JSON, as an extension would send it.
func decode(t testing.TB, js string) *plan.Plan {
	t.Helper()
	p, err := plan.Decode(strings.NewReader(js), plan.DefaultLimits())
	if err != nil {
		t.Fatalf("test plan does not decode: %v\n%s", err, js)
	}
	return p
}

// wantRule asserts err carries rule and that its violations name exactly
// the intents want (in order), each violation with rule.
func wantRule(t *testing.T, err error, rule schema.Rule, want ...int) {
	t.Helper()
	if !errors.Is(err, rejection.Rule(rule)) {
		t.Fatalf("err = %v, want %s", err, rule)
	}
	var got []int
	for _, v := range rejection.All(err) {
		if v.Rule != rule {
			t.Errorf("violation %v is not %s", v, rule)
		}
		got = append(got, v.IntentIndices()...)
	}
	if len(got) != len(want) {
		t.Fatalf("violations name intents %v, want %v (err: %v)", got, want, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("violations name intents %v, want %v (err: %v)", got, want, err)
		}
	}
}

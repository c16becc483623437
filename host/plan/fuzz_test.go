package plan_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// FuzzDecode: Decode never panics; a refusal is violations, each with a
// rule and a short detail; the verdict does not depend on how the bytes are
// chunked; and an accepted plan re-marshalled by encoding/json (as an SDK
// would emit it) is accepted again with the same intents and nothing left
// to drop.
func FuzzDecode(f *testing.F) {
	for _, pattern := range []string{"valid/*.json", "invalid/*/*.json"} {
		for _, b := range readVectors(f, pattern) {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lim := vectorLimits(t)
		p, err := plan.Decode(bytes.NewReader(b), lim)
		_, chunked := plan.Decode(iotest.OneByteReader(bytes.NewReader(b)), lim)
		if (err == nil) != (chunked == nil) || (err != nil && err.Error() != chunked.Error()) {
			t.Fatalf("verdict depends on chunking: %v vs %v", err, chunked)
		}
		if err != nil {
			var v *rejection.Violation
			if !errors.As(err, &v) {
				t.Fatalf("refusal is not a violation: %#v", err)
			}
			for _, v := range rejection.All(err) {
				if v.Rule == schema.RuleUnknown {
					t.Fatalf("violation without a rule: %#v", v)
				}
				if len(v.Detail) > 200 {
					t.Fatalf("detail of %d bytes: %q", len(v.Detail), v.Detail)
				}
			}
			return
		}
		intents := p.Intents()
		for i := range intents {
			if intents[i].Write != nil {
				if _, err := p.Body(i); err != nil {
					t.Fatalf("Body(%d) of an accepted write: %v", i, err)
				}
			}
		}
		again, err := json.Marshal(schema.Plan{Protocol: schema.Protocol, Intents: intents})
		if err != nil {
			t.Fatalf("accepted plan does not marshal: %v", err)
		}
		p2, err := plan.Decode(bytes.NewReader(again), plan.DefaultLimits())
		if err != nil {
			t.Fatalf("re-marshalled plan refused: %v\n%s", err, again)
		}
		if d := cmp.Diff(intents, p2.Intents()); d != "" {
			t.Fatalf("intents changed through encoding/json (-first +second):\n%s", d)
		}
		if p2.DroppedHeaders() != nil {
			t.Fatalf("dropped headers survived: %v", p2.DroppedHeaders())
		}
	})
}

package plan_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Decoding reports every violation it can read past, in input order, each
// naming its intent; one it cannot read past (an unknown member, whose
// value has no type; broken JSON) ends the decode and is reported last.
func TestDecodeReportsEveryViolation(t *testing.T) {
	p := `{"protocol":2,"intents":[
		{"op":"write","path":"a","content":"x","encoding":"hex"},
		{"op":"chmod","path":"b","url":"x"},
		{"op":"delete"},
		{"op":"clone","url":"https://h/r","dest":"d","depth":-1},
		{"op":"delete","path":"e","path":"f"},
		{"op":"write","path":"g","content":"` + "\xff" + `"},
		{"op":"fetch","url":"http://h/x","dest":"h"},
		{"op":"write","path":"ok","content":"fine"},
		{"op":"delete","path":"i","bogus":1},
		{"op":"delete","path":"never read"}]}`
	_, err := plan.Decode(strings.NewReader(p), plan.DefaultLimits())
	type got struct {
		rule   schema.Rule
		intent int
	}
	want := []got{
		{schema.RulePlanProtocol, -1},
		{schema.RulePlanEncoding, 0},
		{schema.RulePlanUnknownOp, 1},
		{schema.RulePlanMissingField, 2},
		{schema.RulePlanMalformed, 3},
		{schema.RulePlanDuplicateKey, 4},
		{schema.RulePlanInvalidUTF8, 5},
		{schema.RuleRemoteScheme, 6},
		{schema.RulePlanUnknownField, 8},
	}
	vs := rejection.All(err)
	var have []got
	for _, v := range vs {
		g := got{v.Rule, -1}
		if ix := v.IntentIndices(); len(ix) > 0 {
			g.intent = ix[0]
		}
		have = append(have, g)
	}
	if len(have) != len(want) {
		t.Fatalf("%d violations, want %d:\n%v", len(have), len(want), err)
	}
	for i := range want {
		if have[i] != want[i] {
			t.Errorf("violation %d: %+v, want %+v (%v)", i, have[i], want[i], vs[i])
		}
	}
}

// The violations one decode notes are bounded: a plan of many small ones
// ends at the bound, every one until then reported.
func TestDecodeBoundsTheViolationsItNotes(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"op":"delete","path":"p` + strconv.Itoa(i) + `","path":"q"}`)
	}
	b.WriteString(`]}`)
	l, err := plan.NewLimits(1<<24, 10000, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plan.Decode(strings.NewReader(b.String()), l)
	if n := len(rejection.All(err)); n != 1001 {
		t.Fatalf("%d violations reported, want the 1000 noted plus the one that ended the decode", n)
	}
}

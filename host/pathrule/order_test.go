package pathrule

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// TestDeleteOrderingFixture: delete a and delete a/b validate and run
// ancestors first whatever the emission order, also when the spellings
// differ only by case under a folding relation.
func TestDeleteOrderingFixture(t *testing.T) {
	cases := []struct {
		eq    Equality
		a, ab string
	}{
		{Bytes, "a", "a/b"},
		{Darwin, "a", "a/b"},
		{Windows, "a", "a/b"},
		{Darwin, "Skills/Foo", "skills/foo/bar"},
		{Windows, "Skills/Foo", "skills/foo/bar"},
		{HFSPlus, "A", "a/b"},
		{Windows, "a", "A/b"},
	}
	for _, c := range cases {
		for _, specs := range [][]string{{"delete " + c.a, "delete " + c.ab}, {"delete " + c.ab, "delete " + c.a}} {
			v := mustAccept(t, planOf(t, specs...), c.eq)
			st := v.Steps()
			if st[0].Paths()[0].String() != c.a || st[1].Paths()[0].String() != c.ab {
				t.Errorf("%s %q: order %q, want %s before %s", c.eq.Name(), specs, orderOf(v), c.a, c.ab)
			}
			// The descendant's deleted prefix ends at the ancestor.
			if got, want := st[1].ExcusedPrefix(0), mustParse(t, c.a).Len(); got != want {
				t.Errorf("%s %q: ExcusedPrefix of %s = %d, want %d", c.eq.Name(), specs, c.ab, got, want)
			}
			if got := st[0].ExcusedPrefix(0); got != 0 {
				t.Errorf("%s: the ancestor delete is marked excused (%d)", c.eq.Name(), got)
			}
		}
	}
	// Under bytes, Skills/Foo and skills/foo/bar are unrelated; they are
	// ordered by their bytes ("S" < "s") and neither is excused.
	v := mustAccept(t, planOf(t, "delete skills/foo/bar", "delete Skills/Foo"), Bytes)
	if st := v.Steps(); st[0].Index() != 1 || st[1].ExcusedPrefix(0) != 0 {
		t.Errorf("bytes: %q", orderOf(v))
	}
	// The same fixture with a write beneath the delete: validates; the write
	// resolves a against the pre-plan tree and creates b beneath it.
	for _, specs := range [][]string{{"delete a", "write a/b"}, {"write a/b", "delete a"}} {
		v := mustAccept(t, planOf(t, specs...), Bytes)
		st := v.Steps()
		if st[0].Op() != schema.OpDelete || st[1].ExcusedPrefix(0) != 1 {
			t.Errorf("%q: %q, prefix %d", specs, orderOf(v), st[1].ExcusedPrefix(0))
		}
	}
}

func TestExcusedPrefixes(t *testing.T) {
	v := mustAccept(t, planOf(t,
		"write x/y/z",          // 0: not excused
		"delete a/b",           // 1: excused by delete a (depth 1)
		"delete a",             // 2: not excused
		"write a/b/c/d",        // 3: excused by delete a, the shallowest
		"rename src a/b/c/e",   // 4: from not excused; to by delete a
		"delete q/r",           // 5
		"clone q/r",            // 6: at the delete's own path: prefix = its length
		"delete q/r",           // 7: the same delete again: excused by 5, and 5 by 7
		"delete p/q",           // 8
		"fetch p/q/s/t",        // 9: beneath delete p/q: prefix 2
		"rename m/n p/q/other", // 10: to beneath delete p/q
	), Bytes)
	want := map[int][]int{0: {0}, 1: {1}, 2: {0}, 3: {1}, 4: {0, 1}, 5: {2}, 6: {2}, 7: {2}, 8: {0}, 9: {2}, 10: {0, 2}}
	for _, s := range v.Steps() {
		var got []int
		for i := range s.Paths() {
			got = append(got, s.ExcusedPrefix(i))
		}
		if !slices.Equal(got, want[s.Index()]) {
			t.Errorf("intent #%d %s: excused prefixes %v, want %v", s.Index(), s.Op(), got, want[s.Index()])
		}
	}
}

func TestStepsAreCopies(t *testing.T) {
	p := decode(t, []schema.Intent{{Fetch: &schema.Fetch{URL: "https://example.org/x", Dest: "d", Method: "GET", Headers: map[string]string{"Accept": "*/*"}}}})
	v := mustAccept(t, p, Bytes)
	s := v.Steps()[0]
	in := s.Intent()
	in.Fetch.Headers["Accept"] = "mutated"
	in.Fetch.Dest = "mutated"
	if got := v.Steps()[0].Intent().Fetch; got.Headers["Accept"] != "*/*" || got.Dest != "d" {
		t.Errorf("a Step's intent was mutated through a copy: %+v", got)
	}
	ps := s.Paths()
	ps[0] = Path{}
	if v.Steps()[0].Paths()[0].IsZero() {
		t.Error("a Step's paths were mutated through a copy")
	}
}

// validPlanSpecs is a plan that validates under every relation and uses
// every op, deletes with ancestry, and case-differing deletes.
var validPlanSpecs = []string{
	"delete skills/old", "delete Skills/Old/x", "write skills/old/SKILL.md", "write README.md",
	"rename tmp/a docs/a", "rename tmp/b docs/b", "fetch vendor/x.tgz", "clone vendor/r",
	"delete vendor/r", "delete a", "delete a/b", "delete a/b/c", "write a/b/c/d",
	"write e\u0301/1", "delete z", "delete z", "delete Z", "rename q/1 z/1",
}

// TestEveryPermutationSameOrder: the apply order is a function of the
// intents alone, never of their emission order.
func TestEveryPermutationSameOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, eq := range Equalities() {
		var want string
		for trial := range 200 {
			specs := slices.Clone(validPlanSpecs)
			rng.Shuffle(len(specs), func(i, j int) { specs[i], specs[j] = specs[j], specs[i] })
			v := mustAccept(t, planOf(t, specs...), eq)
			got := orderWithoutIndices(t, v)
			if trial == 0 {
				want = got
				assertPhases(t, v, eq)
			} else if got != want {
				t.Fatalf("%s: permutation %q orders\n%s\nwant\n%s", eq.Name(), specs, got, want)
			}
		}
	}
}

// orderWithoutIndices renders the ordered intents (JSON) and, per path,
// its excused prefix; emission indices are left out on purpose.
func orderWithoutIndices(t *testing.T, v *Validated) string {
	var b strings.Builder
	for _, s := range v.Steps() {
		j, err := s.Intent().MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		for i := range s.Paths() {
			fmt.Fprintf(&b, " %d", s.ExcusedPrefix(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// assertPhases checks the order's contract directly: phases in order, and
// no delete after a delete of one of its ancestors.
func assertPhases(t *testing.T, v *Validated, eq Equality) {
	t.Helper()
	st := v.Steps()
	for i := 1; i < len(st); i++ {
		if phase(st[i-1].Op()) > phase(st[i].Op()) {
			t.Errorf("%s: %s before %s", eq.Name(), st[i-1].Op(), st[i].Op())
		}
	}
	for i, a := range st {
		for _, b := range st[:i] {
			if a.Op() == schema.OpDelete && b.Op() == schema.OpDelete && Beneath(eq, b.Paths()[0], a.Paths()[0]) {
				t.Errorf("%s: delete %s runs before its ancestor %s", eq.Name(), b.Paths()[0], a.Paths()[0])
			}
		}
	}
}

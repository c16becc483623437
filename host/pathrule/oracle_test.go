package pathrule

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// oracleEntry is one touched path as the brute-force oracle sees it.
type oracleEntry struct {
	intent, slot int
	op           schema.Op
	path         Path
}

func (e oracleEntry) source() bool   { return e.op == schema.OpRename && e.slot == 0 }
func (e oracleEntry) replacer() bool { return e.op == schema.OpWrite || e.op == schema.OpFetch }

// oracle judges every pair of touched paths directly from the
// specification's wording, with Same and Beneath (pairwise key comparison,
// no sorting), in O(n²). It returns the violations as sorted conflicts and,
// for each (intent, slot), the excused-prefix length.
func oracle(p []schema.Intent, eq Equality) ([]conflict, map[[2]int]int) {
	var out []conflict
	var es []oracleEntry
	for i, in := range p {
		for slot, s := range in.Paths() {
			path, err := Parse(s)
			if err != nil {
				out = append(out, conflict{rejection.All(err)[0].Rule, []int{i}})
				continue
			}
			es = append(es, oracleEntry{i, slot, in.Op(), path})
		}
	}
	type key struct {
		lo, hi int
		rule   schema.Rule
	}
	found := map[key]bool{}
	add := func(a, b oracleEntry, rule schema.Rule) {
		found[key{min(a.intent, b.intent), max(a.intent, b.intent), rule}] = true
	}
	// excuses: d is a delete and x, at or beneath its path, is excused by
	// it; at the delete's own path (same) a write or fetch is not.
	excuses := func(d, x oracleEntry, same bool) bool {
		return d.op == schema.OpDelete && !x.source() && !(same && x.replacer())
	}
	for x := range es {
		for y := x + 1; y < len(es); y++ {
			a, b := es[x], es[y]
			switch {
			case Same(eq, a.path, b.path):
				if !excuses(a, b, true) && !excuses(b, a, true) {
					add(a, b, schema.RuleConflictSamePath)
				}
			case Beneath(eq, b.path, a.path):
				if !excuses(a, b, false) {
					add(a, b, schema.RuleConflictNested)
				}
			case Beneath(eq, a.path, b.path):
				if !excuses(b, a, false) {
					add(b, a, schema.RuleConflictNested)
				}
			}
		}
	}
	for k := range found {
		in := []int{k.lo}
		if k.hi != k.lo {
			in = append(in, k.hi)
		}
		out = append(out, conflict{k.rule, in})
	}
	slices.SortFunc(out, func(a, b conflict) int { return strings.Compare(a.String(), b.String()) })

	prefix := map[[2]int]int{}
	for _, x := range es {
		k := 0
		for _, d := range es {
			if d.op != schema.OpDelete || d.intent == x.intent {
				continue
			}
			covered := Same(eq, d.path, x.path) && excuses(d, x, true) || Beneath(eq, x.path, d.path) && excuses(d, x, false)
			if covered && (k == 0 || d.path.Len() < k) {
				k = d.path.Len()
			}
		}
		prefix[[2]int{x.intent, x.slot}] = k
	}
	return out, prefix
}

// nearCollisions are components that are equal under some relations and
// not others: case, normalization, simple vs full folding, HFS+ ignorables.
var nearCollisions = []string{
	"a", "A", "b", "B", "caf\u00e9", "cafe\u0301", "CAF\u00c9", "k", "K", "\u212a",
	"\u00df", "ss", "SS", "\u1e9e", ".git", ".g\u200cit", ".GIT", "s", "\u017f", "\u00c5", "\u212b",
}

func randomPath(rng *rand.Rand) string {
	if rng.IntN(40) == 0 {
		return []string{"..", "a//b", "/abs", "con", "a:b", "x/"}[rng.IntN(6)]
	}
	n := 1 + rng.IntN(3)
	c := make([]string, n)
	for i := range c {
		c[i] = nearCollisions[rng.IntN(len(nearCollisions))]
	}
	return strings.Join(c, "/")
}

func randomIntent(rng *rand.Rand) schema.Intent {
	p := randomPath(rng)
	switch rng.IntN(8) {
	case 0, 1:
		return schema.Intent{Write: &schema.Write{Path: p}}
	case 2, 3, 4:
		return schema.Intent{Delete: &schema.Delete{Path: p}}
	case 5:
		return schema.Intent{Rename: &schema.Rename{From: p, To: randomPath(rng)}}
	case 6:
		return schema.Intent{Fetch: &schema.Fetch{URL: "https://example.org/x", Dest: p}}
	}
	return schema.Intent{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: p}}
}

// TestValidateAgreesWithOracle: on random plans full of near-collisions the
// sweep finds exactly the oracle's violations under every relation, and on
// the plans it accepts, the oracle's excused prefixes and a well-formed
// order. Deletes are frequent so that accepted plans are common too.
func TestValidateAgreesWithOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	accepted := 0
	const plans = 3000
	for trial := range plans {
		n := 1 + rng.IntN(10)
		ins := make([]schema.Intent, n)
		for i := range ins {
			ins[i] = randomIntent(rng)
		}
		p := decode(t, ins)
		for _, eq := range Equalities() {
			want, prefix := oracle(ins, eq)
			v, err := Validate(p, eq)
			got := violations(t, err)
			if !slices.EqualFunc(got, want, func(a, b conflict) bool {
				return a.rule == b.rule && slices.Equal(a.intents, b.intents)
			}) {
				t.Fatalf("trial %d, %s: plan %s\nsweep  %v\noracle %v", trial, eq.Name(), describePlan(ins), got, want)
			}
			if err != nil {
				continue
			}
			accepted++
			if v.Len() != n {
				t.Fatalf("%d steps for %d intents", v.Len(), n)
			}
			seen := map[int]bool{}
			for _, s := range v.Steps() {
				seen[s.Index()] = true
				for slot := range s.Paths() {
					if got, want := s.ExcusedPrefix(slot), prefix[[2]int{s.Index(), slot}]; got != want {
						t.Fatalf("trial %d, %s: plan %s: intent #%d slot %d excused prefix %d, oracle %d",
							trial, eq.Name(), describePlan(ins), s.Index(), slot, got, want)
					}
				}
			}
			if len(seen) != n {
				t.Fatalf("steps are not a permutation of the intents")
			}
			assertPhases(t, v, eq)
		}
	}
	if accepted < plans/10 {
		t.Errorf("only %d of %d random plan verdicts were acceptances: the generator is not exercising the order", accepted, plans*len(Equalities()))
	}
}

func describePlan(ins []schema.Intent) string {
	var parts []string
	for _, in := range ins {
		parts = append(parts, string(in.Op())+" "+strings.Join(in.Paths(), " -> "))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

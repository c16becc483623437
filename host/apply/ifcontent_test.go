package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func sumOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(h[:])
}

// Compare-and-swap: a write carrying if_content applies only when the
// file still holds what the plan was computed from ("sha256:<hex>" of its
// bytes, or "absent"). When any such file changed since (the user edited
// CLAUDE.md between the request and the apply), the whole plan is refused
// with conflict.changed, naming the intent, and nothing is applied, not
// even the plan's other, unconditional intents.
func TestIfContentRefusesThePlanWhenTheFileChanged(t *testing.T) {
	cases := []struct {
		name, on string // on: what the file holds now ("" = no file)
		if_      string
		ok       bool
	}{
		{"unchanged", "computed from", sumOf("computed from"), true},
		{"edited since", "the user's edit", sumOf("computed from"), false},
		{"removed since", "", sumOf("computed from"), false},
		{"absent and still absent", "", "absent", true},
		{"absent but created since", "the user's new file", "absent", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			spec := map[string]string{"other.md": "other"}
			if c.on != "" {
				spec["CLAUDE.md"] = c.on
			}
			tree(t, root, spec)
			before := snapshot(t, root)
			p, v := decode(t, `{"protocol":1,"intents":[
				{"op":"write","path":"new/x.md","content":"x"},
				{"op":"delete","path":"other.md"},
				{"op":"write","path":"CLAUDE.md","content":"lola's rewrite","if_content":"`+c.if_+`"}]}`)
			s, err := Begin(openRoot(t, root), Options{Key: testKey})
			must(t, err)
			defer s.Close()
			prep, err := s.Prepare(v, p)
			if c.ok {
				must(t, err)
				if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
					t.Fatalf("%+v", res)
				}
				return
			}
			wantRule(t, err, schema.RuleConflictChanged)
			vs := rejection.All(err)
			if len(vs) != 1 || len(vs[0].Intents) != 1 || vs[0].Intents[0].Index != 2 || !strings.Contains(vs[0].Detail, "CLAUDE.md") {
				t.Errorf("violations %+v, want one naming intent #2 and CLAUDE.md", vs)
			}
			if got := snapshot(t, root); got != before {
				t.Errorf("the tree changed:\n%s", diffLines(before, got))
			}
			noStaging(t, root)
		})
	}
}

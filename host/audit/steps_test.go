package audit

import (
	"strings"
	"testing"
)

func TestOutcomeStepTotals(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	// A kind outside the vocabulary is refused, not written as text.
	if err := l.Outcome(c, Committed().WithSteps(map[EventKind]int{"rm -rf": 1})); err == nil {
		t.Fatal("an outcome with a step kind outside the vocabulary was logged")
	}
	if err := l.Outcome(c, Committed().WithSteps(map[EventKind]int{EventPlaced: -1})); err == nil {
		t.Fatal("an outcome with a negative step count was logged")
	}
	must(t, l.Outcome(c, Committed().WithSteps(map[EventKind]int{EventPlaced: 3, EventStaged: 3, EventMkdir: 0})))
	es, err := Read(path, Filter{Kinds: []Kind{KindOutcome}})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d outcomes, %v", len(es), err)
	}
	if s := es[0].Outcome.Steps; len(s) != 2 || s[EventPlaced] != 3 || s[EventStaged] != 3 {
		t.Fatalf("steps %v", s)
	}
}

func TestOutcomeCreatedDirs(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c, Committed().WithCreatedDirs([]string{"skills/new", "/etc/secret-host-path", "skills"})))
	es, err := Read(path, Filter{Kinds: []Kind{KindOutcome}})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d outcomes, %v", len(es), err)
	}
	o := es[0].Outcome
	if len(o.Mkdir) != 2 || o.Mkdir[0] != "skills" || o.Mkdir[1] != "skills/new" || len(o.Unparsed) != 1 || o.Unparsed[0].Field != "mkdir" {
		t.Fatalf("outcome %+v", o)
	}
	if strings.Contains(string(readFile(t, path)), "secret-host-path") {
		t.Fatal("a path that does not parse was logged as text")
	}
}

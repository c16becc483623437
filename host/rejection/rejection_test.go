package rejection

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestViolationIsItsRuleOnly(t *testing.T) {
	v := New(schema.RuleConflictSamePath, "both write README.md",
		IntentRef{0, schema.OpWrite}, IntentRef{3, schema.OpDelete})
	err := fmt.Errorf("validate: %w", v)
	if !errors.Is(err, Rule(schema.RuleConflictSamePath)) {
		t.Fatal("errors.Is lost the rule through wrapping")
	}
	if errors.Is(err, Rule(schema.RuleConflictNested)) {
		t.Fatal("errors.Is matched a different rule")
	}
	if got, want := v.Error(), "conflict.same-path: intent #0 (write), intent #3 (delete): both write README.md"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, New(schema.RuleConflictSamePath, "other detail")) || errors.Is(err, New(schema.RuleConflictNested, "")) {
		t.Fatal("errors.Is with a *Violation target does not compare rules")
	}
	var back *Violation
	if !errors.As(err, &back) || back != v {
		t.Fatal("errors.As did not recover the violation")
	}
	if got := back.IntentIndices(); len(got) != 2 || got[0] != 0 || got[1] != 3 {
		t.Fatalf("IntentIndices = %v, want [0 3]", got)
	}
}

func TestSetCarriesEveryViolation(t *testing.T) {
	var s Set
	if s.Err() != nil {
		t.Fatal("an empty set is an error")
	}
	s.Add(New(schema.RulePathAbsolute, "", IntentRef{1, schema.OpWrite}))
	s.Add(nil)
	s.Add(New(schema.RulePathTraversal, "", IntentRef{2, schema.OpDelete}))
	err := fmt.Errorf("x: %w", s.Err())
	for _, r := range []schema.Rule{schema.RulePathAbsolute, schema.RulePathTraversal} {
		if !errors.Is(err, Rule(r)) {
			t.Errorf("set lost %v", r)
		}
	}
	if n := len(All(err)); n != 2 {
		t.Fatalf("All found %d violations, want 2", n)
	}
	if got, want := s.Error(), "path.absolute: intent #1 (write)\npath.traversal: intent #2 (delete)"; got != want {
		t.Fatalf("Set.Error() = %q, want %q", got, want)
	}
	if All(errors.New("not a rejection")) != nil {
		t.Fatal("All found violations in a plain error")
	}
	if n := len(All(New(schema.RulePlanMalformed, ""))); n != 1 {
		t.Fatalf("All of a lone violation = %d", n)
	}
}

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
	if n := len(All(New(schema.RulePlanMalformed, ""))); n != 1 {
		t.Fatalf("All of a lone violation = %d", n)
	}
}

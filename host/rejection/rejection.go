// Package rejection is the typed form of a refusal: a rule from the closed
// vocabulary (schema.Rule), the intents it concerns, and a detail for people.
//
// Errors stay typed until the CLI renders them: errors.Is(err, rule) holds
// for a *Violation or *Set carrying that rule, and errors.As recovers them.
// Detail never carries a host absolute path, a credential or a content body;
// code that builds a Violation from untrusted text must keep it that way.
package rejection

import (
	"errors"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// IntentRef names one intent of a plan by its index in the plan as emitted
// and its op.
type IntentRef struct {
	Index int       `json:"index"`
	Op    schema.Op `json:"op"`
}

// Violation is one refusal. It implements error.
type Violation struct {
	Rule    schema.Rule
	Intents []IntentRef
	Detail  string
}

// New returns a violation of rule with a detail and the intents it names.
func New(rule schema.Rule, detail string, intents ...IntentRef) *Violation {
	return &Violation{Rule: rule, Intents: intents, Detail: detail}
}

// Error renders "rule: intent #i (op), ...: detail" by explicit text.
func (v *Violation) Error() string {
	var b strings.Builder
	b.WriteString(v.Rule.String())
	for i, ref := range v.Intents {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString("intent #")
		b.WriteString(strconv.Itoa(ref.Index))
		if ref.Op != "" {
			b.WriteString(" (")
			b.WriteString(string(ref.Op))
			b.WriteString(")")
		}
	}
	if v.Detail != "" {
		b.WriteString(": ")
		b.WriteString(v.Detail)
	}
	return b.String()
}

// Is reports whether target is this violation's rule (a schema.Rule value)
// or a *Violation with the same rule.
func (v *Violation) Is(target error) bool {
	switch t := target.(type) {
	case ruleError:
		return v.Rule == t.rule
	case *Violation:
		return v.Rule == t.Rule
	}
	return false
}

// IntentIndices returns the indices of the intents the violation names.
func (v *Violation) IntentIndices() []int {
	out := make([]int, len(v.Intents))
	for i, r := range v.Intents {
		out[i] = r.Index
	}
	return out
}

type ruleError struct{ rule schema.Rule }

func (r ruleError) Error() string { return r.rule.String() }

// Rule returns a sentinel for errors.Is: errors.Is(err, rejection.Rule(r))
// holds for any Violation or Set in err's chain carrying r.
func Rule(r schema.Rule) error { return ruleError{r} }

// Set is every violation found in one plan. Whole-plan validation reports
// them all, not only the first. It implements error.
type Set struct {
	Violations []*Violation
}

// Add appends v; a nil v is ignored.
func (s *Set) Add(v *Violation) {
	if v != nil {
		s.Violations = append(s.Violations, v)
	}
}

// Err returns s as an error, or nil when it holds no violation.
func (s *Set) Err() error {
	if s == nil || len(s.Violations) == 0 {
		return nil
	}
	return s
}

// Error renders every violation, one per line.
func (s *Set) Error() string {
	parts := make([]string, len(s.Violations))
	for i, v := range s.Violations {
		parts[i] = v.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap exposes each violation to errors.Is and errors.As.
func (s *Set) Unwrap() []error {
	out := make([]error, len(s.Violations))
	for i, v := range s.Violations {
		out[i] = v
	}
	return out
}

// All returns every violation in err: the members of a *Set, a lone
// *Violation, or nil when err carries none.
func All(err error) []*Violation {
	var s *Set
	if errors.As(err, &s) {
		return s.Violations
	}
	var v *Violation
	if errors.As(err, &v) {
		return []*Violation{v}
	}
	return nil
}

// Entry is one violation as a --json report spells it:
// {"rule": ..., "intents": [...], "detail": ...}. Intents is empty, never
// null, for a violation that names no intent.
type Entry struct {
	Rule    schema.Rule `json:"rule"`
	Intents []int       `json:"intents"`
	Detail  string      `json:"detail"`
}

// Entries is an Entry for each violation in err (see All), in order; nil
// when err holds none.
func Entries(err error) []Entry {
	var out []Entry
	for _, v := range All(err) {
		out = append(out, Entry{Rule: v.Rule, Intents: v.IntentIndices(), Detail: v.Detail})
	}
	return out
}

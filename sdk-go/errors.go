package lola

import (
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// BuildError is the plan builder's refusal of one intent, named by the rule
// the host would reject it under. It never carries a content body or a URL
// (which could hold a credential); a path or name is quoted, escaped
// and truncated.
type BuildError struct {
	Rule   schema.Rule // the host's rule for this refusal
	Op     schema.Op   // the intent being added; "" for a request-side error
	Index  int         // the index the intent would have had in the plan
	Field  string      // the wire name of the offending member, e.g. "path"
	Detail string      // for people
}

// Error renders "lola: <rule>: <op> #<index> <field>: <detail>".
func (e *BuildError) Error() string {
	var b strings.Builder
	b.WriteString("lola: ")
	b.WriteString(e.Rule.String())
	b.WriteString(": ")
	if e.Op != "" {
		b.WriteString(string(e.Op))
		b.WriteString(" #")
		b.WriteString(strconv.Itoa(e.Index))
		b.WriteString(" ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	return b.String()
}

// Is reports whether target is RuleError(e.Rule).
func (e *BuildError) Is(target error) bool {
	t, ok := target.(ruleError)
	return ok && schema.Rule(t) == e.Rule
}

type ruleError schema.Rule

func (r ruleError) Error() string { return schema.Rule(r).String() }

// RuleError returns a target for errors.Is that matches every *BuildError
// carrying rule: errors.Is(err, lola.RuleError(schema.RulePathTraversal)).
func RuleError(rule schema.Rule) error { return ruleError(rule) }

// quote renders untrusted text for a diagnostic as the host does for a
// name: at most lexical.NameEcho bytes, cut at a rune boundary, quoted
// with every non-ASCII or non-printable byte escaped.
func quote(s string) string { return lexical.Quote(s, lexical.NameEcho) }

// RuleRequestInvalid is how a handler's refusal of the request itself is
// spelled on stderr: the spelling sdk-rust and sdk-assemblyscript use too.
const RuleRequestInvalid = "request.invalid"

// RequestError is a handler's refusal of the request it was given (see
// BadRequest). Its detail is the handler's own text.
type RequestError struct {
	Detail string
}

// Error renders "lola: request.invalid: <detail>".
func (e *RequestError) Error() string { return "lola: " + RuleRequestInvalid + ": " + e.Detail }

// BadRequest is the error a handler returns to refuse the request itself
// rather than fail: a module without the inventory the target needs, a
// scope or operation it cannot serve, a module name it cannot place. The
// run ends with StatusBadRequest (1, "bad-request" in docs/abi.md), the
// status a request that is not protocol 1 gets, instead of
// StatusHandlerError (2); no plan is emitted and the message goes to
// stderr. It may be wrapped (fmt.Errorf with %w): errors.As finds it.
func BadRequest(detail string) error { return &RequestError{Detail: detail} }

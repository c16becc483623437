// Package plan decodes a plan from untrusted bytes, strictly and within
// bounds, into a *Plan: the proof that the bytes were a well-formed plan of
// this protocol. Only this package constructs a *Plan.
//
// Decoding is strict, the opposite of encoding/json's leniency: duplicate
// keys, unknown members at any level, invalid UTF-8, lone surrogates,
// trailing data and wrong types are each refused with their own rule from
// the closed vocabulary (schema.Rule), and every bound is enforced while
// reading, not after. Besides the standard library the package depends
// only on the protocol types (schema), the protocol's lexical rules
// (schema/lexical) and the typed refusals (rejection).
package plan

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/lola-pm/lola/schema"
)

// Limits bounds one decode. The zero value is not valid; build with
// NewLimits or DefaultLimits.
type Limits struct {
	maxBytes   int64
	maxIntents int
	maxField   int64
}

// NewLimits validates and returns limits: every bound must be positive.
func NewLimits(maxBytes int64, maxIntents int, maxField int64) (Limits, error) {
	if maxBytes <= 0 || maxIntents <= 0 || maxField <= 0 {
		return Limits{}, fmt.Errorf("plan limits must be positive (bytes %d, intents %d, field %d)", maxBytes, maxIntents, maxField)
	}
	return Limits{maxBytes: maxBytes, maxIntents: maxIntents, maxField: maxField}, nil
}

// DefaultLimits: 64 MiB of plan, 100 000 intents, 16 MiB per string.
func DefaultLimits() Limits {
	return Limits{maxBytes: 64 << 20, maxIntents: 100_000, maxField: 16 << 20}
}

// MaxBytes is the total byte bound.
func (l Limits) MaxBytes() int64 { return l.maxBytes }

// MaxIntents is the intent-count bound.
func (l Limits) MaxIntents() int { return l.maxIntents }

// MaxField is the bound on any one string of the plan (a path, a content,
// a URL, a header name or value), in bytes after JSON unescaping; for
// base64 content that is the base64 text.
func (l Limits) MaxField() int64 { return l.maxField }

// Plan is a decoded plan. Its intents are exactly those on the wire, in
// emission order; nothing about paths, conflicts or policy has been checked.
// A Plan is immutable (every accessor returns a copy), so it is safe for
// concurrent use.
type Plan struct {
	intents []schema.Intent
	dropped []DroppedHeader
}

// DroppedHeader is a fetch header the decoder removed: Index is the intent,
// Name the header as spelled in the plan. Its value is not kept.
type DroppedHeader struct {
	Index int
	Name  string
}

// DroppedHeaders returns the headers dropped from fetch intents
// (Authorization, Cookie, Proxy-Authorization in any case), in plan order,
// so the audit log can record the attempt. The slice is a copy.
func (p *Plan) DroppedHeaders() []DroppedHeader {
	if len(p.dropped) == 0 {
		return nil
	}
	return append([]DroppedHeader(nil), p.dropped...)
}

// Body returns the decoded bytes of write intent i: the content itself for
// utf8, the decoded bytes for base64. The slice is fresh on every call. It
// is an error when i is out of range or intent i is not a write.
func (p *Plan) Body(i int) ([]byte, error) {
	if i < 0 || i >= len(p.intents) {
		return nil, fmt.Errorf("plan: intent %d out of range (plan has %d)", i, len(p.intents))
	}
	w := p.intents[i].Write
	if w == nil {
		return nil, fmt.Errorf("plan: intent %d is %s, not write", i, p.intents[i].Op())
	}
	if w.Encoding == schema.EncodingBase64 {
		return strictBase64.DecodeString(w.Content) // validated by Decode
	}
	return []byte(w.Content), nil
}

// Len is the number of intents.
func (p *Plan) Len() int { return len(p.intents) }

// Intent returns a copy of intent i.
func (p *Plan) Intent(i int) schema.Intent { return p.intents[i].DeepCopy() }

// Intents returns a copy of every intent, in emission order.
func (p *Plan) Intents() []schema.Intent {
	out := make([]schema.Intent, len(p.intents))
	for i, in := range p.intents {
		out[i] = in.DeepCopy()
	}
	return out
}

// Decode reads one plan from r within l: one JSON object of the plan's
// shape, followed only by whitespace up to end of input.
//
// Decode reads r incrementally. A violation of a value it has read whole
// (an unknown op or encoding, a wrong protocol, a duplicated or misplaced
// member the protocol defines, invalid UTF-8 in a string, a missing
// member, a remote rule) is noted and decoding goes on, so the refusal
// names every such violation, in input order, up to 1000. Any other
// violation (broken JSON, an unknown member, whose value has no type, a
// bound) ends the decode at once: it never reads past byte MaxBytes+1,
// stops within the offending string once a field exceeds MaxField, and
// refuses the intent past MaxIntents before reading it, so a caller
// reading a child's stdout can kill the child at once. A refusal is a
// *rejection.Violation naming its rule, or a *rejection.Set of them when
// there are several (errors.Is with rejection.Rule and rejection.All
// work); which rules are a function of the bytes alone, never of how r
// chunks them. A failure of r itself is a *ReadError. Limits
// that did not come from NewLimits or DefaultLimits are an error.
//
// The accepted plan's intents are exactly those on the wire, in order,
// except that Authorization, Cookie and Proxy-Authorization fetch headers
// are dropped (see DroppedHeaders) and an empty headers object reads as
// none. Decode checks the plan's syntax, shape, bounds, encodings and the
// lexical remote rules; paths, conflicts, capabilities and destinations are
// other packages' rules.
func Decode(r io.Reader, l Limits) (*Plan, error) {
	if l.maxBytes <= 0 || l.maxIntents <= 0 || l.maxField <= 0 {
		return nil, errors.New("plan: limits not built by NewLimits or DefaultLimits")
	}
	d := &decoder{src: newSource(r, l.maxBytes), lim: l, index: -1}
	if err := d.result(d.decodePlan()); err != nil {
		return nil, err
	}
	return &Plan{intents: d.intents, dropped: d.dropped}, nil
}

// ReadError is a failure of the reader Decode was given (not a property of
// the plan): Offset is how many bytes had been consumed.
type ReadError struct {
	Offset int64
	Err    error
}

func (e *ReadError) Error() string {
	return "plan: reading at byte " + strconv.FormatInt(e.Offset, 10) + ": " + e.Err.Error()
}

func (e *ReadError) Unwrap() error { return e.Err }

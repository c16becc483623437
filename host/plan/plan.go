// Package plan decodes a plan from untrusted bytes, strictly and within
// bounds, into a *Plan: the proof that the bytes were a well-formed plan of
// this protocol. Only this package constructs a *Plan.
//
// PROVISIONAL: this file fixes the API; the strict streaming decoder replaces
// the body of Decode.
package plan

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/lola-pm/lola/host/rejection"
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

// DefaultLimits: 64 MiB of plan, 100 000 intents, 16 MiB per content field.
func DefaultLimits() Limits {
	return Limits{maxBytes: 64 << 20, maxIntents: 100_000, maxField: 16 << 20}
}

// MaxBytes is the total byte bound.
func (l Limits) MaxBytes() int64 { return l.maxBytes }

// MaxIntents is the intent-count bound.
func (l Limits) MaxIntents() int { return l.maxIntents }

// MaxField is the bound on one content field, in encoded bytes.
func (l Limits) MaxField() int64 { return l.maxField }

// Plan is a decoded plan. Its intents are exactly those on the wire, in
// emission order; nothing about paths, conflicts or policy has been checked.
type Plan struct {
	intents []schema.Intent
}

// Len is the number of intents.
func (p *Plan) Len() int { return len(p.intents) }

// Intent returns a copy of intent i.
func (p *Plan) Intent(i int) schema.Intent { return copyIntent(p.intents[i]) }

// Intents returns a copy of every intent, in emission order.
func (p *Plan) Intents() []schema.Intent {
	out := make([]schema.Intent, len(p.intents))
	for i, in := range p.intents {
		out[i] = copyIntent(in)
	}
	return out
}

func copyIntent(in schema.Intent) schema.Intent {
	switch {
	case in.Write != nil:
		w := *in.Write
		return schema.Intent{Write: &w}
	case in.Delete != nil:
		d := *in.Delete
		return schema.Intent{Delete: &d}
	case in.Rename != nil:
		r := *in.Rename
		return schema.Intent{Rename: &r}
	case in.Fetch != nil:
		f := *in.Fetch
		if in.Fetch.Headers != nil {
			f.Headers = make(map[string]string, len(in.Fetch.Headers))
			for k, v := range in.Fetch.Headers {
				f.Headers[k] = v
			}
		}
		return schema.Intent{Fetch: &f}
	case in.Clone != nil:
		c := *in.Clone
		return schema.Intent{Clone: &c}
	}
	return schema.Intent{}
}

// Decode reads one plan from r within l. It stops reading as soon as a bound
// is exceeded, so a caller reading a child's stdout can kill the child at
// once. Every refusal is a *rejection.Violation naming its rule.
func Decode(r io.Reader, l Limits) (*Plan, error) {
	b, err := io.ReadAll(io.LimitReader(r, l.maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > l.maxBytes {
		return nil, rejection.New(schema.RulePlanTooLarge, fmt.Sprintf("plan exceeds %d bytes", l.maxBytes))
	}
	var p schema.Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, rejection.New(schema.RulePlanMalformed, "not a plan")
	}
	return &Plan{intents: p.Intents}, nil
}

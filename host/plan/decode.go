package plan

import (
	"io"
	"strconv"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// maxMemberName bounds a member name of the plan's own objects: longer than
// any member the protocol defines, so a longer name is unknown and refused
// without reading the rest of it.
const maxMemberName = 32

// MaxCloneDepth is the largest clone depth a plan may ask for. A larger one
// is absurd (no history is that deep) and could not be represented on every
// platform, so it is plan.malformed like a negative one.
const MaxCloneDepth = 1<<31 - 1

// decoder is the state of one Decode: the source, the bounds, and scratch
// space reused across strings so that a plan costs one allocation per value
// it keeps.
type decoder struct {
	src     *source
	lim     Limits
	key     []byte
	val     []byte
	scratch []byte    // base64 validation
	index   int       // intent being decoded, or -1 outside the intents array
	op      schema.Op // of the intent being decoded, once read
	shape   opShape   // of op
	intents []schema.Intent
	dropped []DroppedHeader
	// found holds the violations noted so far (note): decoding went on
	// past each, since the input around it was fully read.
	found rejection.Set
	// badOp marks an intent whose op was refused: its members are still
	// read by their types, and build adds no second violation for it.
	badOp bool
}

// maxNoted bounds the violations one decode reports; the next one ends
// the decode (it is reported too), so a hostile plan of many small
// violations costs bounded memory.
const maxNoted = 1000

// note records err and returns nil so decoding goes on, when err is a
// violation found at a point where the value it concerns was read whole
// (the caller's promise) and the bound on noted violations is not
// reached; otherwise it returns err, which ends the decode.
func (d *decoder) note(err error) error {
	v, ok := err.(*rejection.Violation)
	if !ok || len(d.found.Violations) >= maxNoted {
		return err
	}
	d.found.Add(v)
	return nil
}

// result is the decode's verdict: every noted violation plus the one that
// ended it (fatal), as one violation when there is just one.
func (d *decoder) result(fatal error) error {
	if len(d.found.Violations) == 0 {
		return fatal
	}
	if fatal != nil {
		v, ok := fatal.(*rejection.Violation)
		if !ok {
			return fatal // the reader failed: that is the news
		}
		d.found.Add(v)
	}
	if len(d.found.Violations) == 1 {
		return d.found.Violations[0]
	}
	return &d.found
}

// violation builds a rejection of rule; inside the intents array it names
// the intent (and its op once known), and ctx names the member.
func (d *decoder) violation(rule schema.Rule, ctx, what string) error {
	detail := what
	if ctx != "" && !(ctx == "intent" && d.index >= 0) {
		detail = ctx + ": " + what
	}
	if d.index < 0 {
		return rejection.New(rule, detail)
	}
	return rejection.New(rule, detail, rejection.IntentRef{Index: d.index, Op: d.op})
}

// nextKey reads the next member name of an object whose '{' is consumed:
// first says no member has been read yet. It returns ok=false at the
// closing brace, and otherwise the name (valid until the next read) with
// the colon consumed. A name longer than limit is errOverLimit.
func (d *decoder) nextKey(first bool, limit int64, ctx string) (key []byte, ok bool, err error) {
	c, err := d.skipSpace(ctx)
	if err != nil {
		return nil, false, err
	}
	if c == '}' {
		d.src.pos++
		return nil, false, nil
	}
	if !first {
		if c != ',' {
			return nil, false, d.malformed(ctx, "expected ',' or '}'")
		}
		d.src.pos++
		if c, err = d.skipSpace(ctx); err != nil {
			return nil, false, err
		}
	}
	if c != '"' {
		return nil, false, d.malformed(ctx, "expected a member name")
	}
	d.src.pos++
	d.key, err = d.readString(d.key, limit, "member name")
	if w, ok := err.(*wholeStringError); ok {
		err = w.v // a name: what it names is unknown, so the decode ends
	}
	if err != nil {
		return nil, false, err
	}
	if err := d.expect(':', ctx, "':'"); err != nil {
		return nil, false, err
	}
	return d.key, true, nil
}

// stringValue reads a string value of member ctx, capped at the field bound.
func (d *decoder) stringValue(ctx string) (string, error) {
	c, err := d.skipSpace(ctx)
	if err != nil {
		return "", err
	}
	if c != '"' {
		return "", d.malformed(ctx, "expected a string")
	}
	d.src.pos++
	d.val, err = d.readString(d.val, d.lim.maxField, ctx)
	if w, ok := err.(*wholeStringError); ok {
		err = d.note(w.v) // read to its closing quote: decoding may go on
	}
	if err == errOverLimit {
		return "", d.violation(schema.RulePlanFieldTooLarge, ctx, "longer than "+strconv.FormatInt(d.lim.maxField, 10)+" bytes")
	}
	if err != nil {
		return "", err
	}
	return string(d.val), nil
}

// unknownMember refuses a member name the object does not define.
func (d *decoder) unknownMember(ctx string, name []byte, err error) error {
	if err == errOverLimit {
		return d.violation(schema.RulePlanUnknownField, ctx, "member name longer than any the protocol defines")
	}
	return d.violation(schema.RulePlanUnknownField, ctx, "unknown member "+lexical.Quote(string(name), lexical.NameEcho))
}

// decodePlan reads the top-level object and then insists on end of input.
func (d *decoder) decodePlan() error {
	const ctx = "plan"
	if err := d.expect('{', ctx, "a JSON object"); err != nil {
		return err
	}
	var haveProtocol, haveIntents bool
	for first := true; ; first = false {
		key, ok, err := d.nextKey(first, maxMemberName, ctx)
		if err == errOverLimit {
			return d.unknownMember(ctx, nil, err)
		}
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch string(key) {
		case "protocol":
			if haveProtocol {
				return d.violation(schema.RulePlanDuplicateKey, ctx, `member "protocol" named twice`)
			}
			haveProtocol = true
			if err := d.protocol(); err != nil {
				return err
			}
		case "intents":
			if haveIntents {
				return d.violation(schema.RulePlanDuplicateKey, ctx, `member "intents" named twice`)
			}
			haveIntents = true
			if err := d.intentList(); err != nil {
				return err
			}
		default:
			return d.unknownMember(ctx, key, nil)
		}
	}
	if !haveProtocol {
		return d.violation(schema.RulePlanMissingField, ctx, `member "protocol" is required`)
	}
	if !haveIntents {
		return d.violation(schema.RulePlanMissingField, ctx, `member "intents" is required`)
	}
	return d.endOfInput()
}

// endOfInput accepts only whitespace after the plan, up to end of input.
func (d *decoder) endOfInput() error {
	s := d.src
	for {
		for s.pos < s.end {
			switch s.buf[s.pos] {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return d.malformed("plan", "trailing data after the plan object")
			}
		}
		err := s.fill()
		if err == io.EOF {
			return nil // end of input: the only acceptable ending
		}
		if err != nil {
			return d.eofOr(err, "plan")
		}
	}
}

func (d *decoder) protocol() error {
	const ctx = `member "protocol"`
	c, err := d.skipSpace(ctx)
	if err != nil {
		return err
	}
	if c != '-' && (c < '0' || c > '9') {
		return d.malformed(ctx, "expected an integer")
	}
	v, err := d.readInt(ctx)
	if err != nil {
		return err
	}
	if v != schema.Protocol {
		return d.note(d.violation(schema.RulePlanProtocol, ctx, "version "+strconv.FormatInt(v, 10)+" is not "+strconv.Itoa(schema.Protocol)))
	}
	return nil
}

// intentList reads the intents array, refusing the element that would
// exceed the intent bound before reading any of it.
func (d *decoder) intentList() error {
	const ctx = `member "intents"`
	if err := d.expect('[', ctx, "an array"); err != nil {
		return err
	}
	for n := 0; ; n++ {
		c, err := d.skipSpace(ctx)
		if err != nil {
			return err
		}
		if c == ']' {
			d.src.pos++
			return nil
		}
		if n > 0 {
			if c != ',' {
				return d.malformed(ctx, "expected ',' or ']'")
			}
			d.src.pos++
			if c, err = d.skipSpace(ctx); err != nil {
				return err
			}
		}
		if n == d.lim.maxIntents {
			return d.violation(schema.RulePlanTooManyIntents, ctx, "more than "+strconv.Itoa(d.lim.maxIntents)+" intents")
		}
		if c != '{' {
			return d.malformed(ctx, "expected an intent object")
		}
		d.src.pos++
		d.index, d.op, d.shape, d.badOp = n, "", opShape{}, false
		in, ok, err := d.intent()
		if err != nil {
			return err
		}
		if ok {
			d.intents = append(d.intents, in)
		}
		d.index, d.op, d.shape, d.badOp = -1, "", opShape{}, false
	}
}

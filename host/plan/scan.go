package plan

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The tokenizer: RFC 8259 JSON read byte by byte from the source, with no
// leniency. Whitespace is space, tab, CR and LF only; strings must be valid
// UTF-8 after unescaping, with no unescaped control character and no escaped
// lone surrogate; numbers follow the RFC grammar exactly. The structural
// parser (decode.go) asks for the token it expects next, so an unexpected
// token is refused at its first byte and nothing is ever skipped unread.

// errOverLimit is returned by readString when the string exceeds the limit
// it was given; the caller knows which rule that is.
var errOverLimit = errors.New("string over limit")

// maxNumberLen bounds a number token. Every number in a plan is a small
// integer; anything longer is refused before it is parsed.
const maxNumberLen = 24

// malformed is the plan.malformed violation at the current offset.
func (d *decoder) malformed(ctx, what string) error {
	return d.violation(schema.RulePlanMalformed, ctx, what+" at byte "+strconv.FormatInt(d.src.offset(), 10))
}

// eofOr turns the end of input into plan.malformed; other errors (a
// violation from the source, or the reader's own error) pass through.
func (d *decoder) eofOr(err error, ctx string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return d.malformed(ctx, "unexpected end of input")
	}
	var v *rejection.Violation
	if errors.As(err, &v) {
		return err
	}
	return &ReadError{Offset: d.src.offset(), Err: err}
}

// peek returns the next byte without consuming it.
func (d *decoder) peek(ctx string) (byte, error) {
	s := d.src
	if s.pos == s.end {
		if err := s.fill(); err != nil {
			return 0, d.eofOr(err, ctx)
		}
	}
	return s.buf[s.pos], nil
}

// skipSpace consumes JSON whitespace and returns the next byte, unconsumed.
func (d *decoder) skipSpace(ctx string) (byte, error) {
	s := d.src
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, nil
			}
		}
		if err := s.fill(); err != nil {
			return 0, d.eofOr(err, ctx)
		}
	}
}

// expect skips whitespace and consumes c, or refuses the input as malformed.
func (d *decoder) expect(c byte, ctx, what string) error {
	got, err := d.skipSpace(ctx)
	if err != nil {
		return err
	}
	if got != c {
		return d.malformed(ctx, "expected "+what)
	}
	d.src.pos++
	return nil
}

// readByte consumes one byte.
func (d *decoder) readByte(ctx string) (byte, error) {
	c, err := d.peek(ctx)
	if err == nil {
		d.src.pos++
	}
	return c, err
}

// plainStringByte reports the bytes a string holds as they are: all but the
// quote, the backslash and the control characters.
var plainStringByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// wholeStringError is a violation of a string read to its closing quote:
// the input after it is where the grammar expects, so a value's decoding
// may go on past it (decoder.note).
type wholeStringError struct{ v error }

func (e *wholeStringError) Error() string { return e.v.Error() }

// readString reads a string whose opening quote has been consumed, appending
// its unescaped bytes to dst[:0]. It returns errOverLimit as soon as more
// than limit bytes have been decoded, without reading further, so a huge
// field costs at most limit bytes of memory and one chunk of input.
func (d *decoder) readString(dst []byte, limit int64, ctx string) ([]byte, error) {
	s := d.src
	dst = dst[:0]
	for {
		if s.pos == s.end {
			if err := s.fill(); err != nil {
				return dst, d.eofOr(err, ctx)
			}
		}
		chunk := s.buf[s.pos:s.end]
		i := 0
		for i < len(chunk) && plainStringByte[chunk[i]] {
			i++
		}
		if int64(len(dst)+i) > limit {
			return dst, errOverLimit
		}
		dst = appendWithin(dst, chunk[:i], limit)
		s.pos += i
		if i == len(chunk) {
			continue
		}
		switch c := chunk[i]; {
		case c == '"':
			s.pos++
			if !utf8.Valid(dst) {
				return dst, &wholeStringError{d.violation(schema.RulePlanInvalidUTF8, ctx, "string is not valid UTF-8")}
			}
			return dst, nil
		case c < 0x20:
			return dst, d.malformed(ctx, "unescaped control character in string")
		}
		s.pos++ // the backslash
		r, err := d.readEscape(ctx)
		if err != nil {
			return dst, err
		}
		if int64(len(dst)+utf8.RuneLen(r)) > limit {
			return dst, errOverLimit
		}
		dst = utf8.AppendRune(dst, r)
	}
}

// appendWithin appends b to dst, growing it by doubling but never past
// limit (which len(dst)+len(b) is known not to exceed): the buffers for a
// refused field cost at most about three times the field bound in total,
// and two at once, where append's gentler growth for large slices would
// cost about five.
func appendWithin(dst, b []byte, limit int64) []byte {
	if need := len(dst) + len(b); need > cap(dst) {
		n := 2 * cap(dst)
		if n < need {
			n = need
		}
		if int64(n) > limit {
			n = int(limit)
		}
		grown := make([]byte, len(dst), n)
		copy(grown, dst)
		dst = grown
	}
	return append(dst, b...)
}

// readEscape reads one escape after its backslash. A \u escape of a high
// surrogate must be followed by a \u escape of a low one; any other
// surrogate is plan.invalid-utf8, since it names no character.
func (d *decoder) readEscape(ctx string) (rune, error) {
	c, err := d.readByte(ctx)
	if err != nil {
		return 0, err
	}
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		return 0, d.malformed(ctx, "invalid escape in string")
	}
	r, err := d.readHex4(ctx)
	if err != nil {
		return 0, err
	}
	switch {
	case r >= 0xDC00 && r <= 0xDFFF:
		return 0, d.violation(schema.RulePlanInvalidUTF8, ctx, "escaped lone low surrogate")
	case r < 0xD800 || r > 0xDBFF:
		return r, nil
	}
	// A high surrogate: the pair's second half must follow at once.
	for _, want := range []byte{'\\', 'u'} {
		c, err := d.peek(ctx)
		if err != nil {
			return 0, err
		}
		if c != want {
			return 0, d.violation(schema.RulePlanInvalidUTF8, ctx, "escaped lone high surrogate")
		}
		d.src.pos++
	}
	lo, err := d.readHex4(ctx)
	if err != nil {
		return 0, err
	}
	if lo < 0xDC00 || lo > 0xDFFF {
		return 0, d.violation(schema.RulePlanInvalidUTF8, ctx, "escaped lone high surrogate")
	}
	return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), nil
}

func (d *decoder) readHex4(ctx string) (rune, error) {
	var r rune
	for k := 0; k < 4; k++ {
		c, err := d.readByte(ctx)
		if err != nil {
			return 0, err
		}
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, d.malformed(ctx, "invalid \\u escape")
		}
	}
	return r, nil
}

// readInt reads a number token and returns it as an integer. The token must
// match the JSON number grammar; a fraction or an exponent is refused as
// not an integer, since every number in a plan is a count or a version.
func (d *decoder) readInt(ctx string) (int64, error) {
	var tok [maxNumberLen]byte
	n := 0
	for {
		c, err := d.peek(ctx)
		if err != nil {
			return 0, err
		}
		if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
			break
		}
		if n == len(tok) {
			return 0, d.malformed(ctx, "number too long")
		}
		tok[n] = c
		n++
		d.src.pos++
	}
	t := tok[:n]
	digits := t
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || digits[0] < '0' || digits[0] > '9' {
		return 0, d.malformed(ctx, "expected a number")
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			if validNumber(t) {
				return 0, d.malformed(ctx, "expected an integer")
			}
			return 0, d.malformed(ctx, "invalid number")
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return 0, d.malformed(ctx, "invalid number (leading zero)")
	}
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		return 0, d.malformed(ctx, "integer out of range")
	}
	return v, nil
}

// validNumber reports whether t is a JSON number (RFC 8259 section 6).
func validNumber(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	switch {
	case i < len(t) && t[i] == '0':
		i++
	case i < len(t) && t[i] >= '1' && t[i] <= '9':
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		start := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		start := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(t)
}

// readBool skips whitespace and reads true or false.
func (d *decoder) readBool(ctx string) (bool, error) {
	c, err := d.skipSpace(ctx)
	if err != nil {
		return false, err
	}
	want, v := "false", false
	if c == 't' {
		want, v = "true", true
	} else if c != 'f' {
		return false, d.malformed(ctx, "expected true or false")
	}
	for k := 0; k < len(want); k++ {
		c, err := d.readByte(ctx)
		if err != nil {
			return false, err
		}
		if c != want[k] {
			return false, d.malformed(ctx, "expected true or false")
		}
	}
	return v, nil
}

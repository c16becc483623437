package jsonconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Value is a JSON value with its object members in document order, as
// Python's json module keeps them.
type Value struct {
	Kind    Kind
	Str     string   // String; Number holds its literal text
	Bool    bool     // Bool
	Items   []Value  // Array
	Members []Member // Object
}

// Kind is a JSON value's type.
type Kind int

// JSON value kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Member is one member of an object.
type Member struct {
	Key   string
	Value Value
}

// Get returns the value of key k of an object.
func (v Value) Get(k string) (Value, bool) {
	for _, m := range v.Members {
		if m.Key == k {
			return m.Value, true
		}
	}
	return Value{}, false
}

// Set sets key k of an object: in place when present, else appended (a
// Python dict assignment).
func (v *Value) Set(k string, x Value) {
	for i, m := range v.Members {
		if m.Key == k {
			v.Members[i].Value = x
			return
		}
	}
	v.Members = append(v.Members, Member{Key: k, Value: x})
}

// Str returns a string value.
func Str(s string) Value { return Value{Kind: String, Str: s} }

// NewObject returns an empty object.
func NewObject() Value { return Value{Kind: Object, Members: []Member{}} }

// ErrNotJSON is returned for a document that is not one strict JSON value.
var ErrNotJSON = errors.New("not valid JSON (comments and trailing commas are not JSON)")

// Parse reads one JSON value keeping member order; a key repeated in one
// object keeps its first position and its last value, as Python does.
func Parse(b []byte) (Value, error) {
	if !json.Valid(b) {
		return Value{}, ErrNotJSON
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return decode(d)
}

func decode(d *json.Decoder) (Value, error) {
	t, err := d.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			v := Value{Kind: Array, Items: []Value{}}
			for d.More() {
				x, err := decode(d)
				if err != nil {
					return Value{}, err
				}
				v.Items = append(v.Items, x)
			}
			_, err := d.Token()
			return v, err
		}
		v := NewObject()
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return Value{}, err
			}
			x, err := decode(d)
			if err != nil {
				return Value{}, err
			}
			v.Set(k.(string), x)
		}
		_, err := d.Token()
		return v, err
	case string:
		return Str(t), nil
	case json.Number:
		return Value{Kind: Number, Str: string(t)}, nil
	case bool:
		return Value{Kind: Bool, Bool: t}, nil
	}
	return Value{Kind: Null}, nil
}

// Render lays v out as Python's json.dumps(v, indent=2) would, each line
// after the first prefixed by base; compact (one line, ", " and ": ") when
// indent is "" and base is "".
func Render(v Value, base, indent string) string {
	var b strings.Builder
	render(&b, v, base, indent)
	return b.String()
}

func render(b *strings.Builder, v Value, cur, indent string) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(pyNumber(v.Str))
	case String:
		b.WriteString(quote(v.Str))
	case Array, Object:
		n := len(v.Items)
		open, close := "[", "]"
		if v.Kind == Object {
			n, open, close = len(v.Members), "{", "}"
		}
		if n == 0 {
			b.WriteString(open + close)
			return
		}
		b.WriteString(open)
		inner := cur + indent
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
				if indent == "" {
					b.WriteString(" ")
				}
			}
			if indent != "" {
				b.WriteString("\n" + inner)
			}
			if v.Kind == Object {
				b.WriteString(quote(v.Members[i].Key) + ": ")
				render(b, v.Members[i].Value, inner, indent)
			} else {
				render(b, v.Items[i], inner, indent)
			}
		}
		if indent != "" {
			b.WriteString("\n" + cur)
		}
		b.WriteString(close)
	}
}

// quote is Python's json string encoding with ensure_ascii: every
// character outside printable ASCII is a \u escape (a surrogate pair above
// U+FFFF).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || (r >= 0x7f && r <= 0xffff):
				fmt.Fprintf(&b, `\u%04x`, r)
			case r > 0xffff:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pyNumber spells a JSON number as Python writes it back after reading
// it: an integer in decimal, anything with a fraction or exponent as the
// shortest float repr.
func pyNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		n, ok := new(big.Int).SetString(lit, 10)
		if ok {
			return n.String()
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit // out of range: Python writes inf, which is not JSON either
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	if exp < -4 || exp >= 16 {
		mant, e, _ := strings.Cut(s, "e")
		sign := e[:1]
		digits := strings.TrimLeft(e[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + sign + digits
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

package frontmatter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// bestWidth is PyYAML's default line width, past which scalars fold.
const bestWidth = 80

// Render returns the document today's Lola writes for metadata and body:
// "---\n" + yaml.dump(metadata).rstrip() + "\n---\n" + body.
func Render(m *Map, body string) string {
	return "---\n" + strings.TrimRight(Dump(m), " \t\r\n") + "\n---\n" + body
}

// Dump serialises m as yaml.dump(m, default_flow_style=False,
// sort_keys=False) does, trailing newline included. An empty mapping is
// "{}\n".
func Dump(m *Map) string {
	e := &emitter{whitespace: true, indention: true}
	if m == nil || len(m.Members) == 0 {
		return "{}\n"
	}
	e.mapping(m, 0, false)
	e.out.WriteString("\n")
	return e.out.String()
}

// emitter tracks what PyYAML's emitter tracks to decide breaks and
// spacing: the column and whether the last thing written was whitespace or
// indentation.
type emitter struct {
	out        strings.Builder
	column     int
	whitespace bool
	indention  bool
}

func (e *emitter) write(s string) {
	e.out.WriteString(s)
	e.column += len([]rune(s))
}

func (e *emitter) lineBreak() {
	e.out.WriteString("\n")
	e.column, e.whitespace, e.indention = 0, true, true
}

// indent is PyYAML's write_indent.
func (e *emitter) indent(n int) {
	if !e.indention || e.column > n || (e.column == n && !e.whitespace) {
		e.lineBreak()
	}
	if e.column < n {
		e.whitespace = true
		e.write(strings.Repeat(" ", n-e.column))
	}
}

// indicator is PyYAML's write_indicator.
func (e *emitter) indicator(s string, needWhitespace, whitespace, indention bool) {
	if e.whitespace || !needWhitespace {
		e.write(s)
	} else {
		e.write(" " + s)
	}
	e.whitespace = whitespace
	e.indention = e.indention && indention
}

// mapping writes a block mapping whose keys sit at column n. inSeq is set
// when it is an item of a block sequence (its first key follows "- ").
func (e *emitter) mapping(m *Map, n int, inSeq bool) {
	for _, mem := range m.Members {
		e.indent(n)
		e.scalar(mem.Key, n, true)
		e.indicator(":", false, false, false)
		e.value(mem.Value, n, true)
	}
}

// sequence writes a block sequence whose dashes sit at column n.
func (e *emitter) sequence(l []Value, n int) {
	for _, v := range l {
		e.indent(n)
		e.indicator("-", true, false, true)
		e.value(v, n, false)
	}
}

// value writes a mapping value (inMap) or a sequence item, its parent at
// column n.
func (e *emitter) value(v Value, n int, inMap bool) {
	switch {
	case v.Kind == Mapping && v.Map != nil && len(v.Map.Members) > 0:
		e.mapping(v.Map, n+2, !inMap)
	case v.Kind == Seq && len(v.List) > 0:
		if inMap && !e.indention {
			e.sequence(v.List, n) // indentless under a mapping key
		} else {
			e.sequence(v.List, n+2)
		}
	case v.Kind == Mapping:
		e.indicator("{", true, true, false)
		e.indicator("}", false, false, false)
	case v.Kind == Seq:
		e.indicator("[", true, true, false)
		e.indicator("]", false, false, false)
	default:
		e.scalar(v, n+2, false)
	}
}

// scalar writes a scalar; continuation lines are indented to n. A key is
// never folded.
func (e *emitter) scalar(v Value, n int, key bool) {
	text, plainOK := represent(v)
	if !plainOK {
		e.styled(text, n, key, false)
		return
	}
	e.plain(text, n, !key)
}

// represent is the scalar's text and whether it is implicitly typed as
// plain text (a string spelled like a number or boolean is not).
func represent(v Value) (string, bool) {
	switch v.Kind {
	case Null:
		return "null", true
	case Bool:
		if v.Bool {
			return "true", true
		}
		return "false", true
	case Int:
		return v.Int.String(), true
	case Float:
		return pyFloat(v.Float), true
	case Raw:
		return v.Str, true
	case String:
		return v.Str, Resolve(v.Str).Kind == String
	}
	return fmt.Sprint(v), true
}

// pyFloat spells f as PyYAML's float representer does (Python's repr,
// lower-cased, with ".0" added to an exponent form without a point).
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	if exp < -4 || exp >= 16 {
		mant, e, _ := strings.Cut(s, "e")
		if len(e) == 2 || (len(e) == 2 && e[0] == '-') {
			e = e[:1] + "0" + e[1:]
		}
		s = mant + "e" + e
	} else {
		s = strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsAny(s, ".") {
			s += ".0"
		}
	}
	if !strings.Contains(s, ".") && strings.Contains(s, "e") {
		s = strings.Replace(s, "e", ".0e", 1)
	}
	return s
}

// styled chooses between plain, single and double quotes as PyYAML's
// choose_scalar_style does for a string (implicit plain only when it
// resolves to a string; forceQuote otherwise) and writes it.
func (e *emitter) styled(text string, n int, key, _ bool) {
	a := analyze(text)
	if a.allowSingle && !(key && a.multiline) {
		e.single(text, n, !key)
		return
	}
	e.double(text, n, !key)
}

func (e *emitter) plainOrStyled(text string, n int, key bool) {
	a := analyze(text)
	if !(key && (a.empty || a.multiline)) && a.allowBlockPlain {
		e.plainWrite(text, n, !key)
		return
	}
	e.styled(text, n, key, false)
}

// plain writes a scalar implicitly typed as itself, choosing its style.
func (e *emitter) plain(text string, n int, split bool) {
	e.plainOrStyled(text, n, !split)
}

func isBreak(r rune) bool { return r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029' }

// plainWrite is PyYAML's write_plain.
func (e *emitter) plainWrite(s string, n int, split bool) {
	text := []rune(s)
	if len(text) == 0 {
		return
	}
	if !e.whitespace {
		e.write(" ")
	}
	e.whitespace, e.indention = false, false
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.column > bestWidth && split {
					e.indent(n)
					e.whitespace, e.indention = false, false
				} else {
					e.write(string(text[start:end]))
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if text[start] == '\n' {
					e.lineBreak()
				}
				for range text[start:end] {
					e.lineBreak()
				}
				e.indent(n)
				e.whitespace, e.indention = false, false
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) {
				e.write(string(text[start:end]))
				start = end
			}
		}
		if ch != -1 {
			spaces, breaks = ch == ' ', isBreak(ch)
		}
	}
}

// single is PyYAML's write_single_quoted.
func (e *emitter) single(s string, n int, split bool) {
	e.indicator("'", true, false, false)
	text := []rune(s)
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		switch {
		case spaces:
			if ch == -1 || ch != ' ' {
				if start+1 == end && e.column > bestWidth && split && start != 0 && end != len(text) {
					e.indent(n)
				} else {
					e.write(string(text[start:end]))
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if text[start] == '\n' {
					e.lineBreak()
				}
				for _, br := range text[start:end] {
					if br == '\n' {
						e.lineBreak()
					} else {
						e.out.WriteString(string(br))
						e.column, e.whitespace, e.indention = 0, true, true
					}
				}
				e.indent(n)
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) || ch == '\'' {
				if start < end {
					e.write(string(text[start:end]))
					start = end
				}
			}
		}
		if ch == '\'' {
			e.write("''")
			start = end + 1
		}
		if ch != -1 {
			spaces, breaks = ch == ' ', isBreak(ch)
		}
	}
	e.indicator("'", false, false, false)
}

var escapes = map[rune]string{
	0: "0", 0x07: "a", 0x08: "b", 0x09: "t", 0x0A: "n", 0x0B: "v", 0x0C: "f",
	0x0D: "r", 0x1B: "e", '"': "\"", '\\': "\\", 0x85: "N", 0xA0: "_",
	0x2028: "L", 0x2029: "P",
}

// double is PyYAML's write_double_quoted with allow_unicode off: every
// character outside printable ASCII is escaped.
func (e *emitter) double(s string, n int, split bool) {
	e.indicator("\"", true, false, false)
	text := []rune(s)
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		if ch == -1 || ch == '"' || ch == '\\' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 || ch == 0xFEFF || ch < 0x20 || ch > 0x7E {
			if start < end {
				e.write(string(text[start:end]))
				start = end
			}
			if ch != -1 {
				var d string
				switch r, ok := escapes[ch]; {
				case ok:
					d = "\\" + r
				case ch <= 0xFF:
					d = fmt.Sprintf("\\x%02X", ch)
				case ch <= 0xFFFF:
					d = fmt.Sprintf("\\u%04X", ch)
				default:
					d = fmt.Sprintf("\\U%08X", ch)
				}
				e.write(d)
				start = end + 1
			}
		}
		if 0 < end && end < len(text)-1 && (ch == ' ' || start >= end) && e.column+(end-start) > bestWidth && split {
			d := "\\"
			if start < end {
				d = string(text[start:end]) + d
				start = end
			}
			e.write(d)
			e.indent(n)
			e.whitespace, e.indention = false, false
			if text[start] == ' ' {
				e.write("\\")
			}
		}
	}
	e.indicator("\"", false, false, false)
}

// analysis is the part of PyYAML's analyze_scalar that chooses a style.
type analysis struct {
	empty, multiline             bool
	allowBlockPlain, allowSingle bool
}

func isSpaceOrEnd(r rune) bool {
	return r == 0 || r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func analyze(s string) analysis {
	text := []rune(s)
	if len(text) == 0 {
		return analysis{empty: true, allowBlockPlain: true, allowSingle: true}
	}
	var blockInd, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockInd = true
	}
	preceded := true
	followed := len(text) == 1 || isSpaceOrEnd(text[1])
	prevSpace, prevBreak := false, false
	for i, ch := range text {
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) {
				blockInd = true
			}
			if (ch == '?' || ch == ':') && followed {
				blockInd = true
			}
			if ch == '-' && followed {
				blockInd = true
			}
		} else {
			if ch == ':' && followed {
				blockInd = true
			}
			if ch == '#' && preceded {
				blockInd = true
			}
		}
		if isBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || (ch >= 0x20 && ch <= 0x7E)) {
			// allow_unicode is off: any other character needs escaping.
			special = true
		}
		switch {
		case ch == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i == len(text)-1 {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case isBreak(ch):
			if i == 0 {
				leadingBreak = true
			}
			if i == len(text)-1 {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		preceded = isSpaceOrEnd(ch)
		followed = i+2 >= len(text) || isSpaceOrEnd(text[i+2])
	}
	a := analysis{multiline: lineBreaks, allowBlockPlain: true, allowSingle: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.allowBlockPlain = false
	}
	if breakSpace {
		a.allowBlockPlain, a.allowSingle = false, false
	}
	if spaceBreak || special {
		a.allowBlockPlain, a.allowSingle = false, false
	}
	if lineBreaks || blockInd {
		a.allowBlockPlain = false
	}
	return a
}

package frontmatter

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// boundary is python-frontmatter's YAML delimiter line: three or more
// dashes, then optional whitespace, alone on a line.
var boundary = regexp.MustCompile(`(?m)^-{3,}\s*$`)

// Parse splits a Markdown document into its frontmatter and body as
// today's Lola reads it (python-frontmatter): the document is trimmed of
// surrounding whitespace, must begin with a delimiter line, and ends its
// frontmatter at the next one; the body is what follows, trimmed. Without
// frontmatter the metadata is empty and the body is the trimmed document.
// Frontmatter that is not YAML, or whose YAML is not a mapping, yields an
// empty mapping; when the YAML does not parse at all the body is the
// document exactly as given (upstream's fallback).
func Parse(doc string) (*Map, string) {
	text := strings.TrimSpace(doc)
	loc := boundary.FindAllStringIndex(text, 2)
	if len(loc) < 2 || loc[0][0] != 0 {
		return &Map{}, text
	}
	fm, body := text[loc[0][1]:loc[1][0]], text[loc[1][1]:]
	v, err := load(fm)
	if err != nil {
		return &Map{}, doc
	}
	if v.Kind != Mapping || v.Map == nil {
		return &Map{}, strings.TrimSpace(body)
	}
	return v.Map, strings.TrimSpace(body)
}

// load parses one YAML document as PyYAML's safe loader would.
func load(src string) (Value, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		return Value{}, err
	}
	if n.Kind == 0 || len(n.Content) == 0 {
		return Value{Kind: Null}, nil
	}
	return convert(n.Content[0], 0)
}

// maxDepth bounds alias expansion and nesting.
const maxDepth = 64

type loadError string

func (e loadError) Error() string { return string(e) }

func convert(n *yaml.Node, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, loadError("frontmatter nests too deeply")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return convert(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := Value{Kind: Seq, List: []Value{}}
		for _, c := range n.Content {
			v, err := convert(c, depth+1)
			if err != nil {
				return Value{}, err
			}
			out.List = append(out.List, v)
		}
		return out, nil
	case yaml.MappingNode:
		m := &Map{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := convert(n.Content[i], depth+1)
			if err != nil {
				return Value{}, err
			}
			v, err := convert(n.Content[i+1], depth+1)
			if err != nil {
				return Value{}, err
			}
			m.put(k, v)
		}
		return Value{Kind: Mapping, Map: m}, nil
	case yaml.ScalarNode:
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return Str(n.Value), nil
		}
		if n.Style&yaml.TaggedStyle != 0 && n.Tag == "!!str" {
			return Str(n.Value), nil
		}
		if n.Value == "=" {
			// PyYAML resolves a plain "=" to the value tag, which its safe
			// loader cannot construct: the whole frontmatter fails.
			return Value{}, loadError("plain '=' has no safe constructor")
		}
		return Resolve(n.Value), nil
	}
	return Value{Kind: Null}, nil
}

// put sets k as a Python dict does: a key seen before keeps its place and
// takes the new value.
func (m *Map) put(k, v Value) {
	for i, mem := range m.Members {
		if sameKey(mem.Key, k) {
			m.Members[i].Value = v
			return
		}
	}
	m.Members = append(m.Members, Member{Key: k, Value: v})
}

func sameKey(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case String, Raw:
		return a.Str == b.Str
	case Bool:
		return a.Bool == b.Bool
	case Int:
		return a.Int.Cmp(b.Int) == 0
	case Float:
		return a.Float == b.Float
	case Null:
		return true
	}
	return false
}

// PyYAML's YAML 1.1 implicit resolvers, in its order of precedence.
var (
	reBool  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	reFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	reInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	reNull  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reTime  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
	// Other tags PyYAML resolves a plain scalar to: a plain scalar
	// spelled like them is not a string, so Dump must quote it.
	reOther = regexp.MustCompile(`^(?:<<|=)$`)
)

// Resolve gives a plain scalar the type PyYAML's safe loader gives it.
func Resolve(s string) Value {
	switch {
	case reBool.MatchString(s):
		return Value{Kind: Bool, Bool: strings.ContainsAny(s[:1], "yYtT") || s == "on" || s == "On" || s == "ON"}
	case reFloat.MatchString(s):
		return Value{Kind: Float, Float: parseFloat(s)}
	case reInt.MatchString(s):
		return Value{Kind: Int, Int: parseInt(s)}
	case reNull.MatchString(s):
		return Value{Kind: Null}
	case reTime.MatchString(s), reOther.MatchString(s):
		return Value{Kind: Raw, Str: s}
	}
	return Str(s)
}

func parseInt(s string) *big.Int {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg, s = s[0] == '-', s[1:]
	}
	n := new(big.Int)
	switch {
	case s == "0":
	case strings.HasPrefix(s, "0b"):
		n.SetString(s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		n.SetString(s[2:], 16)
	case s[0] == '0':
		n.SetString(s[1:], 8)
	case strings.Contains(s, ":"):
		for _, d := range strings.Split(s, ":") {
			x, _ := new(big.Int).SetString(d, 10)
			n.Mul(n, big.NewInt(60)).Add(n, x)
		}
	default:
		n.SetString(s, 10)
	}
	if neg {
		n.Neg(n)
	}
	return n
}

func parseFloat(s string) float64 {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1)
	case s == ".nan":
		return math.NaN()
	case strings.Contains(s, ":"):
		v := 0.0
		for _, d := range strings.Split(s, ":") {
			x, _ := strconv.ParseFloat(d, 64)
			v = v*60 + x
		}
		return sign * v
	}
	v, _ := strconv.ParseFloat(s, 64)
	return sign * v
}

package frontmatter

import "math/big"

// Kind is the type a YAML value resolved to.
type Kind int

// The kinds of value PyYAML's safe loader produces that frontmatter uses.
const (
	Null Kind = iota
	String
	Bool
	Int
	Float
	// Raw is a scalar kept as written (a timestamp, or a value of an
	// unknown tag): Dump writes it back plain.
	Raw
	Seq
	Mapping
)

// Value is one YAML value. Only the fields of its Kind are meaningful.
type Value struct {
	Kind  Kind
	Str   string   // String, Raw
	Bool  bool     // Bool
	Int   *big.Int // Int
	Float float64  // Float
	List  []Value  // Seq
	Map   *Map     // Mapping
}

// Member is one key of a mapping with its value.
type Member struct {
	Key   Value
	Value Value
}

// Map is an ordered mapping, as a Python dict keeps insertion order.
type Map struct {
	Members []Member
}

// Str returns a String value.
func Str(s string) Value { return Value{Kind: String, Str: s} }

// Get returns the value of the string key k.
func (m *Map) Get(k string) (Value, bool) {
	if m == nil {
		return Value{}, false
	}
	for _, mem := range m.Members {
		if mem.Key.Kind == String && mem.Key.Str == k {
			return mem.Value, true
		}
	}
	return Value{}, false
}

// GetString returns the key's value when it is a non-empty string.
func (m *Map) GetString(k string) string {
	v, ok := m.Get(k)
	if !ok || v.Kind != String {
		return ""
	}
	return v.Str
}

// Set sets string key k: in place when present (keeping its position, as
// dict.update does), else appended.
func (m *Map) Set(k string, v Value) {
	for i, mem := range m.Members {
		if mem.Key.Kind == String && mem.Key.Str == k {
			m.Members[i].Value = v
			return
		}
	}
	m.Members = append(m.Members, Member{Key: Str(k), Value: v})
}

// Truthy reports whether Python would treat the value as true (a non-empty
// string, a non-zero number, a non-empty collection, True).
func (v Value) Truthy() bool {
	switch v.Kind {
	case String, Raw:
		return v.Str != ""
	case Bool:
		return v.Bool
	case Int:
		return v.Int.Sign() != 0
	case Float:
		return v.Float != 0
	case Seq:
		return len(v.List) > 0
	case Mapping:
		return v.Map != nil && len(v.Map.Members) > 0
	}
	return false
}

package version

import (
	"fmt"
	"strconv"
	"strings"
)

// Spec is a parsed specifier: every clause must hold. The zero Spec
// admits every version.
type Spec struct {
	clauses []clause
	text    string
}

type clause struct {
	op     string
	v      Version
	prefix []int // == X.Y.* and != X.Y.*
}

func (s Spec) String() string { return s.text }

// IsZero reports whether s has no clause.
func (s Spec) IsZero() bool { return len(s.clauses) == 0 }

// ParseSpec parses ">=1.0,<2", "~=1.4.2", "==1.*", "~1.2", "^0.3.1".
func ParseSpec(text string) (Spec, error) {
	s := Spec{text: strings.TrimSpace(text)}
	if s.text == "" {
		return s, nil
	}
	for _, part := range strings.Split(s.text, ",") {
		part = strings.TrimSpace(part)
		cs, err := parseClause(part)
		if err != nil {
			return Spec{}, fmt.Errorf("%w: specifier %q: %v", ErrVersion, text, err)
		}
		s.clauses = append(s.clauses, cs...)
	}
	return s, nil
}

func parseClause(p string) ([]clause, error) {
	for _, op := range []string{"===", "==", "!=", ">=", "<=", "~=", ">", "<", "~", "^"} {
		rest, ok := strings.CutPrefix(p, op)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		switch op {
		case "===":
			return nil, fmt.Errorf("arbitrary equality (===) is not supported")
		case "~", "^":
			return npmRange(op, rest)
		case "==", "!=":
			if pre, ok := strings.CutSuffix(rest, ".*"); ok {
				nums, err := releaseOnly(pre)
				if err != nil {
					return nil, err
				}
				return []clause{{op: op, prefix: nums}}, nil
			}
		case "~=":
			v, err := Parse(rest)
			if err != nil {
				return nil, err
			}
			if len(v.release) < 2 {
				return nil, fmt.Errorf("~= needs at least two release numbers")
			}
			return []clause{{op: ">=", v: v}, {op: "==", prefix: v.release[:len(v.release)-1]}}, nil
		}
		v, err := Parse(rest)
		if err != nil {
			return nil, err
		}
		return []clause{{op: op, v: v}}, nil
	}
	return nil, fmt.Errorf("%q has no operator", p)
}

// npmRange: ~X.Y[.Z] is >=X.Y[.Z],<X.(Y+1); ^X[.Y[.Z]] is >=it,<(X+1),
// and for X = 0, >=it,<0.(Y+1).
func npmRange(op, rest string) ([]clause, error) {
	nums, err := releaseOnly(rest)
	if err != nil {
		return nil, err
	}
	lo, err := Parse(rest)
	if err != nil {
		return nil, err
	}
	var hi string
	switch {
	case op == "~" && len(nums) >= 2:
		hi = strconv.Itoa(nums[0]) + "." + strconv.Itoa(nums[1]+1)
	case op == "~":
		return nil, fmt.Errorf("~ needs at least MAJOR.MINOR")
	case nums[0] == 0 && len(nums) >= 2:
		hi = "0." + strconv.Itoa(nums[1]+1)
	default:
		hi = strconv.Itoa(nums[0] + 1)
	}
	h, _ := Parse(hi)
	return []clause{{op: ">=", v: lo}, {op: "<", v: h}}, nil
}

func releaseOnly(s string) ([]int, error) {
	v, err := Parse(s)
	if err != nil {
		return nil, err
	}
	if v.pre[0] != 0 || v.post >= 0 || v.dev >= 0 {
		return nil, fmt.Errorf("%q: only release numbers here", s)
	}
	return v.release, nil
}

// Admits reports whether v satisfies every clause.
func (s Spec) Admits(v Version) bool {
	for _, c := range s.clauses {
		if !c.admits(v) {
			return false
		}
	}
	return true
}

func (c clause) admits(v Version) bool {
	if c.prefix != nil {
		match := true
		for i, n := range c.prefix {
			if at(v.release, i) != n {
				match = false
			}
		}
		return match == (c.op == "==")
	}
	d := Compare(v, c.v)
	switch c.op {
	case "==":
		return d == 0
	case "!=":
		return d != 0
	case ">=":
		return d >= 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case "<":
		return d < 0
	}
	return false
}

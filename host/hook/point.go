package hook

import "fmt"

// Point is when a hook runs. Its string form is the lola.yaml key, the
// LOLA_HOOK value and the CLI flag's stem.
type Point uint8

// The hook points.
const (
	pointUnknown Point = iota
	PreInstall
	PostInstall
	pointEnd
)

var pointNames = [...]string{pointUnknown: "", PreInstall: "pre-install", PostInstall: "post-install"}

// Points lists every hook point in the order an install runs them.
func Points() []Point { return []Point{PreInstall, PostInstall} }

// String returns "pre-install" or "post-install".
func (p Point) String() string {
	if p < pointEnd {
		return pointNames[p]
	}
	return fmt.Sprintf("point(%d)", uint8(p))
}

// ParsePoint returns the point spelled s, or false.
func ParsePoint(s string) (Point, bool) {
	for p := pointUnknown + 1; p < pointEnd; p++ {
		if pointNames[p] == s {
			return p, true
		}
	}
	return pointUnknown, false
}

// MarshalText spells the point; the zero value is an error.
func (p Point) MarshalText() ([]byte, error) {
	if p == pointUnknown || p >= pointEnd {
		return nil, fmt.Errorf("hook: %d is not a hook point", uint8(p))
	}
	return []byte(p.String()), nil
}

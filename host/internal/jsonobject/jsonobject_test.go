package jsonobject

import "testing"

// Decode takes exactly one object; what is not one (an array, trailing
// data, a second value, a truncated object) is refused, and Encode of
// what it took gives each value back byte for byte.
func TestDecodeOneObjectOnly(t *testing.T) {
	for _, bad := range []string{`[]`, `{"a":1} x`, `{"a":1}{}`, `{"a":1`, ``, `"s"`} {
		if _, ok := Decode([]byte(bad)); ok {
			t.Errorf("%q decoded as one object", bad)
		}
	}
	ms, ok := Decode([]byte(" {\"a\": {\"x\" : [1, 2]}, \"b\":1.50}\n"))
	if !ok || len(ms) != 2 {
		t.Fatalf("%v %v", ms, ok)
	}
	if got := string(Encode(ms)); got != `{"a":{"x" : [1, 2]},"b":1.50}` {
		t.Errorf("Encode = %s", got)
	}
}

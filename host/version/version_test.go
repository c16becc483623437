package version

import (
	"errors"
	"testing"
)

func TestCompare(t *testing.T) {
	order := []string{"0.9", "1.0.dev1", "1.0a1", "1.0b2", "1.0rc1", "1.0", "1.0.post1", "1.0.1", "1.2", "1.10", "v2"}
	for i := range order {
		for j := range order {
			a, err := Parse(order[i])
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Parse(order[j])
			want := sign(i - j)
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
	a, _ := Parse("1.0")
	b, _ := Parse("1.0.0")
	if Compare(a, b) != 0 {
		t.Error("1.0 != 1.0.0")
	}
}

func TestSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		yes  []string
		no   []string
	}{
		{">=1.0,<2.0", []string{"1.0", "1.9.9"}, []string{"0.9", "2.0"}},
		{"==1.2.3", []string{"1.2.3", "1.2.3.0"}, []string{"1.2.4"}},
		{"!=1.5", []string{"1.4"}, []string{"1.5.0"}},
		{"==1.*", []string{"1.0", "1.99"}, []string{"2.0", "0.1"}},
		{"!=1.*", []string{"2.0"}, []string{"1.3"}},
		{"~=1.4.2", []string{"1.4.2", "1.4.9"}, []string{"1.5.0", "1.4.1"}},
		{"~=2.2", []string{"2.2", "2.9"}, []string{"3.0"}},
		{"~1.2", []string{"1.2.0", "1.2.9"}, []string{"1.3", "1.1"}},
		{"~1.2.3", []string{"1.2.3", "1.2.9"}, []string{"1.3.0", "1.2.2"}},
		{"^1.2", []string{"1.2", "1.99"}, []string{"2.0", "1.1"}},
		{"^0.2.3", []string{"0.2.3", "0.2.9"}, []string{"0.3.0", "0.2.2"}},
		{">1", []string{"1.0.1"}, []string{"1.0"}},
		{"<=2", []string{"2.0.0"}, []string{"2.0.1"}},
		{"", []string{"0.0.1"}, nil},
	} {
		s, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		for _, y := range tc.yes {
			if v, _ := Parse(y); !s.Admits(v) {
				t.Errorf("%s does not admit %s", tc.spec, y)
			}
		}
		for _, n := range tc.no {
			if v, _ := Parse(n); s.Admits(v) {
				t.Errorf("%s admits %s", tc.spec, n)
			}
		}
	}
}

func TestRefused(t *testing.T) {
	for _, s := range []string{"1.0", "=>1", "===1.0", ">=x", "~1", "~=1", ">=1.0+local", "==1.*.2", ">=1!2.0"} {
		if _, err := ParseSpec(s); !errors.Is(err, ErrVersion) {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "v", "1..2", "1.0zz", "12345678901"} {
		if _, err := Parse(s); !errors.Is(err, ErrVersion) {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

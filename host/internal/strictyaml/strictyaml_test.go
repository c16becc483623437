package strictyaml

import (
	"errors"
	"strings"
	"testing"
)

type doc struct {
	Name  string `yaml:"name"`
	Inner struct {
		N int `yaml:"n"`
	} `yaml:"inner"`
}

func TestDecode(t *testing.T) {
	var d doc
	if err := Decode(strings.NewReader("name: x\ninner: {n: 2}\n"), 1024, &d); err != nil || d.Name != "x" || d.Inner.N != 2 {
		t.Fatalf("%+v %v", d, err)
	}
	for in, want := range map[string]string{
		"name: x\nproxy: y\n":     `line 2: unknown key "proxy"`,
		"inner:\n  m: 1\n":        `line 2: unknown key "m"`,
		"name: x\nname: y\n":      `mapping key "name" already defined`,
		"name: x\n---\nname: y\n": ErrMultipleDocuments.Error(),
		"":                        ErrEmpty.Error(),
		"name: [\n":               "line",
		strings.Repeat("#", 2000): "exceeds 1024 bytes",
		"inner: [1]\n":            "cannot unmarshal",
	} {
		var d doc
		err := Decode(strings.NewReader(in), 1024, &d)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "strictyaml.doc") {
			t.Errorf("%q: the error names a Go type: %v", in, err)
		}
	}
	// A type mismatch names no Go type, and quotes no more of the value
	// (perhaps a credential) than its first 7 bytes.
	type inner struct {
		N int `yaml:"n"`
	}
	var typed struct {
		In inner    `yaml:"in"`
		L  []string `yaml:"l"`
	}
	for in, want := range map[string]string{
		"in: [1]\n":               "line 1: cannot unmarshal a list into a mapping",
		"in: {n: s3cr3t-token}\n": "line 1: cannot unmarshal a string `s3cr3t-...` into an integer",
		"l: {a: 1}\n":             "line 1: cannot unmarshal a mapping into a list",
	} {
		err := Decode(strings.NewReader(in), 1024, &typed)
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if err := Decode(strings.NewReader(""), 10, &d); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty input: %v", err)
	}
	var tl *TooLargeError
	if err := Decode(strings.NewReader("name: xxxxxxxxxx\n"), 4, &d); !errors.As(err, &tl) || tl.Max != 4 {
		t.Fatalf("oversized input: %v", err)
	}
	if err := Decode(failingReader{}, 10, &d); !errors.Is(err, ErrRead) {
		t.Fatalf("failing reader: %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

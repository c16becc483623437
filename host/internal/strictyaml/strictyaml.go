// Package strictyaml decodes the host's YAML inputs (config.yaml, extension
// manifests, a module's lola.yaml) one way: bounded in bytes, exactly one
// document, unknown keys refused and named as keys with their line.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ErrEmpty is returned for input holding no document at all.
var ErrEmpty = errors.New("empty")

// ErrMultipleDocuments is returned for input holding a second document.
var ErrMultipleDocuments = errors.New("holds more than one YAML document")

// ErrRead is returned when the reader fails.
var ErrRead = errors.New("cannot read")

// TooLargeError is returned for input over the byte bound.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string { return fmt.Sprintf("exceeds %d bytes", e.Max) }

// Decode reads at most max bytes from r (more is an error naming the bound)
// and decodes exactly one document into v with unknown keys refused. The
// errors are people's text (Error), never yaml.v3's Go type names.
func Decode(r io.Reader, max int64, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return ErrRead
	}
	if int64(len(b)) > max {
		return &TooLargeError{Max: max}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return ErrEmpty
		}
		return Error(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return ErrMultipleDocuments
	}
	return nil
}

var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found in type \S+`)

// Error rewrites a yaml.v3 error so an unknown key is named as a key with
// its line, not as a Go struct field, and drops yaml.v3's prefixes.
func Error(err error) error {
	msg := err.Error()
	if m := unknownField.FindAllStringSubmatch(msg, -1); m != nil {
		parts := make([]string, len(m))
		for i, sm := range m {
			parts[i] = fmt.Sprintf("line %s: unknown key %q", sm[1], sm[2])
		}
		return errors.New(strings.Join(parts, "; "))
	}
	msg = wrongKind.ReplaceAllStringFunc(msg, func(s string) string {
		sm := wrongKind.FindStringSubmatch(s)
		return fmt.Sprintf("line %s: cannot unmarshal %s%s %s", sm[1], nodeKind(sm[2]), sm[3], goKind(sm[4]))
	})
	msg = strings.TrimPrefix(msg, "yaml: ")
	return errors.New(strings.ReplaceAll(msg, "unmarshal errors:\n  ", ""))
}

// wrongKind matches yaml.v3's type mismatch, which names the Go type the
// value was meant for; the value it quotes, yaml.v3 cuts to 7 bytes.
var wrongKind = regexp.MustCompile("line (\\d+): cannot unmarshal !!(\\w+)( `[^`]*`)? into (\\S+)")

// nodeKind names a YAML tag as people do.
func nodeKind(tag string) string {
	switch tag {
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	case "str":
		return "a string"
	case "int":
		return "an integer"
	case "float":
		return "a number"
	case "bool":
		return "a boolean"
	case "null":
		return "null"
	}
	return "a " + tag
}

// goKind says what kind of value the Go type takes. Every decoder of the
// host decodes into structs of built-in types, so a named type is a struct,
// which takes a mapping.
func goKind(typ string) string {
	switch {
	case strings.HasPrefix(typ, "[]"):
		return "into a list"
	case strings.HasPrefix(typ, "map["):
		return "into a mapping"
	case typ == "string":
		return "into a string"
	case typ == "bool":
		return "into a boolean"
	case strings.HasPrefix(typ, "int") || strings.HasPrefix(typ, "uint"):
		return "into an integer"
	case strings.HasPrefix(typ, "float"):
		return "into a number"
	}
	return "into a mapping"
}

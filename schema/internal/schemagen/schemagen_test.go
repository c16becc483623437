package schemagen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckedInSchemaMatchesTypes fails when plan.schema.json or
// request.schema.json no longer match the Go types. Regenerate with
// `go generate ./...` in schema/.
func TestCheckedInSchemaMatchesTypes(t *testing.T) {
	for name, gen := range map[string]func() ([]byte, error){
		"plan.schema.json":    Plan,
		"request.schema.json": Request,
	} {
		want, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatalf("%s: %v (run go generate in schema/)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s drifted from the Go types: run `go generate ./...` in schema/ and commit the result", name)
		}
	}
}

// issue 15: the generated schemas carry a description for every field, so
// an author of a fourth SDK can work from them (docs/abi.md).
func TestEveryPropertyHasADescription(t *testing.T) {
	for name, gen := range map[string]func() ([]byte, error){"plan": Plan, "request": Request} {
		b, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				if props, ok := v["properties"].(map[string]any); ok {
					for k, p := range props {
						pm, _ := p.(map[string]any)
						if pm["description"] == nil {
							t.Errorf("%s: %s.%s has no description", name, path, k)
						}
						n++
					}
				}
				for k, c := range v {
					walk(path+"/"+k, c)
				}
			case []any:
				for _, c := range v {
					walk(path, c)
				}
			}
		}
		walk("", doc)
		if n < 10 {
			t.Fatalf("%s: only %d properties seen; the walk is broken", name, n)
		}
	}
}

package schemagen

import (
	"bytes"
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

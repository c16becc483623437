package plan

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestGeneratedSchemaCarriesTheDecoderBounds keeps schema/plan.schema.json's
// numeric bounds equal to the decoder's, so an SDK validating against the
// schema refuses what the host refuses.
func TestGeneratedSchemaCarriesTheDecoderBounds(t *testing.T) {
	b, err := os.ReadFile("../../schema/plan.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{
		`"maxProperties": (\d+)`:                              MaxFetchHeaders,
		`"depth": \{\s*"type": "integer",\s*"maximum": (\d+)`: MaxCloneDepth,
	} {
		m := regexp.MustCompile(name).FindSubmatch(b)
		if m == nil {
			t.Fatalf("plan.schema.json has no %s", name)
		}
		got, _ := strconv.ParseInt(string(m[1]), 10, 64)
		if got != want {
			t.Errorf("plan.schema.json %s = %d, decoder bound %d", name, got, want)
		}
	}
}

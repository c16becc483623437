package main

import (
	"testing"

	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/lolatest"
)

// TestGolden runs the target in-process on every testdata request and
// compares the plan with the golden file, which is also checked against
// plan.schema.json. Run with -update to rewrite the goldens.
func TestGolden(t *testing.T) { lolatest.Golden(t, "testdata") }

// TestGoldenKeepsUserTextByteForByte: for every golden whose request hands
// over a current managed file, the plan rewrites that file with the text
// outside lola's section unchanged.
func TestGoldenKeepsUserTextByteForByte(t *testing.T) {
	lolatest.KeepsUserText(t, "testdata", func(req *lola.Request) string { return instructionsPath(req.Scope) }, 2)
}

// TestTierParity builds the target as tier 1 and tier 2 and asserts both
// emit, byte for byte, the plan the in-process run emits, on every testdata
// request; failing requests fail in both tiers with the same status. The
// builds are also checked to carry no test-only code (lolatest, wazero).
func TestTierParity(t *testing.T) { lolatest.TierParity(t, ".", "testdata") }

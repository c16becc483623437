// Package lolatest holds test helpers for Lola extensions written with
// sdk-go: a golden harness (Golden, KeepsUserText) and a tier-parity
// harness (TierParity) that builds the extension as a tier-1 wasip1 module
// and a tier-2 native executable and compares both, byte for byte, with
// the in-process run.
//
// Import lolatest only from _test.go files. It links wazero and a JSON
// Schema validator, which must never reach a guest; TierParity checks
// every build it makes with CheckGuest, which fails when a guest carries
// lolatest, wazero or jsonschema, so an extension that imported lolatest
// from a non-test file fails its own parity test.
//
// A typical extension test file, with testdata/<case>.request.json and
// either <case>.plan.json (the exact plan, one intent a line) or
// <case>.error.txt (a text the handler's error must contain):
//
//	package main
//
//	import (
//		"testing"
//
//		"github.com/lola-pm/lola/sdk-go/lolatest"
//	)
//
//	func TestGolden(t *testing.T)     { lolatest.Golden(t, "testdata") }
//	func TestTierParity(t *testing.T) { lolatest.TierParity(t, ".", "testdata") }
//
// `go test -run Golden -update .` rewrites the plan goldens from the
// current output (review the diff). lolatest defines the -update flag in
// the test binary, so a test package importing it must not define its own.
package lolatest

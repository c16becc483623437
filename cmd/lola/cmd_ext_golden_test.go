package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/exttest"
)

// A golden file, a case name or an extension's diagnostic is anyone's
// text: ext test prints none of their control or bidirectional characters
// raw, and the diff keeps one printed line per line.
func TestExtTestOutputEscapesUntrustedText(t *testing.T) {
	const esc, rlo = "\x1b]0;owned\x07\x1b[2J", "\u202e"
	results := []exttest.Result{
		{Case: "case" + esc, Tier: audit.TierWasm, Err: errors.New("the plan differs" + esc), Diff: "--- golden\n+++ plan\n-\"path\": \"a" + rlo + "b\"\n+\"path\": \"x" + esc + "\"\n"},
		{Case: "ok" + rlo, Tier: audit.TierWasm},
		{Case: "new" + esc, Tier: audit.TierWasm, Wrote: true},
	}
	var out bytes.Buffer
	if n := printExtTestResults(&out, results); n != 1 {
		t.Errorf("failed = %d, want 1", n)
	}
	s := out.String()
	if strings.ContainsAny(s, "\x1b\x07"+rlo) {
		t.Fatalf("raw control or bidi characters reached the output:\n%q", s)
	}
	if got := strings.Count(s, "\n"); got != 7 {
		t.Errorf("%d lines, want 7 (3 results, 4 diff lines):\n%s", got, s)
	}
	for _, want := range []string{"FAIL  case", "-\"path\": \"a", "+\"path\": \"x", "ok    ok", "wrote new"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}

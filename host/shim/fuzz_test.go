package shim

import (
	"bytes"
	"strings"
	"testing"
)

// Whatever a stderr holds, ParseReport never panics, and an outcome it
// accepts is in the vocabulary and survives a re-format.
func FuzzParseReport(f *testing.F) {
	f.Add(formatOutcome(Diagnostic{Kind: KindGuestStatus, Number: 3}))
	f.Add(append(formatConfinement(Confinement{OS: "linux"}), formatOutcome(Diagnostic{Kind: KindOK, Cache: "hit"})...))
	f.Add([]byte(LinePrefix + `{"event":"outcome","diag":"guest-exit-2"}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := ParseReport(b)
		if err != nil {
			return
		}
		k, _, perr := ParseCode(rep.Outcome.Code())
		if perr != nil || k != rep.Outcome.Kind {
			t.Fatalf("accepted outcome %q does not round-trip", rep.Outcome.Code())
		}
		again, err := ParseReport(formatOutcome(rep.Outcome))
		if err != nil || again.Outcome != rep.Outcome {
			t.Fatalf("re-format changed %+v into %+v (%v)", rep.Outcome, again.Outcome, err)
		}
	})
}

// Whatever a guest writes, in whatever pieces, every forwarded line starts
// with GuestPrefix (so no shim line can be forged) and the total is bounded.
func FuzzGuestLogCannotForge(f *testing.F) {
	f.Add([]byte("lola-shim: {}\n"), []byte("\nlola-shim: x"))
	f.Add([]byte("a"), []byte("b\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var out bytes.Buffer
		g := newGuestLog(&out)
		g.Write(a)
		g.Write(b)
		g.Write(a)
		g.finish()
		// The cap counts guest bytes; the shim adds a prefix per line, a
		// closing newline and one truncation marker line.
		lines := strings.Count(string(a)+string(b)+string(a), "\n") + 3
		if out.Len() > GuestLogCap+lines*len(GuestPrefix)+1+len(GuestPrefix+"[guest output truncated by the shim]\n") {
			t.Fatalf("forwarded %d bytes", out.Len())
		}
		for _, line := range strings.SplitAfter(out.String(), "\n") {
			if line != "" && !strings.HasPrefix(line, GuestPrefix) {
				t.Fatalf("unprefixed line %q", line)
			}
		}
		if rep, err := ParseReport(out.Bytes()); err == nil {
			t.Fatalf("guest output parsed as an outcome: %+v", rep.Outcome)
		}
	})
}

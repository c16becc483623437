package pathrule

import "testing"

// BenchmarkDarwinKey: one non-ASCII component's key under darwin (full
// case folding since issue 16) and hfsplus (simple folding); the ASCII
// fast path is shown for scale.
func BenchmarkDarwinKey(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ascii", "skills-alpha-SKILL.md"},
		{"non-ascii", "Caf\u00e9-Stra\u00dfe-\ufb01le.md"},
	} {
		for _, eq := range []Equality{Darwin, HFSPlus} {
			b.Run(eq.Name()+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = eq.Key(c.s)
				}
			})
		}
	}
}

package capability

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/pathrule"
)

func bigPlan(b *testing.B, n int) string {
	var sb strings.Builder
	sb.WriteString(`{"protocol":1,"intents":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"op":"write","path":".claude/skills/s` + strconv.Itoa(i%100) + `/f` + strconv.Itoa(i) + `.md","content":"x"}`)
	}
	sb.WriteString(`]}`)
	return sb.String()
}

// BenchmarkPathGrantCheck10k: 10 000 writes, each covered by the last of
// four granted prefixes, under a byte relation and a folding one.
func BenchmarkPathGrantCheck10k(b *testing.B) {
	p := decode(b, bigPlan(b, 10_000))
	d := declare(b, "CLAUDE.md", ".claude/agents/", ".claude/commands/", ".claude/skills/")
	for _, eq := range []pathrule.Equality{pathrule.Bytes, pathrule.Darwin} {
		g := d.Grant(eq)
		b.Run(eq.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := g.Check(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSetCheck10k(b *testing.B) {
	p := decode(b, bigPlan(b, 10_000))
	s, _ := Grant([]string{"net.http"})
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Check(p); err != nil {
			b.Fatal(err)
		}
	}
}

package lexical

import (
	"strconv"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// BenchmarkPath is the common case: a valid, several-component path.
func BenchmarkPath(b *testing.B) {
	const p = "skills/code-review/references/checklist.md"
	b.ReportAllocs()
	for b.Loop() {
		if rule, _ := Path(p); rule != schema.RuleUnknown {
			b.Fatal(rule)
		}
	}
}

func BenchmarkURL(b *testing.B) {
	const u = "https://example.org/org/repo/archive/v1.2.3.tar.gz?x=1"
	b.ReportAllocs()
	for b.Loop() {
		if rule, _ := URL(u, "https", "ssh"); rule != schema.RuleUnknown {
			b.Fatal(rule)
		}
	}
}

// BenchmarkHeaderSet checks a full set of MaxHeaders mixed-case names.
func BenchmarkHeaderSet(b *testing.B) {
	var hs []string
	for i := 0; i < MaxHeaders; i++ {
		hs = append(hs, "X-Header-"+strconv.Itoa(i), "value")
	}
	b.ReportAllocs()
	for b.Loop() {
		if rule, _ := addAll(hs...); rule != schema.RuleUnknown {
			b.Fatal(rule)
		}
	}
}

package audit

import (
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// BenchmarkAppend is one event record: lock, tail from cache, marshal, one
// write, fsync. fsync dominates; the figure is the disk's.
func BenchmarkAppend(b *testing.B) {
	l, _ := openTestLog(b)
	c := beginPlan(b, l, decodePlan(b, mixedPlan))
	ev := StepStarted(rejection.IntentRef{Index: 3, Op: schema.OpWrite})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := l.Event(c, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendForeignTail forces the tail to be re-read every time, as
// when another process appended in between.
func BenchmarkAppendForeignTail(b *testing.B) {
	l, _ := openTestLog(b)
	c := beginPlan(b, l, decodePlan(b, mixedPlan))
	ev := StepStarted(rejection.IntentRef{Index: 3, Op: schema.OpWrite})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.head.valid = false
		if err := l.Event(c, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBeginLargePlan is the pre-apply record of a 10 000-intent plan.
func BenchmarkBeginLargePlan(b *testing.B) {
	l, _ := openTestLog(b)
	recs := make([]IntentRecord, 10000)
	for i := range recs {
		r, err := NewIntentRecord(i, schema.Intent{Write: &schema.Write{Path: "skills/s/file" + string(rune('a'+i%26)) + ".md", Content: "hello"}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		recs[i] = r
	}
	ext := testExtension(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Begin(PlanRecord{Extension: ext, Tier: TierWasm, Intents: recs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify checks a 1000-record log.
func BenchmarkVerify(b *testing.B) {
	l, path := openTestLog(b)
	c := beginPlan(b, l, decodePlan(b, mixedPlan))
	for i := 0; i < 999; i++ {
		if err := l.Event(c, StepDone(rejection.IntentRef{Index: i, Op: schema.OpWrite})); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Verify(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnchorWrite is what the anchor adds to every append: an HMAC, a
// small write and a rename (no fsync).
func BenchmarkAnchorWrite(b *testing.B) {
	l, path := openTestLog(b)
	for i := 0; i < b.N; i++ {
		if err := writeHead(path, l.key, uint64(i+1), GenesisHash); err != nil {
			b.Fatal(err)
		}
	}
}

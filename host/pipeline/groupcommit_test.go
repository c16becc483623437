package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

// manyWrites is a plan of n writes spread over a few directories.
func manyWrites(n int) string {
	var b strings.Builder
	b.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"op":"write","path":"d%d/f%d.md","content":"body %d"}`, i%8, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestAuditSyncsPerPlanDoNotGrowWithIntents: the audit log costs the same
// number of fsyncs for a 1-intent plan as for a 1000-intent plan, and at
// most 3 (Open's directory sync, the pre-apply record, the outcome) when
// the plan has no remote hop. Per-step progress is the journal's, and only
// its counts reach the outcome record.
func TestAuditSyncsPerPlanDoNotGrowWithIntents(t *testing.T) {
	syncs := map[int]uint64{}
	for _, n := range []int{1, 1000} {
		root := t.TempDir()
		log, logPath := openLog(t)
		res, err := Apply(context.Background(), root, decode(t, manyWrites(n)), proposer(t, nil, nil),
			Options{FS: "bytes", Log: log, Warn: failOnWarn(t)})
		if err != nil || res.Outcome != OutcomeCommitted {
			t.Fatalf("%d intents: %v %v %v", n, res.Outcome, res.Err, err)
		}
		syncs[n] = log.Syncs()
		if syncs[n] > 3 {
			t.Fatalf("%d intents: %d audit fsyncs, want at most 3", n, syncs[n])
		}
		es, err := audit.Read(logPath, audit.Filter{Correlation: res.Correlation})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 2 || es[0].Kind != audit.KindPlan || es[1].Kind != audit.KindOutcome {
			t.Fatalf("%d intents: %d records under the correlation, want the plan and its outcome", n, len(es))
		}
		if len(es[0].Plan.Intents) != n {
			t.Fatalf("the pre-apply record holds %d of %d intents", len(es[0].Plan.Intents), n)
		}
		if got := es[1].Outcome.Steps[audit.EventPlaced]; got != n {
			t.Fatalf("outcome counts %d placed, want %d (%v)", got, n, es[1].Outcome.Steps)
		}
		if dirs := es[1].Outcome.Mkdir; len(dirs) != min(n, 8) || dirs[0] != "d0" {
			t.Fatalf("%d intents: created directories logged as %v", n, dirs)
		}
		if _, err := audit.Verify(logPath); err != nil {
			t.Fatal(err)
		}
	}
	if syncs[1] != syncs[1000] || syncs[1000] > 3 {
		t.Fatalf("audit fsyncs: %d for 1 intent, %d for 1000; want equal and at most 3", syncs[1], syncs[1000])
	}
}

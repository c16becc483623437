package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/internal/durable"
)

// TestSyncsPerPlanDoNotGrowWithIntents: one applied plan costs the same
// number of flushes for 1 intent as for 1000, counting every fsync and
// syncfs of the process (executor, journal and audit log together, through
// durable.Calls): with the log on the root's filesystem, 3 — a syncfs that
// makes the staged content, the journal's program and the pre-apply
// record durable before the first change; a syncfs that makes the changes
// and the commit record durable; the outcome record's fsync. With the log
// on another filesystem the pre-apply record is fsynced on its own: 4.
// Per-step progress is the journal's, and only its counts reach the
// outcome record.
func TestSyncsPerPlanDoNotGrowWithIntents(t *testing.T) {
	homes := map[string]string{"same filesystem": ""}
	if shm, err := os.MkdirTemp("/dev/shm", "lola-home-"); err == nil {
		t.Cleanup(func() { os.RemoveAll(shm) })
		if !sameDevice(t, shm, t.TempDir()) {
			homes["other filesystem"] = shm
		}
	}
	for name, base := range homes {
		t.Run(name, func(t *testing.T) {
			want := uint64(3)
			if base != "" {
				want = 4
			}
			syncs := map[int]uint64{}
			for _, n := range []int{1, 1000} {
				root := t.TempDir()
				if base == "" {
					base = t.TempDir()
				}
				logPath := filepath.Join(base, fmt.Sprintf("audit-%d.jsonl", n))
				log, err := audit.Open(logPath) // a warm log: opened (and created) before the count
				if err != nil {
					t.Fatal(err)
				}
				defer log.Close()
				before, logBefore := durable.Calls(), log.Syncs()
				res, err := Apply(context.Background(), root, decode(t, manyWrites(n)), proposer(t, nil, nil),
					Options{FS: "bytes", Log: log, Warn: failOnWarn(t)})
				if err != nil || res.Outcome != OutcomeCommitted {
					t.Fatalf("%d intents: %v %v %v", n, res.Outcome, res.Err, err)
				}
				syncs[n] = durable.Calls() - before
				if got := log.Syncs() - logBefore; got != want-2 {
					t.Fatalf("%d intents: the audit log fsynced %d times, want %d", n, got, want-2)
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
				if h, err := audit.Verify(logPath); err != nil || h.Unanchored != 0 {
					t.Fatalf("%+v %v", h, err)
				}
			}
			if syncs[1] != syncs[1000] || syncs[1000] != want {
				t.Fatalf("flushes per applied plan: %d for 1 intent, %d for 1000; want %d for both", syncs[1], syncs[1000], want)
			}
		})
	}
}

func sameDevice(t *testing.T, a, b string) bool {
	t.Helper()
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		t.Fatal("stat")
	}
	return sa.Dev == sb.Dev
}

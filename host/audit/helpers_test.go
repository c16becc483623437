package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
)

func openTestLog(t testing.TB) (*Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "home", FileName)
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func testExtension(t testing.TB) Extension {
	t.Helper()
	e, err := NewExtension("claude-target", "1.4.0")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func decodePlan(t testing.TB, js string) *plan.Plan {
	t.Helper()
	p, err := plan.Decode(strings.NewReader(js), plan.DefaultLimits())
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return p
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// beginPlan logs the pre-apply record of p as the executor would.
func beginPlan(t testing.TB, l *Log, p *plan.Plan) Correlation {
	t.Helper()
	recs, err := IntentsFromPlan(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Begin(PlanRecord{
		Extension:    testExtension(t),
		Tier:         TierWasm,
		Capabilities: nil,
		Layers:       []Layer{LayerWazero, LayerLandlockFS},
		Root:         NewRootID("/srv/project"),
		Intents:      recs,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// decodePlanErr decodes js with host/plan, returning its rejection if any.
func decodePlanErr(js string) (*plan.Plan, error) {
	return plan.Decode(strings.NewReader(js), plan.DefaultLimits())
}

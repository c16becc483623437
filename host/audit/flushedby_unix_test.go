//go:build unix

package audit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/internal/durable"
)

func deviceOfDir(t *testing.T, dir string) durable.Device {
	t.Helper()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	return durable.DeviceOf(d)
}

func planRecord(t *testing.T) PlanRecord {
	t.Helper()
	recs, err := IntentsFromPlan(decodePlan(t, mixedPlan))
	if err != nil {
		t.Fatal(err)
	}
	return PlanRecord{Extension: testExtension(t), Tier: TierWasm, Root: NewRootID("/srv/project"), Intents: recs}
}

// A pre-apply record whose filesystem the caller flushes whole before
// acting (BeginFlushedBy with the log's own device) costs no fsync, and
// is not anchored until a record that is fsynced: the head never names a
// record that may not be durable. The outcome anchors both. On another
// filesystem, or with no device, the record is fsynced and anchored.
func TestBeginFlushedByTheLogsFilesystem(t *testing.T) {
	l, path := openTestLog(t)
	home := filepath.Dir(path)
	opened := l.Syncs()
	before := durable.Calls()
	c, err := l.BeginFlushedBy(planRecord(t), deviceOfDir(t, home))
	must(t, err)
	if l.Syncs() != opened || durable.Calls() != before {
		t.Fatalf("a record the caller flushes cost %d fsyncs", durable.Calls()-before)
	}
	h, err := Verify(path)
	if err != nil || h.Records != 1 || h.Unanchored != 1 {
		t.Fatalf("before its flush the record must not be anchored: %+v %v", h, err)
	}
	must(t, l.Outcome(c, Committed()))
	if durable.Calls() != before+1 {
		t.Fatalf("the outcome cost %d flushes, want 1", durable.Calls()-before)
	}
	if h, err := Verify(path); err != nil || h.Records != 2 || !h.Anchored || h.Unanchored != 0 {
		t.Fatalf("after the outcome: %+v %v", h, err)
	}

	other := durable.Device{}
	if shm, err := os.MkdirTemp("/dev/shm", "lola-audit-"); err == nil {
		defer os.RemoveAll(shm)
		if d := deviceOfDir(t, shm); !d.Same(deviceOfDir(t, home)) {
			other = d
		}
	}
	for _, dev := range []durable.Device{{}, other} {
		before := durable.Calls()
		if _, err := l.BeginFlushedBy(planRecord(t), dev); err != nil {
			t.Fatal(err)
		}
		if durable.Calls() != before+1 {
			t.Fatalf("a record on a filesystem the caller does not flush cost %d fsyncs, want 1", durable.Calls()-before)
		}
		if h, err := Verify(path); err != nil || h.Unanchored != 0 {
			t.Fatalf("%+v %v", h, err)
		}
	}
}

// A record written without its fsync and lost to a power loss before the
// caller's flush is torn, or gone: the next append repairs a torn one, and
// Verify finds no gap either way, because the head never named it.
func TestUnflushedRecordLostIsRepairedNotTruncation(t *testing.T) {
	for _, keep := range []int64{0, 10} {
		l, path := openTestLog(t)
		c := beginPlan(t, l, decodePlan(t, mixedPlan))
		must(t, l.Outcome(c, Committed()))
		size := fileSize(t, path)
		if _, err := l.BeginFlushedBy(planRecord(t), deviceOfDir(t, filepath.Dir(path))); err != nil {
			t.Fatal(err)
		}
		l.Close()
		// The power loss: the unflushed record is gone, or torn after keep bytes.
		if err := os.Truncate(path, size+keep); err != nil {
			t.Fatal(err)
		}
		var ce *ChainError
		if _, err := Verify(path); keep == 0 && err != nil || keep > 0 && (!errors.As(err, &ce) || ce.Problem != ProblemTorn) {
			t.Fatalf("keep %d: %v", keep, err)
		}
		l2, err := Open(path)
		must(t, err)
		c2 := beginPlan(t, l2, decodePlan(t, mixedPlan))
		must(t, l2.Outcome(c2, Committed()))
		l2.Close()
		if _, err := Verify(path); err != nil {
			t.Fatalf("keep %d: after the next append: %v", keep, err)
		}
	}
}

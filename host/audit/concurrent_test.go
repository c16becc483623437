package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// TestMain turns this test binary into an appender when
// LOLA_AUDIT_HELPER_LOG is set: it appends a plan record,
// LOLA_AUDIT_HELPER_N events and an outcome to that log, and exits.
func TestMain(m *testing.M) {
	if path := os.Getenv("LOLA_AUDIT_HELPER_LOG"); path != "" {
		n, _ := strconv.Atoi(os.Getenv("LOLA_AUDIT_HELPER_N"))
		run := helperAppend
		if os.Getenv("LOLA_AUDIT_HELPER_FLOOD") != "" {
			run = helperFlood
		}
		if err := run(path, n); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helperAppend(path string, n int) error {
	l, err := Open(path)
	if err != nil {
		return err
	}
	defer l.Close()
	p, err := decodePlanErr(mixedPlan)
	if err != nil {
		return err
	}
	recs, err := IntentsFromPlan(p)
	if err != nil {
		return err
	}
	ext, err := NewExtension("helper", "1")
	if err != nil {
		return err
	}
	c, err := l.Begin(PlanRecord{Extension: ext, Tier: TierNative, Intents: recs})
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := l.Event(c, StepStarted(rejection.IntentRef{Index: i, Op: schema.OpWrite})); err != nil {
			return err
		}
	}
	return l.Outcome(c, Committed())
}

// helperFlood appends large plan records until killed.
func helperFlood(path string, _ int) error {
	l, err := Open(path)
	if err != nil {
		return err
	}
	recs := make([]IntentRecord, 20000)
	for i := range recs {
		r, err := NewIntentRecord(i, schema.Intent{Write: &schema.Write{Path: "skills/flood/file-" + strconv.Itoa(i) + ".md", Content: "x"}}, nil)
		if err != nil {
			return err
		}
		recs[i] = r
	}
	ext, err := NewExtension("flood", "1")
	if err != nil {
		return err
	}
	for {
		if _, err := l.Begin(PlanRecord{Extension: ext, Tier: TierNative, Intents: recs}); err != nil {
			return err
		}
	}
}

// An appender killed with SIGKILL at arbitrary points (often mid-write of a
// multi-megabyte record) never stops the log: the next append repairs any
// torn tail and the chain verifies.
func TestKilledAppenderLeavesARepairableLog(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot re-execute the test binary:", err)
	}
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	var repairs uint64
	for round := 0; round < 6; round++ {
		start := fileSize(t, path)
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "LOLA_AUDIT_HELPER_LOG="+path, "LOLA_AUDIT_HELPER_FLOOD=1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once it has written something, at a point that varies per round.
		deadline := time.Now().Add(20 * time.Second)
		for fileSize(t, path) < start+int64(round+1)*(1<<20) && time.Now().Before(deadline) {
			time.Sleep(time.Duration(round) * 100 * time.Microsecond)
		}
		cmd.Process.Kill()
		cmd.Wait()
		must(t, l.Event(c, StepStarted(rejection.IntentRef{Index: round % 6, Op: schema.OpWrite})))
		h, err := Verify(path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		repairs = h.Repairs
	}
	t.Logf("%d of 6 kills tore a record; every one was repaired", repairs)
}

// Two processes and two goroutines of this one append to one log at once;
// the chain stays valid and every record of each is there.
func TestConcurrentAppendsFromTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot re-execute the test binary:", err)
	}
	l, path := openTestLog(t)
	const perProcess, perGoroutine = 150, 100
	var wg sync.WaitGroup
	errs := make(chan error, 1<<16)
	for p := 0; p < 2; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "LOLA_AUDIT_HELPER_LOG="+path, "LOLA_AUDIT_HELPER_N="+strconv.Itoa(perProcess))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("helper: %v\n%s", err, out)
			}
		}()
	}
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perGoroutine; i++ {
				if err := l.Event(c, StepDone(rejection.IntentRef{Index: i, Op: schema.OpDelete})); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	// A reader verifying throughout never sees a half-written record.
	done := make(chan struct{})
	verified := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-done:
				verified <- n
				return
			default:
			}
			if _, err := Verify(path); err != nil {
				errs <- fmt.Errorf("verify during appends: %w", err)
			}
			n++
		}
	}()
	wg.Wait()
	close(done)
	t.Logf("%d verifications ran during the appends", <-verified)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	h, err := Verify(path)
	if err != nil {
		t.Fatalf("chain broken by concurrent appenders: %v", err)
	}
	want := uint64(1 + 2*perGoroutine + 2*(1+perProcess+1))
	if h.Records != want {
		t.Fatalf("%d records, want %d", h.Records, want)
	}
	// The anchor, rewritten by every appender under the lock, names the last.
	if !h.Anchored || h.AnchorSeq != want || h.Unanchored != 0 {
		t.Fatalf("anchor after concurrent appends: %+v", h)
	}
	es, err := Read(path, Filter{Kinds: []Kind{KindOutcome}})
	if err != nil || len(es) != 2 {
		t.Fatalf("%d outcomes from the helpers, %v", len(es), err)
	}
	for _, o := range es {
		under, _ := Read(path, Filter{Correlation: o.Correlation})
		if len(under) != perProcess+2 {
			t.Errorf("helper %s: %d records, want %d", o.Correlation, len(under), perProcess+2)
		}
	}
}

// Readers take a shared lock: while an appender holds the lock with half a
// record written, Verify and Read wait for the whole record rather than
// reporting a torn tail.
func TestReadersWaitForAnAppendInProgress(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	// Play the appender by hand: lock, write half a record, pause.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	must(t, lockFile(f))
	seq, prev, err := readTail(f, fileSize(t, path))
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Seq: seq + 1, Prev: prev, Kind: KindOutcome, Correlation: c, Outcome: &OutcomeEntry{Outcome: OutcomeCommitted}}
	line, _ := json.Marshal(e)
	line = append(line, '\n')
	f.Write(line[:len(line)/2])

	type result struct {
		h   Head
		n   int
		err error
	}
	got := make(chan result, 2)
	go func() { h, err := Verify(path); got <- result{h: h, err: err} }()
	go func() { es, err := Read(path, Filter{}); got <- result{n: len(es), err: err} }()
	select {
	case r := <-got:
		t.Fatalf("a reader did not wait for the append in progress: %+v", r)
	case <-time.After(200 * time.Millisecond):
	}
	f.Write(line[len(line)/2:])
	f.Sync()
	unlockFile(f)
	for i := 0; i < 2; i++ {
		r := <-got
		if r.err != nil || (r.h.Records != 2 && r.n != 2) {
			t.Fatalf("after the append completed: %+v", r)
		}
	}
}

package child_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Lifecycle bounds used by the tests. A child expected to finish gets
// okDeadline, generous because a Go child on a loaded machine (or under
// -race) can take hundreds of milliseconds to start, and Run returns as soon
// as it finishes anyway. A child the test expects to be killed gets
// killDeadline: long enough for it to start and reach its hostile act,
// short enough to keep the suite fast, and far from the 60 s it would hold
// for, so "returned on the deadline" and "waited for the child" cannot be
// confused.
const (
	okDeadline   = 20 * time.Second
	killDeadline = time.Second
	testGrace    = 500 * time.Millisecond
)

type specOpt func(*child.Config)

func withEnv(kv ...string) specOpt {
	return func(c *child.Config) { c.Env = append(c.Env, kv...) }
}
func withStdin(b []byte) specOpt           { return func(c *child.Config) { c.Stdin = b } }
func withDeadline(d time.Duration) specOpt { return func(c *child.Config) { c.Deadline = d } }
func withLimits(l plan.Limits) specOpt     { return func(c *child.Config) { c.Limits = l } }
func withStderrCap(n int) specOpt          { return func(c *child.Config) { c.StderrCap = n } }
func withMemoryMax(n int64) specOpt        { return func(c *child.Config) { c.MemoryMax = n } }
func withHookMode(cap int) specOpt {
	return func(c *child.Config) { c.Stdout, c.StdoutCap = child.StdoutDiagnostics, cap }
}

func fixtureSpec(t testing.TB, mode string, opts ...specOpt) child.Spec {
	t.Helper()
	c := child.Config{
		Path:      selfPath(t),
		Env:       []string{fixtureEnv + "=" + mode},
		Deadline:  okDeadline,
		Grace:     testGrace,
		StderrCap: 4 << 10,
		Stdout:    child.StdoutPlan,
		Limits:    plan.DefaultLimits(),
	}
	for _, o := range opts {
		o(&c)
	}
	s, err := child.NewSpec(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func limits(t testing.TB, bytes int64, intents int, field int64) plan.Limits {
	t.Helper()
	l, err := plan.NewLimits(bytes, intents, field)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// runTimed runs s and fails the test if Run took longer than the deadline
// plus the grace: the liveness bound the host promises.
func runTimed(t *testing.T, s child.Spec) child.Result {
	t.Helper()
	start := time.Now()
	res := child.Run(context.Background(), s)
	wall := time.Since(start)
	if bound := s.Deadline() + s.Grace(); wall > bound {
		t.Fatalf("Run took %s, more than deadline+grace %s (outcome %s)", wall, bound, res.Outcome)
	}
	return res
}

func wantOutcome(t *testing.T, res child.Result, want child.Outcome) {
	t.Helper()
	if res.Outcome != want {
		t.Fatalf("outcome %s, want %s (err %v, diagnostics %q)", res.Outcome, want, res.Err, clip(res.Diagnostics))
	}
}

func wantRule(t *testing.T, err error, rule schema.Rule) {
	t.Helper()
	if !errors.Is(err, rejection.Rule(rule)) {
		t.Fatalf("err %v, want rule %s", err, rule)
	}
}

func clip(b []byte) []byte {
	if len(b) > 200 {
		return b[:200]
	}
	return b
}

func TestPlanRoundTrip(t *testing.T) {
	req := []byte(`{"protocol":1,"operation":"generate","modules":[]}`)
	res := runTimed(t, fixtureSpec(t, "plan", withStdin(req)))
	wantOutcome(t, res, child.OutcomePlanReceived)
	if res.Err != nil || !res.Reaped || res.ExitStatus != 0 {
		t.Fatalf("err %v reaped %v status %d", res.Err, res.Reaped, res.ExitStatus)
	}
	if res.Plan.Len() != 1 {
		t.Fatalf("plan has %d intents, want 1", res.Plan.Len())
	}
	w := res.Plan.Intent(0).Write
	if w == nil || w.Path != "echo/request" || w.Content != strconv.Itoa(len(req)) {
		t.Fatalf("intent %+v: the child did not see the request", res.Plan.Intent(0))
	}
}

func TestHoldStdoutKilledOnDeadline(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "hold", withDeadline(killDeadline)))
	wantOutcome(t, res, child.OutcomeKilledDeadline)
	if res.Elapsed < killDeadline {
		t.Fatalf("killed after %s, before the %s deadline", res.Elapsed, killDeadline)
	}
	if !res.Reaped {
		t.Fatal("the direct child was not reaped")
	}
	if res.Plan != nil || res.ExitStatus != -1 {
		t.Fatalf("plan %v, exit status %d after a kill", res.Plan, res.ExitStatus)
	}
	assertGone(t, res.Diagnostics)
}

func TestStderrFloodTruncatedPlanKept(t *testing.T) {
	const floodMiB = 320
	const stderrCap = 64 << 10
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	// Sample the heap while the child floods: the bound must hold
	// throughout, not only at the end.
	stop := make(chan struct{})
	peak := make(chan uint64, 1)
	go func() {
		var ms runtime.MemStats
		var max uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			max = maxU(max, ms.HeapInuse)
			select {
			case <-stop:
				peak <- max
				return
			case <-tick.C:
			}
		}
	}()
	res := child.Run(context.Background(), fixtureSpec(t, "flood",
		withEnv("LOLA_FLOOD_MIB="+strconv.Itoa(floodMiB)),
		withStderrCap(stderrCap),
		withDeadline(60*time.Second)))
	runtime.ReadMemStats(&after)
	close(stop)
	heapPeak := <-peak

	wantOutcome(t, res, child.OutcomePlanReceived)
	if res.Plan.Len() != 1 || res.Plan.Intent(0).Delete == nil {
		t.Fatalf("the plan printed amid the flood was not kept: %d intents", res.Plan.Len())
	}
	if !res.DiagnosticsTruncated || !bytes.Contains(res.Diagnostics, []byte(child.TruncationMarker)) {
		t.Fatalf("diagnostics not truncated with the marker (len %d)", len(res.Diagnostics))
	}
	if len(res.Diagnostics) > stderrCap+128 {
		t.Fatalf("diagnostics %d bytes, cap %d", len(res.Diagnostics), stderrCap)
	}
	if !bytes.HasPrefix(res.Diagnostics, []byte("noise noise")) {
		t.Fatalf("diagnostics do not keep the head of stderr: %q", clip(res.Diagnostics))
	}
	// The flood is 320 MiB; a host that buffered it would allocate at least
	// that. The ceiling allows the cap, read buffers and test noise.
	const ceiling = 16 << 20
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > ceiling {
		t.Fatalf("host allocated %d bytes while draining a %d MiB flood (ceiling %d)", alloc, floodMiB, ceiling)
	}
	if grew := int64(heapPeak) - int64(before.HeapInuse); grew > ceiling {
		t.Fatalf("host heap grew by %d bytes during the flood (ceiling %d)", grew, ceiling)
	}
	t.Logf("flood of %d MiB drained in %s; allocated %d KiB", floodMiB, res.Elapsed, (after.TotalAlloc-before.TotalAlloc)>>10)
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

func TestSetsidDescendantHoldingStdout(t *testing.T) {
	for _, mode := range []string{"setsid-exit", "setsid-hold"} {
		t.Run(mode, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "grandchild.pid")
			t.Cleanup(func() { killPidfile(t, pidfile) })
			res := runTimed(t, fixtureSpec(t, mode, withDeadline(killDeadline), withEnv("LOLA_PIDFILE="+pidfile)))
			wantOutcome(t, res, child.OutcomeKilledDeadline)
			if !res.Reaped {
				t.Fatal("the direct child was not reaped")
			}
			if _, err := os.Stat(pidfile); err != nil {
				t.Fatalf("the fixture never started its descendant: %v", err)
			}
			if mode == "setsid-exit" && !raceEnabled {
				// The child exited at once; its descendant kept stdout open.
				if res.ExitStatus != 0 || !strings.Contains(res.Err.Error(), "descendant") {
					t.Fatalf("exit status %d, err %q: want 0 and a descendant holding stdout", res.ExitStatus, res.Err)
				}
			}
		})
	}
}

// killPidfile ends the descendant a fixture left behind (by its pid, which
// the fixture recorded), so no test leaks a process. On Linux and Windows
// containment has already ended it (TestDescendantContained and
// TestJobObjectContainsDescendants assert that); under process-group
// containment it survives the run, as documented.
func killPidfile(t *testing.T, pidfile string) {
	b, err := os.ReadFile(pidfile)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(string(b))
	if err != nil || pid <= 0 {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
		_ = p.Release()
	}
}

func TestPlanOneByteOverCapKilled(t *testing.T) {
	const maxBytes = 1 << 20
	l := limits(t, maxBytes, 10, maxBytes)
	t.Run("at-cap-accepted", func(t *testing.T) {
		res := runTimed(t, fixtureSpec(t, "sized", withLimits(l), withEnv("LOLA_PLAN_BYTES="+strconv.Itoa(maxBytes))))
		wantOutcome(t, res, child.OutcomePlanReceived)
	})
	t.Run("one-over-killed", func(t *testing.T) {
		// The fixture holds after writing: only the bound's kill ends it
		// before the deadline, which is far away.
		res := runTimed(t, fixtureSpec(t, "sized", withLimits(l), withDeadline(20*time.Second),
			withEnv("LOLA_PLAN_BYTES="+strconv.Itoa(maxBytes+1), "LOLA_THEN_HOLD=1")))
		wantOutcome(t, res, child.OutcomeKilledStdoutBound)
		wantRule(t, res.Err, schema.RulePlanTooLarge)
		if res.Elapsed > 10*time.Second || !res.Reaped || res.Plan != nil {
			t.Fatalf("elapsed %s reaped %v plan %v", res.Elapsed, res.Reaped, res.Plan)
		}
	})
}

func TestMillionIntentsTooMany(t *testing.T) {
	const n = 1_000_000
	// Bytes are ample (10^6 intents are ~27 MB), so the intent bound is the
	// one that trips. The default intent bound, 100 000, is the real one.
	l := limits(t, 64<<20, plan.DefaultLimits().MaxIntents(), 1<<20)
	res := runTimed(t, fixtureSpec(t, "many", withLimits(l), withDeadline(20*time.Second),
		withEnv("LOLA_INTENTS="+strconv.Itoa(n))))
	wantOutcome(t, res, child.OutcomeKilledStdoutBound)
	wantRule(t, res.Err, schema.RulePlanTooManyIntents)
	if bytes.Contains(res.Diagnostics, []byte("wrote-all")) {
		t.Fatal("the child finished writing: the host read everything before refusing")
	}
}

func TestFieldTooLargeKilled(t *testing.T) {
	const field = 64 << 10
	l := limits(t, 8<<20, 10, field)
	res := runTimed(t, fixtureSpec(t, "field", withLimits(l), withDeadline(20*time.Second),
		withEnv("LOLA_FIELD_BYTES="+strconv.Itoa(field+1))))
	wantOutcome(t, res, child.OutcomeKilledStdoutBound)
	wantRule(t, res.Err, schema.RulePlanFieldTooLarge)
}

func TestExitNonZero(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "exit3"))
	wantOutcome(t, res, child.OutcomeExitNonZero)
	if res.ExitStatus != 3 || !res.Reaped {
		t.Fatalf("exit status %d reaped %v, want 3", res.ExitStatus, res.Reaped)
	}
	if !bytes.Contains(res.Diagnostics, []byte("boom")) {
		t.Fatalf("stderr not reported: %q", res.Diagnostics)
	}
	if res.Plan != nil || res.Err == nil {
		t.Fatalf("plan %v err %v", res.Plan, res.Err)
	}
}

func TestKilledBySomeoneElse(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "suicide"))
	wantOutcome(t, res, child.OutcomeExitNonZero)
	if res.ExitStatus != -1 && runtime.GOOS != "windows" {
		t.Fatalf("exit status %d for a signal, want -1", res.ExitStatus)
	}
}

func TestMalformedPlanDrainedNotKilled(t *testing.T) {
	// 5 MiB follow the garbage: a host that stopped reading would leave the
	// child blocked until the deadline.
	res := runTimed(t, fixtureSpec(t, "malformed", withDeadline(10*time.Second)))
	wantOutcome(t, res, child.OutcomePlanRefused)
	wantRule(t, res.Err, schema.RulePlanMalformed)
	if !res.Reaped || res.ExitStatus != 0 {
		t.Fatalf("reaped %v status %d: a malformed plan must not kill the child", res.Reaped, res.ExitStatus)
	}
}

func TestPolicyRefusalAtDecode(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "post"))
	wantOutcome(t, res, child.OutcomePlanRefused)
	wantRule(t, res.Err, schema.RuleRemoteMethod)
	if v := rejection.All(res.Err); len(v) != 1 || len(v[0].Intents) != 1 || v[0].Intents[0].Index != 0 {
		t.Fatalf("violation does not name intent 0: %v", res.Err)
	}
}

func TestTrailingDataRefused(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "trailing"))
	wantOutcome(t, res, child.OutcomePlanRefused)
	wantRule(t, res.Err, schema.RulePlanMalformed)
}

func TestLargeRequestChildNeverReads(t *testing.T) {
	big := bytes.Repeat([]byte("r"), 16<<20) // far past any pipe buffer
	t.Run("answers-and-exits", func(t *testing.T) {
		res := runTimed(t, fixtureSpec(t, "noread", withStdin(big)))
		wantOutcome(t, res, child.OutcomePlanReceived)
	})
	t.Run("holds", func(t *testing.T) {
		base := runtime.NumGoroutine()
		res := runTimed(t, fixtureSpec(t, "noread-hold", withStdin(big), withDeadline(killDeadline)))
		wantOutcome(t, res, child.OutcomeKilledDeadline)
		// The request writer was blocked on a full pipe; the kill must have
		// released it rather than leaked it.
		deadline := time.Now().Add(2 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if g := runtime.NumGoroutine(); g > base {
			t.Fatalf("%d goroutines after Run, %d before: a writer or reader leaked", g, base)
		}
	})
}

func TestEnvironmentIsExactlyTheSpecs(t *testing.T) {
	res := runTimed(t, fixtureSpec(t, "env", withEnv("ONLY=this")))
	wantOutcome(t, res, child.OutcomePlanReceived)
	got := strings.Split(string(res.Diagnostics), "\n")
	want := []string{fixtureEnv + "=env", "ONLY=this"}
	if runtime.GOOS == "windows" {
		t.Skip("Windows adds SYSTEMROOT to every child's environment")
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("child environment %q, want %q", got, want)
	}
}

func TestHookMode(t *testing.T) {
	t.Run("completed", func(t *testing.T) {
		res := runTimed(t, fixtureSpec(t, "hook", withHookMode(1024)))
		wantOutcome(t, res, child.OutcomeCompleted)
		if !res.OutputTruncated || !bytes.HasPrefix(res.Output, []byte("hook says hello")) ||
			!bytes.Contains(res.Output, []byte(child.TruncationMarker)) {
			t.Fatalf("hook stdout not captured as bounded diagnostics: truncated %v, %q", res.OutputTruncated, clip(res.Output))
		}
		if res.Plan != nil {
			t.Fatal("a hook's stdout was parsed as a plan")
		}
	})
	t.Run("failed", func(t *testing.T) {
		res := runTimed(t, fixtureSpec(t, "hook", withHookMode(1024), withEnv("LOLA_HOOK_FAIL=1")))
		wantOutcome(t, res, child.OutcomeExitNonZero)
		if res.ExitStatus != 1 {
			t.Fatalf("exit status %d, want 1", res.ExitStatus)
		}
	})
	t.Run("held", func(t *testing.T) {
		res := runTimed(t, fixtureSpec(t, "hold", withHookMode(1024), withDeadline(killDeadline)))
		wantOutcome(t, res, child.OutcomeKilledDeadline)
	})
}

func TestStartFailedRedacted(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-extension")
	s, err := child.NewSpec(child.Config{Path: missing, Deadline: time.Second, Grace: time.Second,
		StderrCap: 1, Stdout: child.StdoutPlan, Limits: plan.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	res := child.Run(context.Background(), s)
	wantOutcome(t, res, child.OutcomeStartFailed)
	if res.Err == nil || strings.Contains(res.Err.Error(), dir) {
		t.Fatalf("start error %q carries the host path", res.Err)
	}
	if !strings.Contains(res.Err.Error(), "no-such-extension") {
		t.Fatalf("start error %q does not name the extension", res.Err)
	}

	// A missing working directory is reported without its path either.
	s, err = child.NewSpec(child.Config{Path: selfPath(t), Dir: filepath.Join(dir, "gone"), Deadline: time.Second,
		Grace: time.Second, StderrCap: 1, Stdout: child.StdoutPlan, Limits: plan.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	res = child.Run(context.Background(), s)
	wantOutcome(t, res, child.OutcomeStartFailed)
	if strings.Contains(res.Err.Error(), dir) || strings.Contains(res.Err.Error(), filepath.Dir(selfPath(t))) {
		t.Fatalf("start error %q carries a host path", res.Err)
	}
	if !strings.Contains(res.Err.Error(), "working directory gone") {
		t.Fatalf("start error %q does not name the missing working directory", res.Err)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	s := fixtureSpec(t, "hold")
	start := time.Now()
	res := child.Run(ctx, s)
	wantOutcome(t, res, child.OutcomeCanceled)
	if wall := time.Since(start); wall > 100*time.Millisecond+testGrace {
		t.Fatalf("cancel took %s to take effect", wall)
	}
	if !res.Reaped {
		t.Fatal("not reaped after cancel")
	}
	already, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if res := child.Run(already, s); res.Outcome != child.OutcomeCanceled {
		t.Fatalf("a canceled context started the child: %s", res.Outcome)
	}
}

func TestZeroSpecRefused(t *testing.T) {
	res := child.Run(context.Background(), child.Spec{})
	wantOutcome(t, res, child.OutcomeStartFailed)
}

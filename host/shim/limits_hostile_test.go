package shim

import (
	"bytes"
	"context"
	"crypto/sha256"
	"strconv"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/shim/shimtest"
)

// rssBoundKiB is what a refused hostile module may cost the shim child at
// its peak: the Go runtime and wazero at rest take about 20-40 MiB.
const rssBoundKiB = 150 << 10

func checkRSS(t *testing.T, r result) {
	t.Helper()
	t.Logf("peak RSS of the shim child: %d KiB", r.maxRSS)
	if r.maxRSS > rssBoundKiB {
		t.Fatalf("the shim child peaked at %d KiB, over %d KiB", r.maxRSS, rssBoundKiB)
	}
}

func runWith(f shimtest.Func, mod func(*shimtest.Module)) shimtest.Module {
	m := shimtest.Reactor(1, 0, nil).Replace("lola_run", f)
	if mod != nil {
		mod(&m)
	}
	return m
}

// 16.5: a module declaring 30M locals (a few bytes) is refused by name
// before wazero decodes it, instead of taking the child to ~700 MB.
func TestHostileLocalsRefusedBeforeCompilation(t *testing.T) {
	m := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Locals: 30_000_000, Body: shimtest.I32(0)}, nil)
	b := m.Bytes()
	if len(b) > 300 {
		t.Fatalf("the attack module is %d bytes", len(b))
	}
	r := runShim(t, writeModule(t, b), testLimits(t, nil), "", nil)
	d := r.expect(t, KindModuleLimit)
	if d.LimitName != "locals-per-function" || d.Limit != MaxLocalsPerFunc {
		t.Fatalf("diagnostic %+v", d)
	}
	checkRSS(t, r)
	// At the limit the module compiles and runs.
	ok := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Locals: MaxLocalsPerFunc - 2, Body: shimtest.I32(0)}, nil)
	runShim(t, writeModule(t, ok.Bytes()), testLimits(t, nil), "", nil).expect(t, KindOK)
}

// Many functions each under the per-function bound still meet the
// module's total.
func TestHostileLocalsTotal(t *testing.T) {
	m := shimtest.Reactor(1, 0, nil)
	for i := 0; i <= MaxLocalsTotal/MaxLocalsPerFunc; i++ {
		m.Funcs = append(m.Funcs, shimtest.Func{Locals: MaxLocalsPerFunc})
	}
	d := runShim(t, writeModule(t, m.Bytes()), testLimits(t, nil), "", nil).expect(t, KindModuleLimit)
	if d.LimitName != "locals-total" || d.Limit != MaxLocalsTotal {
		t.Fatalf("diagnostic %+v", d)
	}
}

// 16.4: table.grow(0x6000000) on a table without a maximum (what Go's
// toolchain emits) is refused by the maximum the shim gives such a table:
// the grow returns -1 (here the module then traps) and the child stays
// small, where it used to reach 789 MB and report success.
func TestHostileTableGrowIsBounded(t *testing.T) {
	grow := shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.TableGrow(0x6000000), shimtest.TrapIfMinusOne, shimtest.I32(0))}
	m := runWith(grow, func(m *shimtest.Module) { m.Tables = []shimtest.Table{{Min: 1}} })
	r := runShim(t, writeModule(t, m.Bytes()), testLimits(t, nil), "", nil)
	r.expect(t, KindTrap)
	checkRSS(t, r)
	// A grow within the bound succeeds: the table is bounded, not frozen.
	small := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.TableGrow(MaxTableElements-1), shimtest.TrapIfMinusOne, shimtest.I32(0))},
		func(m *shimtest.Module) { m.Tables = []shimtest.Table{{Min: 1}} })
	runShim(t, writeModule(t, small.Bytes()), testLimits(t, nil), "", nil).expect(t, KindOK)
}

func TestHostileTableDeclarationsRefused(t *testing.T) {
	big := uint32(MaxTableElements + 1)
	for name, tab := range map[string]shimtest.Table{
		"minimum": {Min: big},
		"maximum": {Min: 1, Max: &big},
	} {
		t.Run(name, func(t *testing.T) {
			m := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Body: shimtest.I32(0)},
				func(m *shimtest.Module) { m.Tables = []shimtest.Table{tab} })
			d := runShim(t, writeModule(t, m.Bytes()), testLimits(t, nil), "", nil).expect(t, KindModuleLimit)
			if d.LimitName != "table-elements" || d.Limit != MaxTableElements {
				t.Fatalf("diagnostic %+v", d)
			}
		})
	}
}

// 15: a module whose memory.grow is refused at the ceiling and that then
// traps is reported as the memory limit with its value, not as "trap:
// unreachable" (its memory is nowhere near the ceiling when it fails).
func TestHostileMemoryGrowReportsTheCeiling(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.memoryPages = 512 })
	m := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.MemoryGrow(2000), shimtest.TrapIfMinusOne, shimtest.I32(0))}, nil)
	r := runShim(t, writeModule(t, m.Bytes()), l, "", nil)
	d := r.expect(t, KindMemoryLimit)
	if d.Limit != 512 || d.Pages != 1 {
		t.Fatalf("diagnostic %+v", d)
	}
	if want := "memory-limit: the module hit its memory ceiling of 512 pages (32 MiB)"; d.Error()[:len(want)] != want {
		t.Fatalf("message %q", d.Error())
	}
	// A grow to exactly the ceiling succeeds.
	ok := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.MemoryGrow(511), shimtest.TrapIfMinusOne, shimtest.I32(0))}, nil)
	runShim(t, writeModule(t, ok.Bytes()), l, "", nil).expect(t, KindOK)
	// A trap unrelated to memory stays a trap.
	trap := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Body: shimtest.Unreachable}, nil)
	runShim(t, writeModule(t, trap.Bytes()), l, "", nil).expect(t, KindTrap)
}

func TestHostileMemoryMinimumOverTheCeiling(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.memoryPages = 512 })
	m := shimtest.Reactor(1, 0, nil)
	m.Pages = 513
	d := runShim(t, writeModule(t, m.Bytes()), l, "", nil).expect(t, KindMemoryLimit)
	if d.Limit != 512 || d.Pages != 513 {
		t.Fatalf("diagnostic %+v", d)
	}
}

// 16.5: the whole child is bounded by RLIMIT_DATA, whatever the module's
// own ceiling allows. With the data limit forced below the ceiling, a
// growth the ceiling permits is refused (the kernel will not commit the
// reserved memory; with linear memory in the Go heap the runtime dies of
// it instead), and the memory limit is reported; without RLIMIT_DATA the
// run would succeed.
func TestDataLimitBoundsTheWholeChild(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.memoryPages = 4096 })
	m := runWith(shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.MemoryGrow(3000), shimtest.TrapIfMinusOne, shimtest.I32(0))}, nil)
	mod := writeModule(t, m.Bytes())
	inv := childInvocation(t, mod, l, "")
	inv.Env = append(inv.Env, knobsEnv+"=data-limit="+strconv.Itoa(128<<20))
	res, rep, err := RunModule(context.Background(), inv, nil, plan.DefaultLimits())
	if err != nil {
		t.Fatalf("no report (%v): outcome %s\n%s", err, res.Outcome, res.Diagnostics)
	}
	if res.Outcome != child.OutcomeExitNonZero || rep.Outcome.Kind != KindMemoryLimit {
		t.Fatalf("outcome %s, report %+v\n%s", res.Outcome, rep.Outcome, res.Diagnostics)
	}
	if rep.Confinement != nil && rep.Confinement.OS == "linux" && rep.Confinement.DataLimit != 128<<20 {
		t.Fatalf("confinement reports data limit %d", rep.Confinement.DataLimit)
	}
	// The control: the same module under the default data limit succeeds.
	res, rep, err = RunModule(context.Background(), childInvocation(t, mod, l, ""), nil, plan.DefaultLimits())
	if err != nil || rep.Outcome.Kind != KindOK {
		t.Fatalf("control: %v %+v\n%s", err, rep.Outcome, res.Diagnostics)
	}
}

// 11.5: the shim reports the SHA-256 of exactly the bytes it read (and
// ran), so the host records it without reading the artifact again; the
// line comes before confinement, i.e. before any guest code runs.
func TestModuleDigestReported(t *testing.T) {
	b := shimtest.Reactor(1, 0, []byte(EmptyPlan)).Bytes()
	r := runShim(t, writeModule(t, b), testLimits(t, nil), "", nil)
	r.expect(t, KindOK)
	if !r.report.HasModule || r.report.Module != sha256.Sum256(b) || r.report.ModuleBytes != len(b) {
		t.Fatalf("module line %x (%d bytes), want %x (%d)", r.report.Module, r.report.ModuleBytes, sha256.Sum256(b), len(b))
	}
	mod := bytes.Index(r.stderr, []byte(`"event":"module"`))
	conf := bytes.Index(r.stderr, []byte(`"event":"confinement"`))
	if mod < 0 || (conf >= 0 && conf < mod) {
		t.Fatalf("the module line must precede confinement:\n%s", r.stderr)
	}
	if p := r.report.Outcome.Phases; p == nil || p.Total <= 0 || p.Read+p.Scan+p.Compile+p.Confine+p.Request+p.Instantiate+p.Run > p.Total {
		t.Fatalf("phases %+v", p)
	}
}

// 15: a Go module that builds a 75 MiB plan is refused promptly for its
// size (the shim's plan-too-large, before a byte is copied), well inside
// a 5 s --timeout, never by the clock.
func TestHostileGoModule75MiBPlanRefusedPromptly(t *testing.T) {
	l, err := DefaultLimits().WithOuterDeadline(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	mod := guestReactor.build(t)
	runShim(t, mod, testLimits(t, nil), sharedCache, request(t, "plan-len", "10")).expect(t, KindOK) // compiled and cached
	start := time.Now()
	r := runShim(t, mod, l, sharedCache, request(t, "plan-len", strconv.Itoa(75<<20)))
	d := r.expect(t, KindPlanTooLarge)
	if d.Limit != l.MaxPlan() {
		t.Fatalf("diagnostic %+v", d)
	}
	t.Logf("refused after %s", time.Since(start))
}

// The watchdog: when something the context's cancellation cannot
// interrupt (here a stall past the outer deadline) holds the shim after
// its clock expired, the shim still writes its timeout outcome and exits
// by itself, WatchdogGrace after the clock, before the host's kill
// (runShim fails the test if the outer deadline had to kill the child).
func TestWatchdogEndsAStalledShim(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.timeout = 300 * time.Millisecond })
	m := shimtest.Reactor(1, 0, []byte(EmptyPlan))
	r := runShim(t, writeModule(t, m.Bytes()), l, "", nil, "stall")
	d := r.expect(t, KindTimeout)
	if d.Limit != 300 || d.Detail != WatchdogDetail {
		t.Fatalf("diagnostic %+v", d)
	}
}

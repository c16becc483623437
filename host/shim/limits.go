package shim

import (
	"fmt"
	"time"

	"github.com/lola-pm/lola/host/plan"
)

// Limits bounds one shim run. The zero value is not valid; build with
// NewLimits or DefaultLimits.
type Limits struct {
	maxModule      int64
	maxRequest     int64
	maxPlan        int64
	memoryPages    uint32
	compileTimeout time.Duration
	timeout        time.Duration
}

// NewLimits validates and returns limits. Every bound must be positive;
// memoryPages is at most 65536 (4 GiB, the wasm32 maximum).
func NewLimits(maxModule, maxRequest, maxPlan int64, memoryPages uint32, compileTimeout, timeout time.Duration) (Limits, error) {
	if maxModule <= 0 || maxRequest <= 0 || maxPlan <= 0 || memoryPages == 0 || memoryPages > 65536 ||
		compileTimeout <= 0 || timeout <= 0 {
		return Limits{}, fmt.Errorf("shim limits must be positive (module %d, request %d, plan %d, pages %d, compile %s, timeout %s)",
			maxModule, maxRequest, maxPlan, memoryPages, compileTimeout, timeout)
	}
	return Limits{maxModule: maxModule, maxRequest: maxRequest, maxPlan: maxPlan, memoryPages: memoryPages,
		compileTimeout: compileTimeout, timeout: timeout}, nil
}

// DefaultLimits: a 32 MiB module, a 64 MiB request, the host's default plan
// bound (so the shim's check and the host's short-circuit at the same
// value), 256 MiB of linear memory, at most 15 s of the clock for
// compilation (a cold compile of a 4 MiB Go module takes about 1.3 s on a
// quiet 2-core machine, and ten times that on a saturated one), and a
// clock of 20 s for the whole shim (an outer deadline of 22 s), which the
// host raises by 2 s for each MiB of request (ForRequest).
func DefaultLimits() Limits {
	return Limits{maxModule: 32 << 20, maxRequest: 64 << 20, maxPlan: plan.DefaultLimits().MaxBytes(),
		memoryPages: 4096, compileTimeout: 15 * time.Second, timeout: 20 * time.Second}
}

// ClockPerMiB is the clock a run gets beyond Limits.Timeout for each MiB
// of its request (ForRequest). Why a budget that grows with the request:
// wazero stops a module at the clock by a check at every loop back-edge
// that leaves the module for Go (WithCloseOnContextDone), which costs a
// module that reads and writes a request byte by byte several times its
// own run time. A Go-built target takes about 1.5 s of CPU per MiB of
// request on a quiet 2-core machine (a 20 MiB module, a 28 MB request:
// about 30 s), an AssemblyScript one about 0.2 s, so a fixed 20 s clock
// refused large modules that are no runaway at all. 2 s per MiB leaves
// a Go target its time on a busy machine while a module that spins on a
// small request still stops at Timeout; the request bound (MaxRequest,
// 64 MiB) bounds the whole at Timeout + 128 s.
const ClockPerMiB = 2 * time.Second

// ForRequest returns l with the clock raised by ClockPerMiB for each whole
// MiB of an n-byte request: the clock the host gives a run whose
// deadline the user did not set. The compile budget is unchanged.
func (l Limits) ForRequest(n int64) Limits {
	if n > 0 {
		l.timeout += time.Duration(n>>20) * ClockPerMiB
	}
	return l
}

// MaxModule is the artifact size bound in bytes.
func (l Limits) MaxModule() int64 { return l.maxModule }

// MaxRequest is the request size bound in bytes.
func (l Limits) MaxRequest() int64 { return l.maxRequest }

// MaxPlan is the declared-plan-length bound in bytes.
func (l Limits) MaxPlan() int64 { return l.maxPlan }

// MemoryPages is the linear memory ceiling in 64 KiB pages.
func (l Limits) MemoryPages() uint32 { return l.memoryPages }

// CompileTimeout bounds compilation of the module. It is a part of
// Timeout, never added to it: compilation also ends when the shim's clock
// does.
func (l Limits) CompileTimeout() time.Duration { return l.compileTimeout }

// Timeout is the shim's clock, started when Main starts: reading the
// artifact, compilation, confinement, _initialize, the ABI calls and
// lola_run all run inside it. The module is stopped by cancelling its
// context when it expires, and a watchdog ends the process WatchdogGrace
// later if a host call the cancellation cannot interrupt is still running.
func (l Limits) Timeout() time.Duration { return l.timeout }

// Margin bounds. The margin between the shim's clock and the host's outer
// deadline covers what runs outside the clock (exec of the lola binary and
// the Go runtime's start, writing the plan to the pipe, exiting) and the
// watchdog's grace. It is a tenth of the clock, at least MinMargin and at
// most MaxMargin, so a short --timeout is not eaten by a fixed reserve.
const (
	MinMargin     = 250 * time.Millisecond
	MaxMargin     = 2 * time.Second
	WatchdogGrace = 100 * time.Millisecond
)

func margin(timeout time.Duration) time.Duration {
	return min(max(timeout/10, MinMargin), MaxMargin)
}

// OuterDeadline is the deadline the host must put on a shim child:
//
//	OuterDeadline = Timeout + min(max(Timeout/10, MinMargin), MaxMargin)
//
// strictly greater than the shim's clock plus WatchdogGrace, so when the
// module spins the shim's own "timeout" diagnostic arrives first and the
// user never sees the host's kill.
func (l Limits) OuterDeadline() time.Duration {
	return l.timeout + margin(l.timeout)
}

// MinTimeout is the smallest shim clock WithOuterDeadline leaves.
const MinTimeout = 100 * time.Millisecond

// WithOuterDeadline returns l with the shim's clock set to the largest
// Timeout whose OuterDeadline is at most outer (the form of a user's
// --timeout, which is the outer deadline; the two differ by at most a few
// nanoseconds of rounding). The compile budget is capped at the clock. It
// refuses an outer deadline that would leave less than MinTimeout.
func (l Limits) WithOuterDeadline(outer time.Duration) (Limits, error) {
	var t time.Duration
	switch {
	case outer-MaxMargin >= 10*MaxMargin:
		t = outer - MaxMargin
	case outer-MinMargin <= 10*MinMargin:
		t = outer - MinMargin
	default:
		t = outer * 10 / 11
		for t+1+margin(t+1) <= outer {
			t++
		}
		for t+margin(t) > outer {
			t--
		}
	}
	if t < MinTimeout {
		return Limits{}, fmt.Errorf("an outer deadline of %s leaves the extension %s, less than %s (a margin of %s comes first)",
			outer, t, MinTimeout, MinMargin)
	}
	l.timeout = t
	l.compileTimeout = min(l.compileTimeout, t)
	return l, nil
}

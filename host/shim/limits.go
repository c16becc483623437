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
// value), 256 MiB of linear memory, 10 s to compile and 10 s to run (an
// outer deadline of 25 s).
func DefaultLimits() Limits {
	return Limits{maxModule: 32 << 20, maxRequest: 64 << 20, maxPlan: plan.DefaultLimits().MaxBytes(),
		memoryPages: 4096, compileTimeout: 10 * time.Second, timeout: 10 * time.Second}
}

// MaxModule is the artifact size bound in bytes.
func (l Limits) MaxModule() int64 { return l.maxModule }

// MaxRequest is the request size bound in bytes.
func (l Limits) MaxRequest() int64 { return l.maxRequest }

// MaxPlan is the declared-plan-length bound in bytes.
func (l Limits) MaxPlan() int64 { return l.maxPlan }

// MemoryPages is the linear memory ceiling in 64 KiB pages.
func (l Limits) MemoryPages() uint32 { return l.memoryPages }

// CompileTimeout bounds compilation of the module.
func (l Limits) CompileTimeout() time.Duration { return l.compileTimeout }

// Timeout is the module's wall-clock budget: _initialize, the ABI calls and
// lola_run, enforced by cancelling the module's context.
func (l Limits) Timeout() time.Duration { return l.timeout }

// Margins of the outer deadline. StartupMargin covers exec of the lola
// binary, reading the artifact (at most MaxModule bytes from local disk),
// reading the request and applying confinement (milliseconds on Linux);
// WriteMargin covers copying the plan out, writing it to the pipe and
// exiting.
const (
	StartupMargin = 3 * time.Second
	WriteMargin   = 2 * time.Second
)

// OuterDeadline is the deadline the host must put on a shim child. It is
// strictly greater than everything the shim's own clocks allow:
//
//	OuterDeadline = StartupMargin + CompileTimeout + Timeout + WriteMargin
//
// so when the module spins, the shim's inner timeout fires first and the
// user sees the shim's "timeout" diagnostic, never the host's kill. (Set
// equal to Timeout, the host would kill every shim at the instant the inner
// clock fired.)
func (l Limits) OuterDeadline() time.Duration {
	return StartupMargin + l.compileTimeout + l.timeout + WriteMargin
}

// MinTimeout is the smallest module budget WithOuterDeadline leaves.
const MinTimeout = 100 * time.Millisecond

// WithOuterDeadline returns l with the module's Timeout set to what an
// outer deadline of outer leaves after the margins and the compile budget,
// so that the result's OuterDeadline() == outer (the form of a user's
// --timeout, which is the outer deadline). It refuses an outer deadline
// that would leave the module less than MinTimeout.
func (l Limits) WithOuterDeadline(outer time.Duration) (Limits, error) {
	t := outer - StartupMargin - l.compileTimeout - WriteMargin
	if t < MinTimeout {
		return Limits{}, fmt.Errorf("an outer deadline of %s leaves the module %s, less than %s (startup %s + compile %s + write %s come first)",
			outer, t, MinTimeout, StartupMargin, l.compileTimeout, WriteMargin)
	}
	l.timeout = t
	return l, nil
}

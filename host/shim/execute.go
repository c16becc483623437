package shim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lola-pm/lola/schema"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// EmptyPlan is what the shim writes when lola_plan_len is 0: the empty plan,
// a success distinct from any failure status.
const EmptyPlan = `{"protocol":1,"intents":[]}`

// ClockDetail and WatchdogDetail tell the two ends of a timeout apart: the
// shim's clock (the run context's deadline, which closes the module) and,
// when that did not stop it, the watchdog that exits the process. Both
// are KindTimeout.
const (
	ClockDetail    = "the module exceeded the shim's clock"
	WatchdogDetail = "the shim's clock expired and the module did not stop; the shim exited"
)

// execute is steps 3 to 5: instantiate with no preopened directory, no
// environment, no argv and no stdin (the guest's stdout and stderr go to
// log), run it under the memory ceiling (the runtime's) and the wall clock
// (runCtx, which closes the module when it expires), and copy the plan out.
func execute(e *engine, req []byte, l Limits, deadline time.Time, k testKnobs, log io.Writer, ph *Phases) ([]byte, time.Duration, *Diagnostic) {
	alloc := &ceilingAllocator{ceiling: uint64(l.memoryPages) * 65536}
	ctx := experimental.WithMemoryAllocator(context.Background(), alloc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, e.rt); err != nil {
		return nil, 0, &Diagnostic{Kind: KindInternal, Detail: "instantiating WASI: " + firstLine(err.Error())}
	}
	cfg := wazero.NewModuleConfig().WithName("extension").WithStartFunctions().
		WithStdout(log).WithStderr(log)
	if k.preopenEtc {
		cfg = cfg.WithFSConfig(wazero.NewFSConfig().WithReadOnlyDirMount("/etc", "/etc"))
	}
	runCtx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	start := time.Now()
	r := &abiRun{ctx: runCtx, l: l, alloc: alloc}
	plan, d := r.run(e, cfg, req)
	elapsed := time.Since(start)
	if !r.instantiated.IsZero() {
		inst := r.instantiated.Sub(start).Microseconds()
		ph.Instantiate += inst
		ph.Run += elapsed.Microseconds() - inst
	}
	if r.mod != nil {
		r.mod.Close(ctx)
	}
	if d != nil && d.Kind == KindTimeout {
		d.Elapsed = elapsed.Microseconds()
	}
	return plan, elapsed, d
}

type abiRun struct {
	ctx   context.Context
	l     Limits
	alloc *ceilingAllocator
	// instantiated is when instantiation and _initialize ended.
	instantiated time.Time
	mod          api.Module
	mem          api.Memory
}

func (r *abiRun) run(e *engine, cfg wazero.ModuleConfig, req []byte) ([]byte, *Diagnostic) {
	mod, err := e.rt.InstantiateModule(r.ctx, e.compiled, cfg)
	if err != nil {
		return nil, r.classify(err)
	}
	r.mod, r.mem = mod, mod.ExportedMemory("memory") // checkShape proved it exists
	// A reactor's _initialize runs before anything else: a Go reactor's
	// exports trap until it has.
	if f := mod.ExportedFunction("_initialize"); f != nil {
		if _, err := f.Call(r.ctx); err != nil {
			return nil, r.classify(err)
		}
	}
	r.instantiated = time.Now()
	v, d := r.call("lola_abi_version")
	if d != nil {
		return nil, d
	}
	if int32(v) != schema.ABIVersion {
		return nil, &Diagnostic{Kind: KindABIVersionMismatch, Want: schema.ABIVersion, Got: int(int32(v))}
	}
	if uint64(len(req)) > uint64(^uint32(0)>>1) {
		return nil, &Diagnostic{Kind: KindRequestTooLarge, Detail: "request exceeds the i32 range"}
	}
	p, d := r.call("lola_alloc", uint64(len(req)))
	if d != nil {
		return nil, d
	}
	reqPtr := uint32(p)
	if uint64(reqPtr)+uint64(len(req)) > uint64(r.mem.Size()) || !r.mem.Write(reqPtr, req) {
		return nil, &Diagnostic{Kind: KindAllocOutOfBounds,
			Detail: fmt.Sprintf("lola_alloc(%d) returned %d, outside the module's %d bytes of memory", len(req), reqPtr, r.mem.Size())}
	}
	status, d := r.call("lola_run", uint64(reqPtr), uint64(len(req)))
	if d != nil {
		return nil, d
	}
	if s := int32(status); s != 0 {
		return nil, &Diagnostic{Kind: KindGuestStatus, Number: int64(s), Detail: guestStatusDetail(s)}
	}
	// Only now, after success, is the plan pair read.
	pp, d := r.call("lola_plan_ptr")
	if d != nil {
		return nil, d
	}
	pl, d := r.call("lola_plan_len")
	if d != nil {
		return nil, d
	}
	ptr, n := uint32(pp), uint32(pl) // a negative i32 length reads as over 2 GiB
	if int64(n) > r.l.maxPlan {
		return nil, &Diagnostic{Kind: KindPlanTooLarge, Limit: r.l.maxPlan,
			Detail: fmt.Sprintf("the module declares a %d-byte plan, over the %d-byte maximum", n, r.l.maxPlan)}
	}
	if uint64(ptr)+uint64(n) > uint64(r.mem.Size()) {
		return nil, &Diagnostic{Kind: KindPlanOutOfBounds,
			Detail: fmt.Sprintf("plan [%d, %d) lies outside the module's %d bytes of memory", ptr, uint64(ptr)+uint64(n), r.mem.Size())}
	}
	if n == 0 {
		return []byte(EmptyPlan), nil
	}
	view, ok := r.mem.Read(ptr, n)
	if !ok {
		return nil, &Diagnostic{Kind: KindPlanOutOfBounds, Detail: "plan extent outside linear memory"}
	}
	// Copy out; the region itself is the module's and is never written.
	return bytes.Clone(view), nil
}

func (r *abiRun) call(name string, args ...uint64) (uint64, *Diagnostic) {
	res, err := r.mod.ExportedFunction(name).Call(r.ctx, args...)
	if err != nil {
		return 0, r.classify(err)
	}
	return res[0], nil
}

// classify names the limit or failure behind an error from a guest call.
// A refused memory growth wins over the trap or exit that followed it: the
// guest's own reaction to running out (Go: "out of memory" and exit 2;
// Rust and AssemblyScript: abort, an unreachable trap) is not the cause.
func (r *abiRun) classify(err error) *Diagnostic {
	var ee *sys.ExitError
	exited := errors.As(err, &ee)
	if exited && (ee.ExitCode() == sys.ExitCodeDeadlineExceeded || ee.ExitCode() == sys.ExitCodeContextCanceled) ||
		errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
		return &Diagnostic{Kind: KindTimeout, Limit: r.l.timeout.Milliseconds(), Detail: ClockDetail}
	}
	memoryLimit := func(asked uint64, why string) *Diagnostic {
		var pages uint32
		if r.mem != nil {
			pages = r.mem.Size() / 65536
		}
		return &Diagnostic{Kind: KindMemoryLimit, Limit: int64(r.l.memoryPages), Pages: pages,
			Detail: fmt.Sprintf("the module asked to grow its memory to %d pages, %s, and then failed (%s)", asked, why, failure(err, ee, exited))}
	}
	if asked := r.alloc.refusedPages(); asked > 0 {
		return memoryLimit(asked, fmt.Sprintf("over its %d-page ceiling", r.l.memoryPages))
	}
	if asked := r.alloc.deniedPages(); asked > 0 {
		return memoryLimit(asked, fmt.Sprintf("under its %d-page ceiling but past the shim process's data limit (RLIMIT_DATA)", r.l.memoryPages))
	}
	if exited {
		return &Diagnostic{Kind: KindGuestExit, Number: int64(ee.ExitCode()), Detail: "the module exited (proc_exit)"}
	}
	return &Diagnostic{Kind: KindTrap, Detail: firstLine(err.Error())}
}

func failure(err error, ee *sys.ExitError, exited bool) string {
	if exited {
		return fmt.Sprintf("exit %d", ee.ExitCode())
	}
	return firstLine(err.Error())
}

// guestStatusDetail says what a non-zero lola_run status means in the
// SDKs' shared table; the guest's own reason is on its stderr.
func guestStatusDetail(s int32) string {
	if m := schema.GuestStatus(s).Meaning(); m != "" {
		return m
	}
	return fmt.Sprintf("lola_run returned status %d, which no Lola SDK uses", s)
}

package shim

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/shim/shimtest"
	"github.com/lola-pm/lola/schema"
)

// expectedRoundTrip is the guest's documented rule, computed here from the
// request: one write per file under out/<module>/, content upper-cased and
// suffixed with the operation.
func expectedRoundTrip(req schema.Request) []schema.Intent {
	var out []schema.Intent
	for _, m := range req.Modules {
		for _, f := range m.Files {
			out = append(out, schema.Intent{Write: &schema.Write{Path: "out/" + m.Name + "/" + f.Path,
				Content: strings.ToUpper(f.Content) + " (" + string(req.Operation) + ")"}})
		}
	}
	return out
}

func roundTripRequest(t testing.TB) (schema.Request, []byte) {
	req := schema.Request{Protocol: 1, Operation: schema.OperationInstall, Assistant: "claude-code",
		Modules: []schema.Module{
			{Name: "alpha", Version: "1.0.0", Files: []schema.File{{Path: "SKILL.md", Content: "hello"}, {Path: "ref/a.md", Content: "ünïcode"}}},
			{Name: "beta", Files: []schema.File{{Path: "x", Content: ""}}},
		}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return req, b
}

func TestGoReactorRoundTrip(t *testing.T) {
	req, raw := roundTripRequest(t)
	r := runShim(t, guestReactor.build(t), testLimits(t, nil), "", raw)
	r.expect(t, KindOK)
	p, err := plan.Decode(bytes.NewReader(r.stdout), plan.DefaultLimits())
	if err != nil {
		t.Fatalf("the shim's plan does not decode: %v\n%s", err, r.stdout)
	}
	want := expectedRoundTrip(req)
	if p.Len() != len(want) {
		t.Fatalf("%d intents, want %d: %s", p.Len(), len(want), r.stdout)
	}
	for i, w := range want {
		got := p.Intent(i)
		if got.Write == nil || *got.Write != *w.Write {
			t.Errorf("intent %d: got %+v, want %+v", i, got.Write, w.Write)
		}
	}
	c := r.report.Confinement
	if c == nil {
		t.Fatal("no confinement report")
	}
	if c.OS == "linux" && (!c.Seccomp || (c.LandlockABI > 0 && !c.LandlockFS)) {
		t.Errorf("confinement not fully applied: %+v", c)
	}
}

// Tier parity: the same source built natively, run as a plain process,
// returns the identical plan bytes.
func TestTierParity(t *testing.T) {
	_, raw := roundTripRequest(t)
	r := runShim(t, guestReactor.build(t), testLimits(t, nil), "", raw)
	r.expect(t, KindOK)
	cmd := exec.Command(guestNative.build(t))
	cmd.Stdin = bytes.NewReader(raw)
	native, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(native, r.stdout) {
		t.Fatalf("tier 1 and tier 2 differ:\n%s\n%s", r.stdout, native)
	}
}

func TestEmptyPlanIsSuccess(t *testing.T) {
	r := runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "empty", ""))
	r.expect(t, KindOK)
	if string(r.stdout) != EmptyPlan {
		t.Fatalf("stdout %q, want the empty plan", r.stdout)
	}
}

func passwdResult(t *testing.T, r result) string {
	t.Helper()
	r.expect(t, KindOK)
	p, err := plan.Decode(bytes.NewReader(r.stdout), plan.DefaultLimits())
	if err != nil || p.Len() != 1 || p.Intent(0).Write == nil {
		t.Fatalf("unexpected plan %s (%v)", r.stdout, err)
	}
	return p.Intent(0).Write.Content
}

// The guest gets no file: wazero has nothing preopened.
func TestHostilePasswdGetsNoFile(t *testing.T) {
	got := passwdResult(t, runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "passwd", "")))
	if !strings.HasPrefix(got, "error:") || strings.Contains(got, "root:") {
		t.Fatalf("guest read /etc/passwd: %q", got)
	}
}

// The confinement layer on its own: wazero deliberately misconfigured to
// preopen the host's /etc (read-only), and Landlock still refuses the read. The control
// (same misconfiguration, no confinement) reads the file, so this can fail.
func TestHostilePasswdStoppedByLandlockWhenWazeroIsMisconfigured(t *testing.T) {
	abi, _ := landlockABIPortable()
	if abi < 1 {
		t.Skip("no Landlock on this system")
	}
	if _, err := os.ReadFile("/etc/passwd"); err != nil {
		t.Skip("no /etc/passwd here")
	}
	mod := guestReactor.build(t)
	control := passwdResult(t, runShim(t, mod, testLimits(t, nil), "", request(t, "passwd", ""), "preopen-etc", "no-confine"))
	if !strings.HasPrefix(control, "read: ") {
		t.Fatalf("control: the misconfigured, unconfined guest could not read /etc/passwd: %q", control)
	}
	// Confined, wazero's own open of the preopened directory is refused by
	// Landlock (EACCES): the module cannot even start, and nothing of the
	// file reaches stdout or stderr.
	r := runShim(t, mod, testLimits(t, nil), "", request(t, "passwd", ""), "preopen-etc")
	if bytes.Contains(r.stdout, []byte("root:")) || bytes.Contains(r.stderr, []byte("root:")) {
		t.Fatal("the confined guest read /etc/passwd")
	}
	switch r.report.Outcome.Kind {
	case KindTrap:
		r.expect(t, KindTrap)
		if !strings.Contains(r.report.Outcome.Detail, "permission denied") {
			t.Fatalf("trap without Landlock's refusal: %+v", r.report.Outcome)
		}
	default:
		got := passwdResult(t, r)
		if !strings.HasPrefix(got, "error:") || !strings.Contains(got, "permission denied") {
			t.Fatalf("with /etc preopened, confinement must refuse the read: %q", got)
		}
	}
}

func TestHostileSocket(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	got := passwdResult(t, runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "socket", ln.Addr().String())))
	if !strings.HasPrefix(got, "error:") {
		t.Fatalf("guest opened a socket: %q", got)
	}
	select {
	case <-accepted:
		t.Fatal("the listener received a connection from the guest")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestHostileAllocatesWithoutBound(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.memoryPages = 512 })
	r := runShim(t, guestReactor.build(t), l, sharedCache, request(t, "alloc", ""))
	d := r.expect(t, KindMemoryLimit)
	if d.Limit != 512 || d.Pages > 512 {
		t.Fatalf("diagnostic %+v", d)
	}
}

// The shim's own clock stops a module that never returns: the child exits
// by itself with the timeout diagnostic, well inside the outer deadline
// (runShim fails the test if the outer deadline had to kill it). It is
// the clock's outcome (ClockDetail), not the watchdog's: the run
// context's deadline closed the module; the watchdog, which would also
// report a timeout, did not have to end the process.
func TestHostileNeverReturns(t *testing.T) {
	// Compiled and cached first, under the default clock: this test is
	// about the run, not a cold compile on a loaded machine.
	runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "empty", "")).expect(t, KindOK)
	l := testLimits(t, func(l *Limits) { l.timeout = 300 * time.Millisecond })
	start := time.Now()
	r := runShim(t, guestReactor.build(t), l, sharedCache, request(t, "spin", ""))
	d := r.expect(t, KindTimeout)
	if d.Limit != 300 || d.Detail != ClockDetail {
		t.Fatalf("diagnostic %+v, want the clock's own outcome %q", d, ClockDetail)
	}
	if e := time.Since(start); e >= l.OuterDeadline() {
		t.Fatalf("took %s, the outer deadline is %s", e, l.OuterDeadline())
	}
}

func TestHostilePlanPointerOutsideMemory(t *testing.T) {
	r := runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "plan-oob", ""))
	r.expect(t, KindPlanOutOfBounds)
}

// The extent check at the byte: one page of memory, a 10-byte plan ending
// exactly at the end is copied; one byte further is refused.
func TestPlanExtentBoundary(t *testing.T) {
	body := []byte("0123456789")
	base := shimtest.Reactor(1, 0, nil)
	base.Data = []shimtest.Data{{Offset: 65536 - 10, Bytes: body}}
	at := func(ptr int32) []byte {
		return base.Replace("lola_plan_ptr", shimtest.Func{Name: "lola_plan_ptr", Results: 1, Body: shimtest.I32(ptr)}).
			Replace("lola_plan_len", shimtest.Func{Name: "lola_plan_len", Results: 1, Body: shimtest.I32(10)}).Bytes()
	}
	r := runShim(t, writeModule(t, at(65536-10)), testLimits(t, nil), "", []byte("{}"))
	r.expect(t, KindOK)
	if !bytes.Equal(r.stdout, body) {
		t.Fatalf("stdout %q", r.stdout)
	}
	runShim(t, writeModule(t, at(65536-9)), testLimits(t, nil), "", []byte("{}")).expect(t, KindPlanOutOfBounds)
}

func TestHostilePlanLengthOverMaximum(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.maxPlan = 1024 })
	mod := guestReactor.build(t)
	r := runShim(t, mod, l, sharedCache, request(t, "plan-len", "1024"))
	r.expect(t, KindOK)
	if len(r.stdout) != 1024 {
		t.Fatalf("at the maximum: %d bytes", len(r.stdout))
	}
	d := runShim(t, mod, l, sharedCache, request(t, "plan-len", "1025")).expect(t, KindPlanTooLarge)
	if d.Limit != 1024 {
		t.Fatalf("diagnostic %+v", d)
	}
	// A negative i32 length is over the maximum, never a small number.
	neg := shimtest.Reactor(1, 0, nil).Replace("lola_plan_len", shimtest.Func{Name: "lola_plan_len", Results: 1, Body: shimtest.I32(-1)})
	runShim(t, writeModule(t, neg.Bytes()), l, "", []byte("{}")).expect(t, KindPlanTooLarge)
}

func TestHostileWrongABIVersion(t *testing.T) {
	d := runShim(t, guestABI2.build(t), testLimits(t, nil), sharedCache, request(t, "", "")).expect(t, KindABIVersionMismatch)
	if d.Want != schema.ABIVersion || d.Got != 2 {
		t.Fatalf("diagnostic %+v", d)
	}
	msg := d.Error()
	if !strings.Contains(msg, "version 2") || !strings.Contains(msg, "version "+strconv.Itoa(schema.ABIVersion)) {
		t.Fatalf("the message must name both versions: %q", msg)
	}
}

func TestHostileMissingExport(t *testing.T) {
	d := runShim(t, guestNoPlanLen.build(t), testLimits(t, nil), sharedCache, request(t, "", "")).expect(t, KindMissingExport)
	if d.Export != "lola_plan_len" {
		t.Fatalf("diagnostic %+v", d)
	}
	for _, name := range []string{"lola_abi_version", "lola_alloc", "lola_run", "lola_plan_ptr"} {
		m := shimtest.Reactor(1, 0, nil).Replace(name, shimtest.Func{})
		d := runShim(t, writeModule(t, m.Bytes()), testLimits(t, nil), "", []byte("{}")).expect(t, KindMissingExport)
		if d.Export != name {
			t.Errorf("removed %s, diagnostic names %q", name, d.Export)
		}
	}
}

func TestModuleShapeRefusals(t *testing.T) {
	base := shimtest.Reactor(1, 0, []byte(EmptyPlan))
	cases := []struct {
		name string
		mod  shimtest.Module
		want Kind
	}{
		{"wrong signature", base.Replace("lola_run", shimtest.Func{Name: "lola_run", Params: 1, Results: 1, Body: shimtest.I32(0)}), KindExportSignature},
		{"command module", base.Replace("_initialize", shimtest.Func{Name: "_start"}), KindCommandModule},
		{"foreign import", func() shimtest.Module {
			m := base
			m.Imports = []shimtest.Import{{Module: "extism:host/env", Field: "input_load_u8", Params: 1, Results: 1}}
			return m
		}(), KindUnsupportedImport},
		{"trap", base.Replace("lola_run", shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Body: shimtest.Unreachable}), KindTrap},
		{"alloc outside memory", base.Replace("lola_alloc", shimtest.Func{Name: "lola_alloc", Params: 1, Results: 1, Body: shimtest.I32(65535)}), KindAllocOutOfBounds},
		{"no memory", func() shimtest.Module { m := base; m.Pages = 0; m.Data = nil; return m }(), KindMissingExport},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runShim(t, writeModule(t, c.mod.Bytes()), testLimits(t, nil), "", []byte(`{"protocol":1}`)).expect(t, c.want)
		})
	}
	t.Run("not wasm", func(t *testing.T) {
		runShim(t, writeModule(t, []byte("#!/bin/sh\necho hi\n")), testLimits(t, nil), "", nil).expect(t, KindModuleInvalid)
	})
	t.Run("handwritten reactor succeeds", func(t *testing.T) {
		r := runShim(t, writeModule(t, base.Bytes()), testLimits(t, nil), "", nil)
		r.expect(t, KindOK)
		if string(r.stdout) != EmptyPlan {
			t.Fatalf("stdout %q", r.stdout)
		}
	})
	t.Run("timeout in a handwritten loop", func(t *testing.T) {
		m := base.Replace("lola_run", shimtest.Func{Name: "lola_run", Params: 2, Results: 1, Body: shimtest.Concat(shimtest.Spin, shimtest.I32(0))})
		d := runShim(t, writeModule(t, m.Bytes()), testLimits(t, func(l *Limits) { l.timeout = 100 * time.Millisecond }), "", nil).expect(t, KindTimeout)
		// The clock's outcome (or, on a loaded machine, the clock expiring
		// during the compile), never the watchdog's.
		if d.Detail == WatchdogDetail {
			t.Fatalf("diagnostic %+v: the watchdog ended the shim, the clock did not stop the module", d)
		}
	})
}

func TestGuestStatusAndExit(t *testing.T) {
	mod := guestReactor.build(t)
	d := runShim(t, mod, testLimits(t, nil), sharedCache, request(t, "status-7", "")).expect(t, KindGuestStatus)
	if d.Number != 7 || d.Code() != "guest-status-7" || d.Error() != "guest-status-7: lola_run returned status 7, which no Lola SDK uses" {
		t.Fatalf("diagnostic %+v", d)
	}
	d = runShim(t, mod, testLimits(t, nil), sharedCache, request(t, "status-2", "")).expect(t, KindGuestStatus)
	if d.Error() != "guest-status-2: the extension's handler returned an error" {
		t.Fatalf("status 2 reads %q", d.Error())
	}
	// A Go panic in an export ends in unreachable: a trap, with the guest's
	// own panic message forwarded as guest lines.
	r := runShim(t, mod, testLimits(t, nil), sharedCache, request(t, "panic", ""))
	r.expect(t, KindTrap)
	if !strings.Contains(strings.Join(r.report.Guest, "\n"), "panic: guest panics on purpose") {
		t.Fatalf("guest panic not forwarded: %q", r.report.Guest)
	}
	// proc_exit(5) from lola_run is guest-exit-5.
	m := shimtest.Reactor(1, 0, nil).Replace("lola_run", shimtest.Func{Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.I32(5), shimtest.Call(0), shimtest.I32(0))})
	m.Imports = []shimtest.Import{{Module: "wasi_snapshot_preview1", Field: "proc_exit", Params: 1}}
	d = runShim(t, writeModule(t, m.Bytes()), testLimits(t, nil), "", nil).expect(t, KindGuestExit)
	if d.Number != 5 || d.Code() != "guest-exit-5" {
		t.Fatalf("diagnostic %+v", d)
	}
}

// A guest cannot forge the shim's diagnostic: its lines are prefixed, and
// the real outcome is reported.
func TestGuestCannotForgeDiagnostics(t *testing.T) {
	r := runShim(t, guestReactor.build(t), testLimits(t, nil), sharedCache, request(t, "noise", ""))
	r.expect(t, KindOK)
	if len(r.report.Guest) == 0 || !strings.Contains(r.report.Guest[0], LinePrefix) {
		t.Fatalf("guest lines not forwarded as guest lines: %q", r.report.Guest)
	}
	if len(r.stderr) > StderrBound {
		t.Fatalf("stderr %d bytes, over the %d-byte bound", len(r.stderr), StderrBound)
	}
	if !bytes.Contains(r.stderr, []byte("[guest output truncated by the shim]")) {
		t.Fatal("no truncation marker")
	}
	// And with a failing outcome the forged "ok" does not win either.
	runShim(t, guestReactor.build(t), testLimits(t, func(l *Limits) { l.maxPlan = 10 }), sharedCache, request(t, "noise", "")).expect(t, KindPlanTooLarge)
}

func TestRequestBound(t *testing.T) {
	l := testLimits(t, func(l *Limits) { l.maxRequest = 64 })
	runShim(t, writeModule(t, shimtest.Reactor(1, 0, nil).Bytes()), l, "", bytes.Repeat([]byte("x"), 65)).expect(t, KindRequestTooLarge)
}

func TestUsageRefused(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run([]string{"--module", "x.wasm", "--caps", "fs.write"}, nil, &out, &errb)
	rep, err := ParseReport(errb.Bytes())
	if err != nil || rep.Outcome.Kind != KindUsage || code != ExitUsage {
		t.Fatalf("unknown capability: code %d, report %+v (%v)", code, rep, err)
	}
}

// Step 3: the guest receives no environment, no argv, no stdin and no
// directory, whatever the shim process itself was given.
func TestGuestGetsNoEnvironmentArgvStdinOrDirectory(t *testing.T) {
	mod := guestReactor.build(t)
	a, err := NewArgs(mod, nil, testLimits(t, nil), sharedCache)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := SelfInvocation(a)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(inv.Path, inv.Args...)
	cmd.Env = append(inv.Env, childEnv+"=shim", "LOLA_TEST_SECRET=hunter2")
	cmd.Stdin = bytes.NewReader(request(t, "introspect", ""))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.Bytes())
	}
	p, err := plan.Decode(bytes.NewReader(out), plan.DefaultLimits())
	if err != nil || p.Len() != 1 {
		t.Fatalf("plan %s: %v", out, err)
	}
	got := p.Intent(0).Write.Content
	if want := "env=|args=|stdin=0|root=error"; got != want {
		t.Fatalf("the guest saw %q, want %q", got, want)
	}
}

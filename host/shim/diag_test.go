package shim

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/lola-pm/lola/schema"
)

func TestKindVocabularyRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.String() == "" || seen[k.String()] {
			t.Fatalf("kind %q empty or duplicated", k)
		}
		seen[k.String()] = true
		d := Diagnostic{Kind: k, Number: 3, Detail: "d", Export: "e", Want: 1, Got: 2, Limit: 9, Pages: 4, Cache: "hit", Elapsed: 5}
		if !k.numbered() {
			d.Number = 0
		}
		code := d.Code()
		gk, gn, err := ParseCode(code)
		if err != nil || gk != k || gn != d.Number {
			t.Fatalf("%s: ParseCode(%q) = %s, %d, %v", k, code, gk, gn, err)
		}
		rep, err := ParseReport(formatOutcome(d))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if rep.Outcome != d {
			t.Fatalf("%s: round trip %+v, want %+v", k, rep.Outcome, d)
		}
	}
	if c := (Diagnostic{Kind: KindGuestStatus, Number: -3}).Code(); c != "guest-status--3" {
		t.Fatalf("negative status spelled %q", c)
	}
	for _, bad := range []string{"", "nope", "guest-status-", "guest-status-x", "guest-status-03", "ok-1", "TIMEOUT"} {
		if _, _, err := ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q) accepted", bad)
		}
	}
}

func TestExitCodesAreDocumented(t *testing.T) {
	want := map[Kind]int{KindOK: 0, KindUsage: 2, KindTimeout: 4, KindMemoryLimit: 4, KindPlanTooLarge: 4,
		KindModuleTooLarge: 4, KindGuestStatus: 4, KindConfinementFailed: 1, KindInternal: 1}
	for k, c := range want {
		if k.ExitCode() != c {
			t.Errorf("%s exits %d, want %d", k, k.ExitCode(), c)
		}
	}
}

func TestParseReportRefusesUnknownAndMissing(t *testing.T) {
	if _, err := ParseReport([]byte("guest: lola-shim: {\"event\":\"outcome\",\"diag\":\"ok\"}\n")); !errors.Is(err, ErrNoOutcome) {
		t.Fatalf("a guest line counted as an outcome: %v", err)
	}
	if _, err := ParseReport([]byte(LinePrefix + `{"event":"outcome","diag":"made-up"}` + "\n")); err == nil {
		t.Fatal("unknown code accepted")
	}
	if _, err := ParseReport([]byte(LinePrefix + `{"event":"outcome","diag":"ok","extra":1}` + "\n")); err == nil {
		t.Fatal("unknown field accepted")
	}
	c := Confinement{OS: "linux", LandlockABI: 7, LandlockFS: true, Seccomp: true, Caps: "net.http"}
	rep, err := ParseReport(append(formatConfinement(c), formatOutcome(Diagnostic{Kind: KindOK})...))
	if err != nil || rep.Confinement == nil || *rep.Confinement != c {
		t.Fatalf("confinement round trip: %+v, %v", rep.Confinement, err)
	}
}

func TestGuestLogPrefixesAndCaps(t *testing.T) {
	var out bytes.Buffer
	g := newGuestLog(&out)
	g.Write([]byte("a\nb"))
	g.Write([]byte("c\n" + LinePrefix + "{}\n"))
	g.finish()
	if got := out.String(); got != "guest: a\nguest: bc\nguest: lola-shim: {}\n" {
		t.Fatalf("got %q", got)
	}
	out.Reset()
	g = newGuestLog(&out)
	g.Write(bytes.Repeat([]byte("x"), GuestLogCap*2))
	g.Write([]byte("more\n"))
	g.finish()
	if out.Len() > GuestLogCap+200 {
		t.Fatalf("forwarded %d bytes", out.Len())
	}
	rep, _ := ParseReport(out.Bytes())
	if len(rep.Guest) != 2 || rep.Guest[1] != "[guest output truncated by the shim]" {
		t.Fatalf("guest lines %d, last %q", len(rep.Guest), rep.Guest[len(rep.Guest)-1])
	}
}

func TestArgsRoundTrip(t *testing.T) {
	l, err := NewLimits(1, 2, 3, 4, 5*time.Second, 6*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewArgs("/m.wasm", []schema.Capability{schema.CapNetHTTP, schema.CapNetGit}, l, "/c")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseArgs(a.Argv())
	if err != nil {
		t.Fatal(err)
	}
	if b.Module() != a.Module() || b.Limits() != a.Limits() || b.CacheDir() != a.CacheDir() ||
		schema.JoinCapabilities(b.Caps()) != "net.git,net.http" {
		t.Fatalf("round trip %+v, want %+v", b, a)
	}
	for _, bad := range [][]string{
		{"--module", "m", "--caps", "fs.write"},
		{"--module", "m", "--timeout", "0s"},
		{"--module", "m", "--memory-pages", "70000"},
		{"--module", "m", "--bogus"},
		{"--caps", ""},
		{"--module", "m", "extra"},
	} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("ParseArgs(%q) accepted", bad)
		}
	}
	if _, err := NewLimits(0, 1, 1, 1, time.Second, time.Second); err == nil {
		t.Error("zero limit accepted")
	}
}

func TestOuterDeadlineStrictlyExceedsInnerClocks(t *testing.T) {
	for _, l := range []Limits{DefaultLimits(), testLimits(t, func(l *Limits) { l.timeout = time.Millisecond; l.compileTimeout = time.Millisecond })} {
		if m := l.OuterDeadline() - l.Timeout(); m <= WatchdogGrace || m < MinMargin || m > MaxMargin {
			t.Fatalf("outer %s vs clock %s: margin %s", l.OuterDeadline(), l.Timeout(), m)
		}
	}
	// --timeout is the outer deadline: the clock is what is left after a
	// bounded margin, never a fixed reserve.
	for _, outer := range []time.Duration{350 * time.Millisecond, time.Second, 5 * time.Second, 7*time.Second + 3, 30 * time.Second, time.Hour} {
		l, err := DefaultLimits().WithOuterDeadline(outer)
		if err != nil {
			t.Fatalf("%s: %v", outer, err)
		}
		if got := l.OuterDeadline(); got > outer || outer-got > 20 {
			t.Fatalf("WithOuterDeadline(%s): outer %s", outer, got)
		}
		if m := outer - l.Timeout(); m > MaxMargin || m < MinMargin || m > max(outer/10+20, MinMargin) {
			t.Fatalf("WithOuterDeadline(%s): clock %s, margin %s", outer, l.Timeout(), m)
		}
		if l.CompileTimeout() > l.Timeout() {
			t.Fatalf("compile budget %s exceeds the clock %s", l.CompileTimeout(), l.Timeout())
		}
	}
	if l, _ := DefaultLimits().WithOuterDeadline(5 * time.Second); l.Timeout() < 4500*time.Millisecond {
		t.Fatalf("--timeout 5s leaves the shim %s", l.Timeout())
	}
	if _, err := DefaultLimits().WithOuterDeadline(MinMargin + MinTimeout - 1); err == nil {
		t.Fatal("an outer deadline that leaves no module budget was accepted")
	}
	a, _ := NewArgs("/m.wasm", nil, DefaultLimits(), "")
	inv, err := NewInvocation("/usr/bin/lola", a)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Deadline != DefaultLimits().OuterDeadline() || inv.Args[0] != Subcommand || len(inv.Env) != 0 || inv.StderrCap < StderrBound {
		t.Fatalf("invocation %+v", inv)
	}
	if _, err := NewInvocation("lola", a); err == nil {
		t.Fatal("relative executable accepted")
	}
}

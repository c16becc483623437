package shim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// The test binary doubles as the shim child: TestMain re-executes it with
// childEnv set, exactly as lola re-executes itself as __extension-host.
const (
	childEnv = "LOLA_SHIM_TEST_CHILD" // "shim" or "probe"
	knobsEnv = "LOLA_SHIM_TEST_KNOBS" // comma-separated test knobs
)

var (
	guestRoot   string // where guest builds land, one per variant per run
	sharedCache string // a compilation cache shared by tests that do not test compilation
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "shim":
		os.Exit(childShim())
	case "probe":
		os.Exit(childProbe())
	}
	dir, err := os.MkdirTemp("", "shim-guests-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	guestRoot = dir
	sharedCache = filepath.Join(dir, "cache")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func childShim() int {
	argv := os.Args[1:]
	if len(argv) == 0 || argv[0] != Subcommand {
		fmt.Fprintln(os.Stderr, "child: missing subcommand")
		return 99
	}
	a, err := ParseArgs(argv[1:])
	if err != nil {
		return Run(argv[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	for _, k := range strings.Split(os.Getenv(knobsEnv), ",") {
		switch k {
		case "preopen-etc":
			a.test.preopenEtc = true
		case "no-confine":
			a.test.noConfine = true
		case "landlock-only":
			a.test.landlockOnly = true
		case "stall":
			a.test.stall = true
		default:
			if v, ok := strings.CutPrefix(k, "data-limit="); ok {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					return 99
				}
				a.test.dataLimit = n
			}
		}
	}
	return Main(a, os.Stdin, os.Stdout, os.Stderr)
}

// Guest builds: each variant is built once per test run, on first use.
type guestVariant struct {
	name   string
	goos   string // "wasip1" or "" (native)
	tags   string
	once   sync.Once
	path   string
	err    error
	output []byte
}

var (
	guestReactor   = &guestVariant{name: "reactor.wasm", goos: "wasip1"}
	guestABI2      = &guestVariant{name: "abi2.wasm", goos: "wasip1", tags: "abi2"}
	guestNoPlanLen = &guestVariant{name: "noplanlen.wasm", goos: "wasip1", tags: "noplanlen"}
	guestNative    = &guestVariant{name: "native", goos: ""}
)

func (g *guestVariant) build(tb testing.TB) string {
	tb.Helper()
	g.once.Do(func() {
		g.path = filepath.Join(guestRoot, g.name)
		args := []string{"build", "-trimpath", "-ldflags=-s -w", "-o", g.path}
		env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
		if g.goos == "wasip1" {
			args = append(args, "-buildmode=c-shared")
			env = append(env, "GOOS=wasip1", "GOARCH=wasm")
		} else {
			env = append(env, "CGO_ENABLED=0")
		}
		if g.tags != "" {
			args = append(args, "-tags", g.tags)
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir = filepath.Join("testdata", "guest")
		cmd.Env = env
		g.output, g.err = cmd.CombinedOutput()
	})
	if g.err != nil {
		tb.Fatalf("building guest %s: %v\n%s", g.name, g.err, g.output)
	}
	return g.path
}

// result is one shim child run.
type result struct {
	stdout []byte
	stderr []byte
	code   int
	maxRSS int64 // the child's peak resident set in KiB (0 where unknown)
	report Report
	repErr error
}

func testLimits(tb testing.TB, mod func(*Limits)) Limits {
	// The default clock: it covers compilation, and a cold compile of the
	// 4 MB Go guest takes seconds on a loaded 2-core machine. Tests of the
	// clock set their own.
	l := DefaultLimits()
	if mod != nil {
		mod(&l)
	}
	if _, err := NewLimits(l.maxModule, l.maxRequest, l.maxPlan, l.memoryPages, l.compileTimeout, l.timeout); err != nil {
		tb.Fatal(err)
	}
	return l
}

// runShim execs the test binary as a shim child for module, through the
// production invocation builder, under its outer deadline.
func runShim(tb testing.TB, module string, l Limits, cacheDir string, req []byte, knobs ...string) result {
	tb.Helper()
	a, err := NewArgs(module, nil, l, cacheDir)
	if err != nil {
		tb.Fatal(err)
	}
	inv, err := SelfInvocation(a)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), inv.Deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, inv.Path, inv.Args...)
	cmd.Env = append(inv.Env, childEnv+"=shim", knobsEnv+"="+strings.Join(knobs, ","))
	cmd.Stdin = bytes.NewReader(req)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	r := result{stdout: out.Bytes(), stderr: errb.Bytes()}
	if cmd.ProcessState != nil {
		r.maxRSS = maxRSSKiB(cmd.ProcessState)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		r.code = ee.ExitCode()
	default:
		tb.Fatalf("shim child did not exit by itself: %v (ctx %v)\nstderr:\n%s", err, ctx.Err(), errb.Bytes())
	}
	r.report, r.repErr = ParseReport(r.stderr)
	return r
}

// expect asserts the outcome kind and the exit code it documents.
func (r result) expect(tb testing.TB, k Kind) Diagnostic {
	tb.Helper()
	if r.repErr != nil {
		tb.Fatalf("report: %v\nstderr:\n%s", r.repErr, r.stderr)
	}
	if r.report.Outcome.Kind != k {
		tb.Fatalf("outcome %s (%s), want %s\nstderr:\n%s", r.report.Outcome.Code(), r.report.Outcome.Error(), k, r.stderr)
	}
	if r.code != k.ExitCode() {
		tb.Fatalf("exit code %d, want %d for %s", r.code, k.ExitCode(), k)
	}
	if k != KindOK && len(r.stdout) != 0 {
		tb.Fatalf("a failed run wrote %d bytes to stdout", len(r.stdout))
	}
	return r.report.Outcome
}

// request builds a request whose assistant field selects the guest's
// behaviour and whose first file carries arg.
func request(tb testing.TB, behaviour, arg string) []byte {
	tb.Helper()
	req := schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Assistant: behaviour,
		Modules: []schema.Module{{Name: "m", Files: []schema.File{{Path: "arg", Content: arg}}}}}
	b, err := json.Marshal(req)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func writeModule(tb testing.TB, b []byte) string {
	tb.Helper()
	p := filepath.Join(tb.TempDir(), "m.wasm")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

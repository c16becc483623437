package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/host/shim/shimtest"
	"github.com/lola-pm/lola/schema"
)

// extHostChildEnv makes this test binary behave as the lola binary, so a
// test can re-execute it as `lola __extension-host` exactly as lola
// re-executes itself. It is an init, not a TestMain, so that it composes
// with any TestMain the package grows.
const extHostChildEnv = "LOLA_CMD_TEST_AS_LOLA"

func init() {
	if os.Getenv(extHostChildEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

func runLolaChild(t *testing.T, inv shim.Invocation, stdin []byte) (stdout, stderr []byte, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), inv.Deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, inv.Path, inv.Args...)
	cmd.Env = append(inv.Env, extHostChildEnv+"=1")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.Exited()) {
		t.Fatalf("child: %v\n%s", err, errb.Bytes())
	}
	if ee != nil {
		code = ee.ExitCode()
	}
	return out.Bytes(), errb.Bytes(), code
}

func TestExtensionHostRunsAModule(t *testing.T) {
	want := `{"protocol":1,"intents":[{"op":"write","path":"a","content":"b"}]}`
	mod := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(mod, shimtest.Reactor(schema.ABIVersion, 0, []byte(want)).Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := shim.NewArgs(mod, []schema.Capability{schema.CapNetHTTP}, shim.DefaultLimits(), "")
	if err != nil {
		t.Fatal(err)
	}
	inv, err := shim.SelfInvocation(a)
	if err != nil {
		t.Fatal(err)
	}
	out, errb, code := runLolaChild(t, inv, []byte(`{"protocol":1,"operation":"generate","modules":[]}`))
	if code != exitOK || string(out) != want {
		t.Fatalf("code %d, stdout %q\nstderr:\n%s", code, out, errb)
	}
	rep, err := shim.ParseReport(errb)
	if err != nil || rep.Outcome.Kind != shim.KindOK {
		t.Fatalf("report %+v: %v", rep, err)
	}
	if rep.Confinement != nil && rep.Confinement.Caps != "net.http" {
		t.Fatalf("--caps not recorded: %+v", rep.Confinement)
	}
	if bytes.Contains(errb, []byte("lola:")) {
		t.Fatalf("the CLI added text to the shim's stderr:\n%s", errb)
	}

	// A limit: the shim's exit code passes through as lola's.
	bad := filepath.Join(t.TempDir(), "abi2.wasm")
	os.WriteFile(bad, shimtest.Reactor(2, 0, nil).Bytes(), 0o600)
	a, _ = shim.NewArgs(bad, nil, shim.DefaultLimits(), "")
	inv, _ = shim.SelfInvocation(a)
	out, errb, code = runLolaChild(t, inv, []byte(`{}`))
	rep, err = shim.ParseReport(errb)
	if code != exitExtension || len(out) != 0 || err != nil || rep.Outcome.Kind != shim.KindABIVersionMismatch {
		t.Fatalf("code %d, report %+v (%v)\n%s", code, rep, err, errb)
	}

	// Usage errors exit 2 with a usage outcome.
	inv.Args = []string{shim.Subcommand, "--module", bad, "--caps", "fs.write"}
	_, errb, code = runLolaChild(t, inv, nil)
	rep, err = shim.ParseReport(errb)
	if code != exitUsage || err != nil || rep.Outcome.Kind != shim.KindUsage {
		t.Fatalf("code %d, report %+v (%v)", code, rep, err)
	}
}

func TestExtensionHostIsHidden(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("--help exited %d", code)
	}
	if strings.Contains(out.String(), shim.Subcommand) {
		t.Fatalf("help lists the hidden command:\n%s", out.String())
	}
	out.Reset()
	run([]string{"__complete", ""}, nil, &out, &errb)
	if strings.Contains(out.String(), shim.Subcommand) {
		t.Fatalf("completion offers the hidden command:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "plan") {
		t.Fatalf("completion output unexpected (the test could not fail):\n%s", out.String())
	}
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/shim/shimtest"
	"github.com/lola-pm/lola/schema"
)

// issue 15.5: `lola ext run --help`'s own example with `--timeout 5s`
// runs a .wasm module as written (it used to exit 2: the shim reserved
// 15 s before the module started), and the audit record names the digest
// of the module bytes that ran, as the shim reported them.
func TestExtRunHelpTimeoutExampleWorks(t *testing.T) {
	extRunTestEnv = []string{extHostChildEnv + "=1"}
	t.Cleanup(func() { extRunTestEnv = nil })
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("LOLA_HOME", home)
	want := `{"protocol":1,"intents":[{"op":"write","path":"out.md","content":"x"}]}`
	mod := filepath.Join(t.TempDir(), "my-target.wasm")
	body := shimtest.Reactor(schema.ABIVersion, 0, []byte(want)).Bytes()
	if err := os.WriteFile(mod, body, 0o600); err != nil {
		t.Fatal(err)
	}
	req := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(req, []byte(`{"protocol":1,"operation":"generate","modules":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "ext", "run", "--root", project, "--timeout", "5s", "--request", req, "--json", mod)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(project, "out.md")); err != nil {
		t.Fatal("the plan was not applied")
	}
	log, err := os.ReadFile(filepath.Join(home, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	if !strings.Contains(string(log), hex.EncodeToString(sum[:])) {
		t.Fatalf("the audit log does not name the module's digest %x:\n%s", sum, log)
	}
}

// issue 15: a module declaring a 75 MiB plan is refused promptly, by the
// rule a tier-2 plan of that size meets (plan.too-large, exit 4), not by
// the clock.
func TestExtRun75MiBPlanIsPlanTooLarge(t *testing.T) {
	extRunTestEnv = []string{extHostChildEnv + "=1"}
	t.Cleanup(func() { extRunTestEnv = nil })
	t.Setenv("LOLA_HOME", t.TempDir())
	m := shimtest.Reactor(schema.ABIVersion, 0, nil).
		Replace("lola_plan_len", shimtest.Func{Name: "lola_plan_len", Results: 1, Body: shimtest.I32(75 << 20)})
	m.Pages = 1300
	mod := filepath.Join(t.TempDir(), "big.wasm")
	if err := os.WriteFile(mod, m.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "ext", "run", "--root", t.TempDir(), "--timeout", "5s", "--json", mod)
	if code != exitExtension || !strings.Contains(out, `"rule": "plan.too-large"`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
}

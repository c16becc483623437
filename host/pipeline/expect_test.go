package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/schema"
)

// fakeShim is an executable standing in for lola's shim: it reports
// reported as the digest of the module it read (none when empty) and
// prints an empty plan, as a shim whose module file was swapped would.
func fakeShim(t *testing.T, reported string) string {
	t.Helper()
	body := "cat >/dev/null\n"
	if reported != "" {
		body += `echo 'lola-shim: {"event":"module","sha256":"` + reported + `","bytes":4}' >&2` + "\n"
	}
	body += `echo 'lola-shim: {"event":"outcome","diag":"ok"}' >&2` + "\n" +
		`printf '{"protocol":1,"intents":[]}'` + "\n"
	return script(t, body)
}

// A tier-1 run of a host-held copy (an embedded built-in) yields its plan
// only when the shim read exactly the bytes lola holds: a module file
// swapped under the shim, or a shim that reports no digest, never does.
func TestExpectedDigestHoldsTheShimToTheHostsBytes(t *testing.T) {
	module := filepath.Join(t.TempDir(), "m.wasm")
	if err := os.WriteFile(module, []byte("\x00asm"), 0o600); err != nil {
		t.Fatal(err)
	}
	held := sha256.Sum256([]byte("\x00asm"))
	other := sha256.Sum256([]byte("swapped"))
	caps, _ := capability.Grant(nil)
	req := schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}}
	run := func(reported string) (Launched, error) {
		l := Launch{Name: "claude-code", Tier: audit.TierWasm, Artifact: module, Caps: caps,
			Timeout: 10 * time.Second, Exe: fakeShim(t, reported), Expect: &held}
		return RunExtension(context.Background(), l, req)
	}

	got, err := run(hex.EncodeToString(held[:]))
	if err != nil || got.Child.Outcome != child.OutcomePlanReceived || got.Child.Plan == nil {
		t.Fatalf("the held bytes: %v %v %s", err, got.Child.Outcome, got.Child.Diagnostics)
	}
	for name, reported := range map[string]string{"swapped": hex.EncodeToString(other[:]), "unreported": ""} {
		got, err := run(reported)
		if !errors.Is(err, ErrChanged) || got.Child.Plan != nil {
			t.Errorf("%s: err %v, plan %v; want ErrChanged and no plan", name, err, got.Child.Plan)
		}
	}
}

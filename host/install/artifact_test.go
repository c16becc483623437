package install

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The install no longer reads a tier-1 artifact itself: the digest the
// audit log records must still be the SHA-256 of exactly the module bytes
// the shim ran, which here are the installed artifact's bytes.
func TestTier1InstallAuditsTheDigestOfTheBytesThatRan(t *testing.T) {
	e := newEnv(t)
	files := sampleModule("", "")
	for _, f := range []string{"lola.yaml", "scripts/pre.sh", "scripts/post.sh"} {
		delete(files, f)
	}
	e.addModule(t, "sample", files)
	e.addClaudeCode(t, "tier1")
	o := e.options("sample", "claude-code")
	shimOptions(t, &o)
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v", err)
	}
	if rep.TargetTier != audit.TierWasm {
		t.Fatalf("tier %s", rep.TargetTier)
	}
	b, err := os.ReadFile(filepath.Join(e.home, "extensions", "claude-code", "dist", "claude-code.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(b)
	plans := 0
	for _, en := range auditEntries(t, e.home) {
		if en.Kind != audit.KindPlan {
			continue
		}
		plans++
		if got := en.Plan.Extension.SHA256; got != hex.EncodeToString(want[:]) {
			t.Errorf("audited artifact digest %q, want the sha256 of the module that ran %x", got, want)
		}
	}
	if plans != 1 {
		t.Fatalf("%d plan records, want 1", plans)
	}
}

// A tier-1 target whose module was swapped since it was pinned is refused
// (extension.changed, audited) before the pre-install hook runs, as a
// native one is: a refused install runs nothing.
func TestSwappedTier1TargetIsRefusedBeforeAnyHook(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule(recordingHook, recordingHook))
	e.addClaudeCode(t, "tier1")
	wasm := filepath.Join(e.home, "extensions", "claude-code", "dist", "claude-code.wasm")
	b, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wasm, append(b, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	out := filepath.Join(t.TempDir(), "hook")
	o := e.options("sample", "claude-code")
	o.Environ = hookEnviron(out)
	shimOptions(t, &o)
	_, err = Install(context.Background(), o)
	if vs := rejection.All(err); len(vs) != 1 || vs[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("err = %v, want extension.changed", err)
	}
	if readOr(t, out+".pre-install") != "<absent>" {
		t.Fatal("the pre-install hook ran before the swapped target was refused")
	}
	sameTree(t, "the project", snapshot(t, e.project), before)
	entries := auditEntries(t, e.home)
	if len(entries) != 1 || entries[0].Rejected == nil || entries[0].Rejected.Violations[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("audit records %+v, want the one refusal", entries)
	}
}

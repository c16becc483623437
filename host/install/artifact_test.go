package install

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/audit"
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

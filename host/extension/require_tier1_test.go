package extension

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// require_tier1 is a run-time rule, not only an add-time one: a module
// pinned unsigned while it was off is refused once it is on; a module
// opted in by hash runs as pinned; a signed one runs; a hand-copied or a
// linked unsigned one is refused.
func TestRequireTier1IsEnforcedAtEveryRun(t *testing.T) {
	strict := TrustPolicy{Verifier: fakeVerifier{}, RequireTier1: true}
	tier1 := manifest("demo", "target", "  tier1: dist/x.wasm\n")
	lookup := func(home string) *Extension {
		t.Helper()
		cat, _ := Discover(home)
		e, err := cat.Lookup("demo")
		if err != nil {
			t.Fatal(err)
		}
		return e
	}

	// Added unsigned while the policy was off.
	home := t.TempDir()
	src := mkext(t, filepath.Join(t.TempDir(), "demo"), tier1, map[string]string{"dist/x.wasm": "w1"})
	if _, err := Add(home, src, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	if p, err := lookup(home).PinFor(Tier1, trusted); err != nil || p.Verdict != VerdictUnsigned {
		t.Fatalf("policy off: %+v %v", p, err)
	}
	_, err := lookup(home).PinFor(Tier1, strict)
	assertRule(t, err, schema.RuleExtensionUnsigned)

	// Opted in by hash: runs, pinned to exactly those bytes.
	optHome := t.TempDir()
	if _, err := Add(optHome, src, AddOptions{Trust: trusted, AllowUnsigned: true}); err != nil {
		t.Fatal(err)
	}
	if p, err := lookup(optHome).PinFor(Tier1, strict); err != nil || !p.Pinned || p.Verdict != VerdictOptedIn {
		t.Fatalf("opted in: %+v %v", p, err)
	}

	// Signed: runs.
	signedHome := t.TempDir()
	signed := mkext(t, filepath.Join(t.TempDir(), "demo"), tier1, map[string]string{"dist/x.wasm": "w1", "dist/x.wasm" + BundleSuffix: bundleFor("w1")})
	if _, err := Add(signedHome, signed, AddOptions{Trust: strict}); err != nil {
		t.Fatal(err)
	}
	if p, err := lookup(signedHome).PinFor(Tier1, strict); err != nil || p.Verdict != VerdictVerified {
		t.Fatalf("signed: %+v %v", p, err)
	}

	// Hand-copied into extensions/: nothing vouches.
	copied := t.TempDir()
	mkext(t, filepath.Join(copied, ExtensionsDir, "demo"), tier1, map[string]string{"dist/x.wasm": "w1"})
	_, err = lookup(copied).PinFor(Tier1, strict)
	assertRule(t, err, schema.RuleExtensionUnsigned)

	// Linked unsigned while off, then the policy turns on; a bundle for
	// the present bytes makes it run.
	linkHome := t.TempDir()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), tier1, map[string]string{"dist/x.wasm": "w1"})
	if _, err := Link(linkHome, dir, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	_, err = lookup(linkHome).PinFor(Tier1, strict)
	assertRule(t, err, schema.RuleExtensionUnsigned)
	os.WriteFile(filepath.Join(dir, "dist", "x.wasm"+BundleSuffix), []byte(bundleFor("w1")), 0o644)
	if p, err := lookup(linkHome).PinFor(Tier1, strict); err != nil || p.Verdict != VerdictVerified {
		t.Fatalf("linked, signed: %+v %v", p, err)
	}
}

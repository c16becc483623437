package extrun

import (
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func mustPlan(t *testing.T, s string) *plan.Plan {
	t.Helper()
	p, err := plan.Decode(strings.NewReader(s), plan.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A bare artifact is named by its file (or "extension" when that is not a
// name the log accepts), carries the digest of its bytes, the caps given,
// the vouching description, and no path grant.
func TestProposerOfABareArtifact(t *testing.T) {
	dir := t.TempDir()
	body := []byte("#!/bin/sh\nexit 0\n")
	caps, _ := capability.ParseSet("net.http")
	for file, wantName := range map[string]string{"my-ext": "my-ext", "two words": "extension"} {
		p := filepath.Join(dir, file)
		if err := os.WriteFile(p, body, 0o755); err != nil {
			t.Fatal(err)
		}
		ext := extension.RunTarget{Name: file, Path: p, Tier: audit.TierNative}
		rp := extension.RunPin{Verdict: extension.VerdictVerified, Signer: "key alice"}
		who, err := proposer(ext, caps, pipeline.Launched{}, rp, nil)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := audit.NewExtension(wantName, "")
		if want := id.WithArtifact(sha256.Sum256(body)).WithSignature("signed by key alice"); who.Extension != want {
			t.Errorf("%q: identity %+v, want %+v", file, who.Extension, want)
		}
		if who.Tier != audit.TierNative || who.Caps == nil || who.Caps.String() != "net.http" || who.Paths != nil {
			t.Errorf("%q: tier %s caps %v paths %v", file, who.Tier, who.Caps, who.Paths)
		}
	}
}

// An extension with a manifest is named and versioned by it and held to
// its path grant as config.yaml narrows it, judged bytewise.
func TestProposerOfAManifestHoldsItToItsGrant(t *testing.T) {
	dir := extDir(t, grantsManifest, "exit 0\n")
	ext, err := extension.ResolveRun(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, narrowed := configWith(t, "extensions:\n  grants:\n    paths: [\".claude/skills/\"]\n")
	for _, tc := range []struct {
		name    string
		cfg     *config.Config
		outside []string
	}{
		{"declared grant", nil, []string{"elsewhere", ".CLAUDE/x"}},
		{"narrowed by config.yaml", narrowed, []string{"elsewhere", ".claude/x"}},
	} {
		cfg := tc.cfg
		who, err := proposer(ext, ext.Manifest.Capabilities(), pipeline.Launched{}, extension.RunPin{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if who.Extension.Name() != "grants" || who.Extension.Version() != "1.2.3" || who.Extension.Signature() != "" {
			t.Fatalf("%s: identity %+v", tc.name, who.Extension)
		}
		if who.Paths == nil {
			t.Fatalf("%s: no path grant", tc.name)
		}
		if err := who.Paths.Check(mustPlan(t, `{"protocol":1,"intents":[{"op":"write","path":".claude/skills/a","content":"x"}]}`)); err != nil {
			t.Errorf("%s: a path inside the grant is refused: %v", tc.name, err)
		}
		for _, p := range tc.outside {
			err := who.Paths.Check(mustPlan(t, `{"protocol":1,"intents":[{"op":"write","path":"`+p+`","content":"x"}]}`))
			if !errors.Is(err, rejection.Rule(schema.RuleGrantOutside)) {
				t.Errorf("%s: %s is not refused as grant.outside: %v", tc.name, p, err)
			}
		}
	}
}

package extrun

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A bare artifact that an enclosing manifest declares runs as that
// extension, and says so; one no manifest declares runs bare, and says
// that. A hook's manifest is never adopted.
func TestAdoptManifest(t *testing.T) {
	home := t.TempDir()
	dir := extDir(t, grantsManifest, "exit 0\n")
	resolve := func(p string) extension.RunTarget {
		t.Helper()
		ext, err := extension.ResolveRun(p, home)
		if err != nil {
			t.Fatal(err)
		}
		return ext
	}
	var got []Notice
	notify := func(n Notice) { got = append(got, n) }

	ext := adoptManifest(resolve(filepath.Join(dir, "dist", "ext")), notify)
	if ext.Manifest == nil || ext.Name != "grants" || ext.Tier != audit.TierNative {
		t.Fatalf("the declared artifact was not adopted: %+v", ext)
	}
	if len(got) != 1 || got[0] != (Notice{Kind: NoticeAdopted, Name: "ext", Manifest: "grants", Tier: extension.Tier2}) {
		t.Fatalf("notices %+v", got)
	}

	got = nil
	other := script(t, dir, "dist/other", "exit 0\n") // beside it, but not declared
	if ext := adoptManifest(resolve(other), notify); ext.Manifest != nil || ext.Name != "other" {
		t.Fatalf("an undeclared artifact was adopted: %+v", ext)
	}
	if len(got) != 1 || got[0] != (Notice{Kind: NoticeBare, Name: "other"}) {
		t.Fatalf("notices %+v", got)
	}

	got = nil
	hook := extDir(t, strings.Replace(strings.Replace(grantsManifest, "kind: target", "kind: hook", 1), "paths:\n  - .claude/\n", "", 1), "exit 0\n")
	if ext := adoptManifest(resolve(filepath.Join(hook, "dist", "ext")), notify); ext.Manifest != nil {
		t.Fatalf("a hook's manifest was adopted: %+v", ext)
	}
	if len(got) != 1 || got[0].Kind != NoticeBare {
		t.Fatalf("notices %+v", got)
	}

	got = nil
	if ext := adoptManifest(resolve(dir), notify); ext.Manifest == nil || len(got) != 0 {
		t.Fatalf("an extension directory: %+v, notices %+v", ext, got)
	}
}

// A pin or trust refusal is exit 4 and nothing ran; one that is a rule is
// audited (dry run or not), one that is not a rule is not; a refusal that
// cannot be audited is exit 1.
func TestRefusePinAuditsARule(t *testing.T) {
	dir := extDir(t, grantsManifest, "exit 0\n")
	ext, err := extension.ResolveRun(dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	caps, _ := capability.ParseSet("net.http")
	changed := rejection.New(schema.RuleExtensionChanged, "its artifact differs")

	home := t.TempDir()
	err = refusePin(ext, caps, home, changed)
	if exitcode.Of(err) != exitcode.Extension || !errors.Is(err, rejection.Rule(schema.RuleExtensionChanged)) ||
		!strings.HasPrefix(err.Error(), "ext run: ") || !strings.HasSuffix(err.Error(), "(nothing ran)") {
		t.Fatalf("refusal %d %q", exitcode.Of(err), err)
	}
	entries, rerr := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{})
	if rerr != nil || len(entries) != 1 || entries[0].Kind != audit.KindRejected {
		t.Fatalf("audit log %+v %v, want one rejection", entries, rerr)
	}
	r := entries[0].Rejected
	if r.Extension.Name != "grants" || r.Extension.Version != "1.2.3" || r.Tier != audit.TierNative ||
		len(r.Capabilities) != 1 || r.Capabilities[0] != schema.CapNetHTTP ||
		len(r.Violations) != 1 || r.Violations[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("audited %+v", r)
	}

	home = t.TempDir()
	err = refusePin(ext, caps, home, extension.ErrNotPinnedNative)
	if exitcode.Of(err) != exitcode.Extension || !errors.Is(err, extension.ErrNotPinnedNative) {
		t.Fatalf("a refusal that is no rule: %d %v", exitcode.Of(err), err)
	}
	if _, serr := os.Stat(filepath.Join(home, audit.FileName)); !errors.Is(serr, os.ErrNotExist) {
		t.Fatalf("a refusal that is no rule was audited (%v)", serr)
	}

	home = t.TempDir()
	if err := os.Mkdir(filepath.Join(home, audit.FileName), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := refusePin(ext, caps, home, changed); exitcode.Of(err) != exitcode.Internal || !errors.Is(err, rejection.Rule(schema.RuleExtensionChanged)) {
		t.Fatalf("an unauditable refusal: %d %v", exitcode.Of(err), err)
	}
}

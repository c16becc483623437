package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/shim/shimtest"
	"github.com/lola-pm/lola/schema"
)

// trust.require_tier1 holds at run time: a tier-1 target pinned unsigned
// while it was false runs; once it is true, both `lola install -a` and
// `lola ext run` refuse it (extension.unsigned, exit 4, audited), the
// project untouched; re-pinned with --allow-unsigned it runs again.
func TestRequireTier1RefusesAnUnsignedPinAtRun(t *testing.T) {
	const hook = "#!/bin/bash\necho hook ran\n"
	w := newInstallWorld(t, hook, hook)
	dir := filepath.Join(w.home, "extensions", "fake")
	modWriteFiles(t, dir, map[string]string{
		"lola-extension.yaml": "name: fake\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/fake.wasm\npaths: [.claude/]\n",
	})
	os.MkdirAll(filepath.Join(dir, "dist"), 0o755)
	os.WriteFile(filepath.Join(dir, "dist", "fake.wasm"), shimtest.Reactor(schema.ABIVersion, 0, []byte(installSkillPlan)).Bytes(), 0o644)
	if a, err := extension.Adopt(w.home, "fake", extension.AddOptions{}); err != nil || a.Entry.Artifacts[extension.Tier1].Verdict != extension.VerdictUnsigned {
		t.Fatalf("adopt: %+v %v", a, err)
	}
	installTestEnv = []string{extHostChildEnv + "=1"}
	extRunTestEnv = installTestEnv
	t.Cleanup(func() { installTestEnv, extRunTestEnv = nil, nil })

	if code, out, errOut := runLola(t, "install", "sample", "-a", "fake", "--dry-run", w.project); code != 0 {
		t.Fatalf("policy off: %d %s %s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(w.home, "config.yaml"), []byte("trust:\n  require_tier1: true\n"), 0o644)
	lastRule := func(what string) {
		t.Helper()
		entries, err := audit.Read(filepath.Join(w.home, audit.FileName), audit.Filter{})
		if err != nil || len(entries) == 0 {
			t.Fatalf("%s: audit %v", what, err)
		}
		last := entries[len(entries)-1]
		if last.Rejected == nil || len(last.Rejected.Violations) != 1 || last.Rejected.Violations[0].Rule != schema.RuleExtensionUnsigned {
			t.Fatalf("%s: audit tail %+v", what, last)
		}
	}
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", w.project)
	if code != exitExtension || !strings.Contains(errOut, "extension.unsigned") || !strings.Contains(errOut, "require_tier1") {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	lastRule("install")
	if strings.Contains(out, "hook ran") {
		t.Fatalf("the pre-install hook ran before the target was refused:\n%s", out)
	}
	if got := projectEntries(t, w.project); len(got) != 0 {
		t.Fatalf("a refused install changed the project: %v", got)
	}
	code, _, errOut = runLola(t, "ext", "run", "--root", t.TempDir(), "fake")
	if code != exitExtension || !strings.Contains(errOut, "extension.unsigned") {
		t.Fatalf("ext run: %d %s", code, errOut)
	}
	lastRule("ext run")

	// Opted in for exactly these bytes: runs.
	if _, err := extension.Adopt(w.home, "fake", extension.AddOptions{AllowUnsigned: true}); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runLola(t, "install", "sample", "-a", "fake", w.project); code != 0 {
		t.Fatalf("opted in: %d %s %s", code, out, errOut)
	}
}

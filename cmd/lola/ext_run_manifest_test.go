package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// extRunManifestDir writes an extension directory: a manifest and a tier-2
// shell script that prints plan.
func extRunManifestDir(t *testing.T, manifest, plan string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	dir := filepath.Join(t.TempDir(), "ext")
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncat >/dev/null\nprintf '%s' '" + plan + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "dist", "ext"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

const extRunManifest = `name: grants
version: 1.2.3
kind: target
artifacts:
  tier2: dist/ext
paths:
  - .claude/
`

// TestExtRunManifestGrants: an extension directory runs with its manifest's
// capabilities and path grant; a plan outside the grant, or using an
// undeclared capability, is rejected whole and nothing changes.
func TestExtRunManifestGrants(t *testing.T) {
	t.Setenv("LOLA_HOME", t.TempDir())
	root := t.TempDir()
	inside := `{"protocol":1,"intents":[{"op":"write","path":".claude/skills/x/SKILL.md","content":"x"}]}`
	outside := `{"protocol":1,"intents":[{"op":"write","path":".claude/ok","content":"x"},{"op":"write","path":"elsewhere","content":"x"},{"op":"fetch","url":"https://example.org/x","dest":".claude/x"}]}`

	code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--json", extRunManifestDir(t, extRunManifest, inside))
	if code != exitOK {
		t.Fatalf("inside the grant: exit %d %s %s", code, out, errOut)
	}
	var rep extRunReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Outcome != "committed" || rep.Extension != "grants" || rep.Correlation == "" {
		t.Fatalf("report %s (%v)", out, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, ".claude/skills/x/SKILL.md")); err != nil || string(b) != "x" {
		t.Fatalf("not applied: %q %v", b, err)
	}

	before := listTree(t, root)
	code, out, errOut = extRunLola(t, nil, "ext", "run", "--root", root, "--json", extRunManifestDir(t, extRunManifest, outside))
	if code != exitRejected {
		t.Fatalf("outside the grant: exit %d %s %s", code, out, errOut)
	}
	rep = extRunReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, v := range rep.Violations {
		rules = append(rules, v.Rule.String())
	}
	if got := strings.Join(rules, " "); !strings.Contains(got, "grant.outside") || !strings.Contains(got, "capability.missing") {
		t.Fatalf("rules %q", got)
	}
	if listTree(t, root) != before {
		t.Fatal("a rejected plan changed the tree")
	}

	code, _, errOut = extRunLola(t, nil, "ext", "run", "--root", root, "--caps", "net.http", extRunManifestDir(t, extRunManifest, inside))
	if code != exitUsage || !strings.Contains(errOut, "declares its capabilities") {
		t.Fatalf("--caps with a manifest: exit %d %s", code, errOut)
	}
	hook := strings.Replace(extRunManifest, "kind: target", "kind: hook", 1)
	if code, _, errOut = extRunLola(t, nil, "ext", "run", "--root", root, extRunManifestDir(t, hook, inside)); code != exitUsage {
		t.Fatalf("a hook ran as a plan extension: exit %d %s", code, errOut)
	}
}

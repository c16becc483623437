package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/signature/sigtest"
)

// Keyless signing through the CLI: a bundle from a virtual Sigstore,
// its trusted root as $LOLA_HOME/trusted_root.json, trust.identities in
// config.yaml. A wrong identity is refused with nothing installed; the
// trusted one installs and the pin names the identity.
func TestExtAddKeyless(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	src := filepath.Join(work, "demo")
	script := []byte("#!/bin/sh\ncat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[]}'\n")
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml": "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/demo\npaths: [demo/]\n",
	})
	os.MkdirAll(filepath.Join(src, "dist"), 0o755)
	if err := os.WriteFile(filepath.Join(src, "dist", "demo"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	vs, err := sigtest.New()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := vs.TrustedRoot()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "trusted_root.json"), tr, 0o644)
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte(
		"trust:\n  identities:\n    - {issuer: https://token.actions.example, subject_regexp: \"^release@example\\\\.com$\"}\n"), 0o644)
	sign := func(subject string) {
		t.Helper()
		b, err := vs.Sign(subject, "https://token.actions.example", script)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, "dist", "demo.sigstore.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	sign("mallory@example.com")
	code, _, errOut := extLsLola(t, home, "ext", "add", src)
	if code != exitUsage || !strings.Contains(errOut, "not signed by a trusted key or identity") ||
		!strings.Contains(errOut, "no trusted identity matches: subject mallory@example.com (issuer https://token.actions.example)") {
		t.Fatalf("wrong identity: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "extensions")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(home, "extensions")); len(ents) != 0 {
			t.Fatalf("a refused add left %v", ents)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "extensions.lock")); err == nil {
		t.Fatal("a refused add wrote extensions.lock")
	}

	sign("release@example.com")
	code, out, errOut := extLsLola(t, home, "ext", "add", src)
	if code != 0 || !strings.Contains(out, "signed by identity release@example.com (https://token.actions.example)") {
		t.Fatalf("trusted identity: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := extLsLola(t, home, "ext", "run", "--root", t.TempDir(), "demo"); code != 0 {
		t.Fatalf("run: %d %s", code, errOut)
	}
}

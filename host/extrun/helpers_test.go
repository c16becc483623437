package extrun

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/config"
)

// script writes a native (tier-2) extension at dir/rel: a POSIX shell
// script that reads its request and prints body.
func script(t *testing.T, dir, rel, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the test extensions are POSIX shell scripts")
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// printing is a script body that prints plan.
func printing(plan string) string { return "printf '%s' '" + plan + "'\n" }

const grantsManifest = `name: grants
version: 1.2.3
kind: target
artifacts:
  tier2: dist/ext
paths:
  - .claude/
`

// extDir writes an extension directory with manifest and a tier-2
// artifact dist/ext running body.
func extDir(t *testing.T, manifest, body string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ext")
	script(t, dir, "dist/ext", body)
	if err := os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// configWith loads a config.yaml of body from a fresh home.
func configWith(t *testing.T, body string) (string, *config.Config) {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, config.ConfigFile), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	return home, cfg
}

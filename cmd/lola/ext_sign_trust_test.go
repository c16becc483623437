package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/config"
)

// extSignFixture writes an extension directory named name with both
// tiers "built" (a tier-1 file and a tier-2 POSIX script) and returns it.
func extSignFixture(t *testing.T, work, name string) string {
	t.Helper()
	src := filepath.Join(work, name)
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml":    "name: " + name + "\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/" + name + ".wasm\n  tier2: dist/" + name + "\npaths: [" + name + "/]\n",
		"dist/" + name + ".wasm": "\x00asm\x01\x00\x00\x00",
	})
	if err := os.WriteFile(filepath.Join(src, "dist", name), []byte("#!/bin/sh\ncat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[]}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return src
}

// A bundle path that is a symbolic link is refused (path.symlink, exit 3),
// whether one artifact or an extension directory is signed: the file the
// link points to keeps its bytes and the link stays a link.
func TestExtSignRefusesASymlinkedBundle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home, work := t.TempDir(), t.TempDir()
	keyFile, _ := authorKey(t, work)
	victim := filepath.Join(work, "profile")
	os.WriteFile(victim, []byte("the user's own\n"), 0o644)
	src := extSignFixture(t, work, "demo")
	bundle := filepath.Join(src, "dist", "demo.sigstore.json")
	if err := os.Symlink(victim, bundle); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{filepath.Join(src, "dist", "demo"), src} {
		code, _, errOut := extLsLola(t, home, "ext", "sign", "--key", keyFile, target)
		if code != exitRejected || !strings.Contains(errOut, "path.symlink") {
			t.Fatalf("sign %s: exit %d, %s", target, code, errOut)
		}
		if b, _ := os.ReadFile(victim); string(b) != "the user's own\n" {
			t.Fatalf("the link's target was written: %q", b)
		}
		if fi, err := os.Lstat(bundle); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("the bundle link was replaced: %v", err)
		}
	}
}

// ext sign DIR signs every built artifact the manifest names; without
// --trust it says how to trust the key; with --trust it writes the key
// and the trust.keys entry, showing the change and keeping the rest of
// config.yaml, after which ext add verifies both tiers by that key; a
// second --trust reports the key as trusted already.
func TestExtSignTrustWritesConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	keyFile, _ := authorKey(t, work)
	src := extSignFixture(t, work, "demo")
	const before = "# my settings\nremote:\n  max_redirects: 3   # fewer hops\n"
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte(before), 0o644)

	code, out, errOut := extLsLola(t, home, "ext", "sign", "--key", keyFile, src)
	if code != exitOK || !strings.Contains(out, "run this command again with --trust") || !strings.Contains(out, `{name: "author", file: "keys/author.pub"}`) {
		t.Fatalf("sign: exit %d\n%s%s", code, out, errOut)
	}
	for _, a := range []string{"demo", "demo.wasm"} {
		if _, err := os.Stat(filepath.Join(src, "dist", a+".sigstore.json")); err != nil {
			t.Fatalf("%s not signed: %v", a, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, "config.yaml")); string(b) != before {
		t.Fatalf("sign without --trust changed config.yaml: %q", b)
	}

	code, out, errOut = extLsLola(t, home, "ext", "sign", "--key", keyFile, "--trust", src)
	if code != exitOK || !strings.Contains(out, "trusted as author") || !strings.Contains(out, `+    - {name: "author", file: "keys/author.pub"}`) {
		t.Fatalf("sign --trust: exit %d\n%s%s", code, out, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(home, "config.yaml"))
	if !strings.HasPrefix(string(after), before) {
		t.Fatalf("config.yaml lost its lines:\n%s", after)
	}
	cfg, err := config.Load(home)
	if err != nil || len(cfg.Trust().Keys()) != 1 || cfg.Remote().MaxRedirects() != 3 {
		t.Fatalf("config after --trust: %v %+v", err, cfg)
	}
	code, out, errOut = extLsLola(t, home, "ext", "add", src)
	if code != exitOK || strings.Count(out, "signed by key author") != 2 {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = extLsLola(t, home, "ext", "sign", "--key", keyFile, "--trust", src)
	if again, _ := os.ReadFile(filepath.Join(home, "config.yaml")); code != exitOK || !strings.Contains(out, "already trusted") || string(again) != string(after) {
		t.Fatalf("second --trust: exit %d\n%s", code, out)
	}
}

// --trust refuses to rewrite a config.yaml it cannot parse: exit 2, the
// file and $LOLA_HOME unchanged, nothing signed, and the lines to add by
// hand are printed.
func TestExtSignTrustRefusesAnUnparseableConfig(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	keyFile, _ := authorKey(t, work)
	src := extSignFixture(t, work, "demo")
	const broken = "trust:\n  keys: [{name: alice, file: alice.pub}\n"
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte(broken), 0o644)
	code, _, errOut := extLsLola(t, home, "ext", "sign", "--key", keyFile, "--trust", src)
	if code != exitUsage || !strings.Contains(errOut, "config.yaml does not parse") || !strings.Contains(errOut, `{name: "author", file: "keys/author.pub"}`) {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "config.yaml")); string(b) != broken {
		t.Fatalf("config.yaml changed: %q", b)
	}
	for _, p := range []string{filepath.Join(home, "keys"), filepath.Join(src, "dist", "demo.sigstore.json")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s was written", p)
		}
	}
}

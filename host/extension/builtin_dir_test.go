package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinDirLoadsWithHostPaths(t *testing.T) {
	dir := mkext(t, filepath.Join(t.TempDir(), "bd-test"), manifest("bd-test", "target", "  tier1: dist/x.wasm\n"), map[string]string{"dist/x.wasm": "0123456789"})
	RegisterBuiltinDir("bd-test", dir)
	defer unregisterBuiltin("bd-test")
	home := t.TempDir()
	// A home extension of the same name does not shadow it.
	mkext(t, filepath.Join(home, ExtensionsDir, "bd-test"), manifest("bd-test", "target", "  tier1: y.wasm\n"), map[string]string{"y.wasm": "home"})
	cat, err := Discover(home)
	if err != nil {
		t.Fatal(err)
	}
	e, err := cat.Lookup("bd-test")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := e.Artifact(Tier1)
	if e.Source() != SourceBuiltin || e.Tier() != Tier1 || e.Dir() != dir || a.HostPath() != filepath.Join(dir, "dist", "x.wasm") || a.Size() != 10 {
		t.Fatalf("builtin dir: source %s tier %s dir %q artifact %+v", e.Source(), e.Tier(), e.Dir(), a)
	}
	if probs := cat.Problems(); len(probs) != 1 || !strings.Contains(probs[0].Error(), "clashes with the built-in") {
		t.Fatalf("problems %v", probs)
	}
	for _, bad := range []func(){
		func() { RegisterBuiltinDir("bd-test", dir) },
		func() { RegisterBuiltinDir("Bad Name", dir) },
		func() { RegisterBuiltinDir("ok", "") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("RegisterBuiltinDir accepted a programming error")
				}
			}()
			bad()
		}()
	}
}

// TestBuiltinDirRefusesWhatAnInstalledExtensionWouldBe: a built-in
// directory is held to the loader's rules; failures are Problems.
func TestBuiltinDirRefusesWhatAnInstalledExtensionWouldBe(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "evil.wasm")
	if err := os.WriteFile(outside, []byte("evil"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	cases := map[string]struct {
		manifest string
		files    map[string]string
		want     string
	}{
		"bd-escape":  {manifest("bd-escape", "target", "  tier1: x.wasm\n"), map[string]string{"x.wasm": "->" + outside}, "does not resolve inside"},
		"bd-renamed": {manifest("someone-else", "target", "  tier1: x.wasm\n"), map[string]string{"x.wasm": "w"}, "differs from the registered name"},
		"bd-broken":  {manifest("bd-broken", "target", "  tier1: x.wasm\n") + "extra: 1\n", map[string]string{"x.wasm": "w"}, `unknown key "extra"`},
		"bd-unbuilt": {manifest("bd-unbuilt", "target", "  tier1: x.wasm\n"), nil, "no declared artifact is built"},
		"bd-missing": {"", nil, "no such extension directory"},
	}
	for name, c := range cases {
		dir := filepath.Join(base, name)
		if c.manifest != "" {
			mkext(t, dir, c.manifest, c.files)
		}
		RegisterBuiltinDir(name, dir)
		defer unregisterBuiltin(name)
	}
	cat, err := Discover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cat.Extensions() {
		if _, bad := cases[e.Name()]; bad {
			t.Errorf("%s loaded", e.Name())
		}
	}
	got := map[string]string{}
	for _, p := range cat.Problems() {
		got[p.Name] = p.Error()
		if strings.Contains(p.Error(), base) {
			t.Errorf("%s: problem carries a host path: %s", p.Name, p.Error())
		}
	}
	for name, c := range cases {
		if !strings.Contains(got[name], c.want) {
			t.Errorf("%s: problem %q, want %q", name, got[name], c.want)
		}
	}
}

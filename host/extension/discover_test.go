package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDiscoverReportsEveryExtensionItCannotLoad(t *testing.T) {
	home := t.TempDir()
	exts := filepath.Join(home, ExtensionsDir)
	mkext(t, filepath.Join(exts, "good"), manifest("good", "target", bothTiers), map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, "alpha"), manifest("alpha", "source", "  tier1: a.wasm\n"), map[string]string{"a.wasm": "w"})
	mkext(t, filepath.Join(exts, "broken"), manifest("broken", "target", bothTiers)+"surprise: 1\n", map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, "unknown-cap"), strings.Replace(manifest("unknown-cap", "target", bothTiers), "net.git", "net.smtp", 1), map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, "renamed"), manifest("other-name", "target", bothTiers), map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, "empty"), "", nil)
	mkext(t, filepath.Join(exts, "clash"), manifest("clash", "target", bothTiers), map[string]string{"dist/x": "n"})
	mkext(t, filepath.Join(exts, ".hidden"), "garbage", nil)
	if err := os.WriteFile(filepath.Join(exts, "stray-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(exts, "good"), filepath.Join(exts, "linked")); err != nil {
		t.Fatal(err)
	}
	mkext(t, filepath.Join(exts, "Upper"), manifest("upper", "target", bothTiers), map[string]string{"dist/x": "n"})
	RegisterBuiltin("clash", fstest.MapFS{
		ManifestFile: {Data: []byte(manifest("clash", "target", "  tier1: c.wasm\n"))},
		"c.wasm":     {Data: []byte("builtin")},
	})
	defer unregisterBuiltin("clash")
	RegisterBuiltin("bad-builtin", fstest.MapFS{ManifestFile: {Data: []byte(manifest("not-me", "target", "  tier1: c.wasm\n"))}, "c.wasm": {}})
	defer unregisterBuiltin("bad-builtin")

	cat, err := Discover(home)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range cat.Extensions() {
		names = append(names, e.Name()+"/"+e.Source().String())
	}
	if got, want := strings.Join(names, " "), "alpha/home clash/builtin good/home"; got != want {
		t.Fatalf("loaded %q, want %q", got, want)
	}
	want := map[string]string{
		"builtin bad-builtin":         "differs from the registered name",
		"home extensions/broken":      `unknown key "surprise"`,
		"home extensions/unknown-cap": "capability.unknown",
		"home extensions/renamed":     "differs from the directory name",
		"home extensions/empty":       "no " + ManifestFile,
		"home extensions/clash":       "clashes with the built-in",
		"home extensions/stray-file":  "not a directory",
		"home extensions/linked":      "symbolic link",
		"home extensions/Upper":       "not an extension name",
	}
	probs := cat.Problems()
	if len(probs) != len(want) {
		t.Errorf("%d problems, want %d:", len(probs), len(want))
	}
	for _, p := range probs {
		w, ok := want[p.Where()]
		if !ok {
			t.Errorf("unexpected problem %v", p)
			continue
		}
		if !strings.Contains(p.Error(), w) {
			t.Errorf("%s: %q does not say %q", p.Where(), p.Error(), w)
		}
		if strings.Contains(p.Error(), home) {
			t.Errorf("%s: problem carries the host path: %v", p.Where(), p)
		}
		delete(want, p.Where())
	}
	for w := range want {
		t.Errorf("not reported: %s", w)
	}
	// The built-in wins the clash: its artifact is the one that runs.
	e, err := cat.Lookup("clash")
	if err != nil || e.Source() != SourceBuiltin {
		t.Fatalf("clash resolved to %v, %v", e, err)
	}
	if _, err := cat.Lookup("broken"); err == nil || !strings.Contains(err.Error(), "surprise") {
		t.Fatalf("Lookup of a broken extension: %v", err)
	}
	if _, err := cat.Lookup("nope"); err == nil || !strings.Contains(err.Error(), "no extension named") {
		t.Fatalf("Lookup of nothing: %v", err)
	}
}

func TestDiscoverWithoutAnExtensionsDirectory(t *testing.T) {
	cat, err := Discover(filepath.Join(t.TempDir(), "never-created"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Problems()) != 0 {
		t.Fatalf("problems: %v", cat.Problems())
	}
}

//go:build !wasip1

package lolatest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// issue 15: the golden harness approved plans the host rejects. Each of
// these reaches hostCheck, which Golden runs on every success case before
// comparing or writing its golden.
func TestHostCheckRefusesWhatTheHostRefuses(t *testing.T) {
	dir := t.TempDir()
	manifest := "name: fake\nversion: 0.1.0\nkind: target\nartifacts:\n  tier1: dist/fake.wasm\ncapabilities: []\npaths:\n  - fake/\n"
	if err := os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	e := loadManifest(t, dir)
	if err := hostCheck(e, []byte(`{}`), []byte(`{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"}]}`)); err != nil {
		t.Fatalf("a good plan: %v", err)
	}
	for name, c := range map[string]struct{ plan, rule string }{
		"two writes to one path": {`{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"},{"op":"write","path":"fake/a.md","content":"y"}]}`, "conflict.same-path"},
		"outside the path grant": {`{"protocol":1,"intents":[{"op":"write","path":"other/a.md","content":"x"}]}`, "grant.outside"},
		"case-fold clash":        {`{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"},{"op":"write","path":"fake/A.md","content":"y"}]}`, "conflict.same-path"},
		"fetch without net.http": {`{"protocol":1,"intents":[{"op":"fetch","url":"https://example.org/a","dest":"fake/a"}]}`, "capability.missing"},
	} {
		if err := hostCheck(e, []byte(`{}`), []byte(c.plan)); err == nil || !strings.Contains(err.Error(), c.rule) {
			t.Errorf("%s: %v, want %s", name, err, c.rule)
		}
	}
}

// A package without a manifest fails rather than being checked against a
// subset of the rules.
func TestLoadManifestRequiresOne(t *testing.T) {
	ft := &fatalRecorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		loadManifest(ft, t.TempDir())
	}()
	if !ft.failed {
		t.Fatal("a package without lola-extension.yaml was accepted")
	}
}

package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lola-pm/lola/host/audit"
)

// mkext writes an extension directory: the manifest and files (path ->
// content; a content starting with "->" makes a symlink to the rest).
func mkext(t *testing.T, dir, manifest string, files map[string]string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if manifest != "" {
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(content), 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func manifest(name, kind, tiers string) string {
	return "name: " + name + "\nversion: 1.2.3\nkind: " + kind + "\nartifacts:\n" + tiers + "capabilities: [net.git]\npaths: [out/]\n"
}

const bothTiers = "  tier1: dist/x.wasm\n  tier2: dist/x\n"

func TestLoadPrefersTier1WhenBothAreBuilt(t *testing.T) {
	dir := mkext(t, t.TempDir(), manifest("x", "target", bothTiers), map[string]string{"dist/x.wasm": "wasm!", "dist/x": "native"})
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e.Tier() != Tier1 || e.AuditTier() != audit.TierWasm || e.Source() != SourceDir {
		t.Fatalf("tier %s audit %s source %s", e.Tier(), e.AuditTier(), e.Source())
	}
	a, _ := e.Artifact(Tier1)
	if !a.Present() || a.Size() != 5 || a.HostPath() != filepath.Join(dir, "dist", "x.wasm") {
		t.Fatalf("tier1 artifact %+v", a)
	}
	if e.Capabilities().String() != "net.git" || strings.Join(e.Paths().Strings(), ",") != "out" {
		t.Fatalf("caps %q paths %q", e.Capabilities(), e.Paths().Strings())
	}
	id, err := e.AuditIdentity()
	if err != nil || id.Name() != "x" || id.Version() != "1.2.3" {
		t.Fatalf("audit identity %v, %v", id, err)
	}
	f, err := e.OpenArtifact(Tier1)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, _ := f.Read(buf)
	f.Close()
	if string(buf[:n]) != "wasm!" {
		t.Fatalf("OpenArtifact read %q", buf[:n])
	}
}

func TestLoadFallsBackToTheBuiltTier(t *testing.T) {
	dir := mkext(t, t.TempDir(), manifest("x", "target", bothTiers), map[string]string{"dist/x": "native"})
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if e.Tier() != Tier2 || e.AuditTier() != audit.TierNative {
		t.Fatalf("tier %s", e.Tier())
	}
	if a, _ := e.Artifact(Tier1); a.Present() {
		t.Fatal("an unbuilt artifact is present")
	}
	hook := mkext(t, t.TempDir(), manifest("h", "hook", "  tier2: run.sh\n"), map[string]string{"run.sh": "#!/bin/sh\n"})
	if e, err := Load(hook); err != nil || e.AuditTier() != audit.TierHook {
		t.Fatalf("hook: %v, %v", e, err)
	}
	none := mkext(t, t.TempDir(), manifest("x", "target", bothTiers), nil)
	if _, err := Load(none); err == nil || !strings.Contains(err.Error(), "lola ext build") {
		t.Fatalf("nothing built: %v", err)
	}
}

func TestLoadRefusesArtifactsLeavingTheDirectory(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "payload"), []byte("evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := map[string]map[string]string{
		"absolute symlink":            {"dist/x.wasm": "->" + filepath.Join(outside, "payload")},
		"absolute symlink to /etc":    {"dist/x.wasm": "->/etc/passwd"},
		"relative symlink up":         {"dist/x.wasm": "->../../" + filepath.Base(outside) + "/payload"},
		"symlinked parent dir":        {"dist": "->" + outside, "x.wasm": "unused"},
		"dangling escape":             {"dist/x.wasm": "->/nonexistent/lola-test"},
		"artifact is a directory":     {"dist/x.wasm/inner": "x"},
		"symlink to a directory here": {"dist/x.wasm": "->.", "dist/x": "native"},
	}
	for name, files := range cases {
		base := t.TempDir()
		dir := mkext(t, filepath.Join(base, "ext"), manifest("x", "target", "  tier1: dist/x.wasm\n  tier2: dist/x\n"), files)
		// the relative case climbs from base/ext/dist to the temp parent
		if name == "relative symlink up" {
			os.Remove(filepath.Join(dir, "dist", "x.wasm"))
			rel, _ := filepath.Rel(filepath.Join(dir, "dist"), filepath.Join(outside, "payload"))
			if err := os.Symlink(rel, filepath.Join(dir, "dist", "x.wasm")); err != nil {
				t.Fatal(err)
			}
		}
		e, err := Load(dir)
		if err == nil {
			t.Errorf("%s: loaded (tier %s)", name, e.Tier())
			continue
		}
		if !strings.Contains(err.Error(), "artifacts.tier1") {
			t.Errorf("%s: error does not name the artifact: %v", name, err)
		}
		if strings.Contains(err.Error(), base) || strings.Contains(err.Error(), outside) {
			t.Errorf("%s: error carries a host path: %v", name, err)
		}
	}
	// A symlink that stays inside the directory is an ordinary artifact.
	dir := mkext(t, t.TempDir(), manifest("x", "target", "  tier1: dist/x.wasm\n"), map[string]string{"build/out.wasm": "wasm", "dist/x.wasm": "->../build/out.wasm"})
	if e, err := Load(dir); err != nil || e.Tier() != Tier1 {
		t.Fatalf("in-directory symlink: %v", err)
	}
}

func TestLoadRefusesAManifestLeavingTheDirectory(t *testing.T) {
	outside := mkext(t, t.TempDir(), manifest("x", "target", "  tier2: /bin/sh\n"), nil)
	dir := mkext(t, t.TempDir(), "", map[string]string{ManifestFile: "->" + filepath.Join(outside, ManifestFile)})
	if _, err := Load(dir); err == nil || strings.Contains(err.Error(), outside) {
		t.Fatalf("manifest symlink out of the directory: %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no "+ManifestFile) {
		t.Fatalf("no manifest: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing directory loaded")
	}
}

func TestBuiltinLoadsFromItsFiles(t *testing.T) {
	fsys := fstest.MapFS{
		ManifestFile:   {Data: []byte(manifest("bi-test", "target", "  tier1: x.wasm\n"))},
		"x.wasm":       {Data: []byte("0123456789")},
		"unrelated.md": {Data: []byte("")},
	}
	RegisterBuiltin("bi-test", fsys)
	defer unregisterBuiltin("bi-test")
	cat, err := Discover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e, err := cat.Lookup("bi-test")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := e.Artifact(Tier1)
	if e.Source() != SourceBuiltin || e.Dir() != "" || a.HostPath() != "" || a.Size() != 10 {
		t.Fatalf("builtin: source %s dir %q artifact %+v", e.Source(), e.Dir(), a)
	}
	f, err := e.OpenArtifact(Tier1)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, bad := range []func(){
		func() { RegisterBuiltin("bi-test", fsys) },
		func() { RegisterBuiltin("Bad Name", fsys) },
		func() { RegisterBuiltin("ok", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("RegisterBuiltin accepted a programming error")
				}
			}()
			bad()
		}()
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// extLsLola runs lola in-process with $LOLA_HOME = home.
func extLsLola(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("LOLA_HOME", home)
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// extLsInstall writes an extension directory under home/extensions/dir
// with manifest and files (relative path -> content).
func extLsInstall(t *testing.T, home, dir, manifest string, files map[string]string) string {
	t.Helper()
	d := filepath.Join(home, "extensions", dir)
	files["lola-extension.yaml"] = manifest
	for rel, content := range files {
		p := filepath.Join(d, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func extLsManifest(name, kind, caps string, tiers ...string) string {
	m := "name: " + name + "\nversion: 0.3.1\nkind: " + kind + "\nartifacts:\n"
	for _, t := range tiers {
		m += "  " + t + "\n"
	}
	return m + "capabilities: [" + caps + "]\npaths: [" + name + "/]\n"
}

func TestExtLs(t *testing.T) {
	home := t.TempDir()
	extLsInstall(t, home, "wasm-one", extLsManifest("wasm-one", "target", "", "tier1: dist/w.wasm", "tier2: dist/w"),
		map[string]string{"dist/w.wasm": "\x00asm", "dist/w": "#!/bin/sh\n"})
	extLsInstall(t, home, "native-src", extLsManifest("native-src", "source", "net.http, net.git", "tier2: bin/src"),
		map[string]string{"bin/src": "#!/bin/sh\n"})

	t.Run("table", func(t *testing.T) {
		code, out, errOut := extLsLola(t, home, "ext", "ls")
		if code != exitOK || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 {
			t.Fatalf("want header and two rows:\n%s", out)
		}
		for i, want := range [][]string{
			{"NAME", "VERSION", "KIND", "TIER", "CAPABILITIES", "SOURCE", "PIN"},
			{"native-src", "0.3.1", "source", "tier2", "(native)", "net.git,net.http", "home", "unpinned"},
			{"wasm-one", "0.3.1", "target", "tier1", "(wasm)", "-", "home", "unpinned"},
		} {
			if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("line %d = %q, want %q", i, got, want)
			}
		}
	})

	t.Run("json", func(t *testing.T) {
		code, out, _ := extLsLola(t, home, "ext", "ls", "--json")
		if code != exitOK {
			t.Fatalf("exit %d", code)
		}
		var rep struct {
			Extensions []map[string]any `json:"extensions"`
			Problems   []map[string]any `json:"problems"`
			Warnings   []map[string]any `json:"warnings"`
		}
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if len(rep.Extensions) != 2 || len(rep.Problems) != 0 || rep.Warnings == nil || len(rep.Warnings) != 0 {
			t.Fatalf("got %+v", rep)
		}
		e := rep.Extensions[0]
		if e["name"] != "native-src" || e["tier"] != "tier2" || e["kind"] != "source" || e["source"] != "home" || e["version"] != "0.3.1" {
			t.Fatalf("entry %+v", e)
		}
		if caps, _ := json.Marshal(e["capabilities"]); string(caps) != `["net.git","net.http"]` {
			t.Fatalf("capabilities %s", caps)
		}
		if caps, _ := json.Marshal(rep.Extensions[1]["capabilities"]); string(caps) != `[]` {
			t.Fatalf("no capabilities renders %s", caps)
		}
	})

	t.Run("broken manifests are reported, not skipped", func(t *testing.T) {
		broken := t.TempDir()
		extLsInstall(t, broken, "ok", extLsManifest("ok", "target", "", "tier2: x"), map[string]string{"x": "x"})
		extLsInstall(t, broken, "typo", extLsManifest("typo", "target", "", "tier2: x")+"capabilites: [net.http]\n", map[string]string{"x": "x"})
		extLsInstall(t, broken, "newer", extLsManifest("newer", "target", "net.http, fs.write", "tier2: x"), map[string]string{"x": "x"})
		code, out, errOut := extLsLola(t, broken, "ext", "ls")
		if code != exitInternal {
			t.Fatalf("exit %d, want %d", code, exitInternal)
		}
		if !strings.Contains(out, "ok ") || strings.Contains(out, "typo") || strings.Contains(out, "newer") {
			t.Fatalf("stdout:\n%s", out)
		}
		for _, want := range []string{`home extensions/typo: lola-extension.yaml: line 8: unknown key "capabilites"`, "home extensions/newer", "capability.unknown", `"fs.write"`} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut)
			}
		}
		if strings.Contains(errOut, broken) {
			t.Errorf("stderr carries the host path:\n%s", errOut)
		}
		code, out, _ = extLsLola(t, broken, "ext", "ls", "--json")
		if code != exitInternal || !strings.Contains(out, `"where": "home extensions/typo"`) {
			t.Fatalf("json: exit %d\n%s", code, out)
		}
	})

	t.Run("empty home", func(t *testing.T) {
		code, out, _ := extLsLola(t, t.TempDir(), "ext", "ls")
		if code != exitOK || !strings.Contains(out, "no extensions") {
			t.Fatalf("exit %d: %s", code, out)
		}
		code, _, errOut := extLsLola(t, "relative/home", "ext", "ls")
		if code != exitUsage || !strings.Contains(errOut, "LOLA_HOME") {
			t.Fatalf("relative LOLA_HOME: exit %d %s", code, errOut)
		}
	})

	t.Run("help", func(t *testing.T) {
		code, out, _ := extLsLola(t, home, "ext", "ls", "--help")
		if code != exitOK || !strings.Contains(out, "Examples:") || !strings.Contains(out, "--json") {
			t.Fatalf("help: %d\n%s", code, out)
		}
	})
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pathrule"
)

func TestExtInfo(t *testing.T) {
	home := t.TempDir()
	dir := extLsInstall(t, home, "my-target",
		"name: my-target\nversion: 2.0.0\nkind: target\nartifacts:\n  tier1: dist/t.wasm\n  tier2: dist/t\ncapabilities: [net.http]\npaths: [.claude/, CLAUDE.md]\n",
		map[string]string{"dist/t.wasm": "0123456789"})
	conf := extension.ProbeConfinement()

	t.Run("by name, human", func(t *testing.T) {
		code, out, errOut := extLsLola(t, home, "ext", "info", "my-target")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{
			"name:          my-target",
			"version:       2.0.0",
			"source:        home",
			"tier:          tier1 (confined by the shim; audited as wasm/tier1)",
			"tier1  dist/t.wasm  10 bytes",
			"tier2  dist/t       not built",
			"capabilities:  net.http",
			"declared: .claude, CLAUDE.md",
			"effective: .claude, CLAUDE.md (no user narrowing",
			"tier-1 layers:",
			"tier-2 kill:   " + child.CurrentContainment().String(),
		} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks %q:\n%s", want, out)
			}
		}
		if runtime.GOOS == "linux" && conf.LandlockABI > 0 && !strings.Contains(out, "landlock-fs") {
			t.Errorf("landlock layer not reported:\n%s", out)
		}
		if strings.Contains(out, home) {
			t.Errorf("output carries the host path:\n%s", out)
		}
	})

	t.Run("narrowed by config, json", func(t *testing.T) {
		cfgHome := t.TempDir()
		if err := os.CopyFS(filepath.Join(cfgHome, "extensions", "my-target"), os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		cfg := "extensions:\n  my-target:\n    paths: [\".claude/skills/\", \".cursor/\", \"\"]\n"
		if err := os.WriteFile(filepath.Join(cfgHome, "config.yaml"), []byte(strings.Replace(cfg, `, ""`, "", 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := extLsLola(t, cfgHome, "ext", "info", "--json", "my-target")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep extInfoReport
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		// The user's .claude/skills narrows .claude; .cursor (never
		// declared) grants nothing; CLAUDE.md is not in the user's list.
		if !slices.Equal(rep.Paths.Effective, []string{".claude/skills"}) || !rep.Paths.Narrowed {
			t.Fatalf("paths %+v", rep.Paths)
		}
		if !slices.Equal(rep.Paths.Declared, []string{".claude", "CLAUDE.md"}) {
			t.Fatalf("declared %v", rep.Paths.Declared)
		}
		if rep.Tier != extension.Tier1 || rep.AuditTier != "wasm/tier1" || len(rep.Artifacts) != 2 || rep.Artifacts[0].Size != 10 || rep.Artifacts[1].Built {
			t.Fatalf("report %+v", rep)
		}
		if !slices.Equal(rep.Confinement.Layers, conf.Layers) || rep.Confinement.LandlockABI != conf.LandlockABI {
			t.Fatalf("confinement %+v, probe %+v", rep.Confinement, conf)
		}
		if strings.Join(capStrings(rep.Capabilities), ",") != "net.http" {
			t.Fatalf("capabilities %v", rep.Capabilities)
		}
		// A broken config.yaml is refused, not ignored.
		os.WriteFile(filepath.Join(cfgHome, "config.yaml"), []byte("extensions:\n  my-target:\n    path: [x]\n"), 0o600)
		code, _, errOut = extLsLola(t, cfgHome, "ext", "info", "my-target")
		if code != exitUsage || !strings.Contains(errOut, `unknown key "path"`) {
			t.Fatalf("broken config: exit %d %s", code, errOut)
		}
	})

	t.Run("by directory", func(t *testing.T) {
		dev := t.TempDir()
		ext := filepath.Join(dev, "hook")
		os.MkdirAll(ext, 0o755)
		os.WriteFile(filepath.Join(ext, "lola-extension.yaml"), []byte("name: pre\nversion: 1\nkind: hook\nartifacts: {tier2: run.sh}\n"), 0o644)
		os.WriteFile(filepath.Join(ext, "run.sh"), []byte("#!/bin/bash\n"), 0o755)
		code, out, errOut := extLsLola(t, home, "ext", "info", ext)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{"source:        dir", "tier2 (native: trusted rather than confined; audited as native/hook)", "declared: none (no path is granted)", "capabilities:  none"} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks %q:\n%s", want, out)
			}
		}
		t.Chdir(dev)
		if code, _, errOut := extLsLola(t, home, "ext", "info", "hook"); code != exitUsage || !strings.Contains(errOut, "write ./hook") {
			t.Fatalf("bare name of a local dir: exit %d %s", code, errOut)
		}
		if code, out, errOut := extLsLola(t, home, "ext", "info", "./hook"); code != exitOK || !strings.Contains(out, "name:          pre") {
			t.Fatalf("./hook: exit %d %s", code, errOut)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		outside := t.TempDir()
		os.WriteFile(filepath.Join(outside, "payload.wasm"), []byte("x"), 0o644)
		evil := t.TempDir()
		os.WriteFile(filepath.Join(evil, "lola-extension.yaml"), []byte("name: evil\nversion: 1\nkind: target\nartifacts: {tier1: dist/e.wasm}\n"), 0o644)
		os.Symlink(outside, filepath.Join(evil, "dist"))
		for name, c := range map[string]struct {
			args []string
			want string
		}{
			"unknown name":      {[]string{"ext", "info", "nope"}, "no extension named"},
			"escaping artifact": {[]string{"ext", "info", evil}, "artifacts.tier1"},
			"not an extension":  {[]string{"ext", "info", t.TempDir()}, "no lola-extension.yaml"},
			"no argument":       {[]string{"ext", "info"}, "accepts 1 arg"},
		} {
			code, out, errOut := extLsLola(t, home, c.args...)
			if code != exitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("%s: exit %d, stderr %q, want %q", name, code, errOut, c.want)
			}
			if out != "" && name != "no argument" {
				t.Errorf("%s: printed a report: %s", name, out)
			}
			if strings.Contains(errOut, outside) {
				t.Errorf("%s: stderr names the symlink's target: %s", name, errOut)
			}
		}
	})
}

// TestExtInfoWithoutOSConfinement renders the report as darwin and windows
// hosts produce it (this machine cannot run those probes).
func TestExtInfoWithoutOSConfinement(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte("name: t\nversion: 1\nkind: target\nartifacts: {tier1: t.wasm}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "t.wasm"), []byte("w"), 0o644)
	e, err := extension.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, goos := range []string{"darwin", "windows"} {
		conf := extension.Confinement{OS: goos, Layers: []audit.Layer{audit.LayerWazero, audit.LayerMemoryLimit, audit.LayerClock}}
		var out strings.Builder
		extInfoHuman(&out, newExtInfoReport(e, config.Default(), pathrule.Platform(), conf))
		if want := "tier-1 layers: wazero, memory-limit, clock (" + goos + " on this host: none: wazero only)"; !strings.Contains(out.String(), want) {
			t.Errorf("%s: lacks %q:\n%s", goos, want, out.String())
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestRegisterBuiltinsInRegistersEveryExtensionDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"opencode", "claude-code", "a-b", ".staging", "Upper", "bad_name"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "stray.wasm"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "opencode"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	names, skipped, err := registerBuiltinsIn(dir, nil, func(name, d string) { got[name] = d })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "a-b,claude-code,opencode" || len(got) != 3 {
		t.Fatalf("registered %v (%v)", names, got)
	}
	for name, d := range got {
		if d != filepath.Join(dir, name) {
			t.Errorf("%s registered at %s", name, d)
		}
	}
	report := strings.Join(skipped, "\n")
	for _, want := range []string{`"Upper": is not an extension name`, `"bad_name": is not an extension name`, `"stray.wasm": is not a directory`, `"linked": is a symbolic link`} {
		if !strings.Contains(report, want) {
			t.Errorf("skipped does not say %s:\n%s", want, report)
		}
	}
	if len(skipped) != 4 || strings.Contains(report, ".staging") || strings.Contains(report, dir) {
		t.Errorf("skipped:\n%s", report)
	}
}

func TestRegisterBuiltinsInToleratesNoDirectoryAndRefusesAClash(t *testing.T) {
	names, skipped, err := registerBuiltinsIn(filepath.Join(t.TempDir(), "absent"), nil, func(string, string) { t.Fatal("registered from nothing") })
	if names != nil || skipped != nil || err != nil {
		t.Fatalf("absent dir: %v %v %v", names, skipped, err)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := registerBuiltinsIn(notDir, nil, func(string, string) {}); err == nil || strings.Contains(err.Error(), notDir) {
		t.Fatalf("a file as builtin dir: %v", err)
	}
	// A name already registered (by an embedding binary, or a second call)
	// is reported, not registered twice (RegisterBuiltinDir would panic).
	dir := t.TempDir()
	for _, d := range []string{"claude-code", "opencode"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var calls []string
	names, skipped, err = registerBuiltinsIn(dir, []string{"claude-code"}, func(name, _ string) { calls = append(calls, name) })
	if err != nil || strings.Join(names, ",") != "opencode" || strings.Join(calls, ",") != "opencode" ||
		len(skipped) != 1 || !strings.Contains(skipped[0], `"claude-code": a built-in of that name is already registered`) {
		t.Fatalf("with claude-code registered: names %v calls %v skipped %v err %v", names, calls, skipped, err)
	}
}

// TestBuiltBinaryListsTheFourTargetsAsBuiltinTier1 runs the real bin/lola
// that `make build` produced (or $LOLA_BUILT_BINARY), with builtin/ beside
// it: every built-in target is listed as builtin, tier1, with no problem.
// It is skipped only when make build has not run (the unit tests above
// cover registration).
func TestBuiltBinaryListsTheFourTargetsAsBuiltinTier1(t *testing.T) {
	exe := os.Getenv("LOLA_BUILT_BINARY")
	if exe == "" {
		exe = filepath.Join("..", "..", "bin", "lola")
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
	}
	if _, err := os.Stat(exe); err != nil {
		t.Skip("no " + exe + ": run make build first")
	}
	cmd := exec.Command(exe, "ext", "ls", "--json")
	cmd.Env = append(os.Environ(), "LOLA_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bin/lola ext ls --json: %v\n%s", err, stderr.Bytes())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.Bytes())
	}
	var rep struct {
		Extensions []struct {
			Name   string `json:"name"`
			Kind   string `json:"kind"`
			Tier   string `json:"tier"`
			Source string `json:"source"`
		} `json:"extensions"`
		Problems []struct{ Where, Error string } `json:"problems"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout.Bytes())
	}
	if len(rep.Problems) != 0 {
		t.Errorf("problems: %+v", rep.Problems)
	}
	got := map[string]string{}
	for _, e := range rep.Extensions {
		got[e.Name] = e.Source + "/" + e.Tier + "/" + e.Kind
	}
	for _, name := range []string{"claude-code", "copilot-cli", "copilot-vscode", "cursor", "gemini-cli", "openclaw", "opencode"} {
		if got[name] != "builtin/tier1/target" {
			t.Errorf("%s: %q, want builtin/tier1/target (all: %v)", name, got[name], got)
		}
	}
}

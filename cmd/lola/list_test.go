package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListReadsTodaysInstalledYML(t *testing.T) {
	home := t.TempDir()
	t.Setenv("LOLA_HOME", home)
	code, out, _ := runLola(t, "list")
	if code != 0 || !strings.Contains(out, "No modules installed") {
		t.Fatalf("empty list: %d %s", code, out)
	}
	today := "version: '1.0'\ninstallations:\n- module: tools\n  assistant: cursor\n  scope: project\n  project_path: /work/app\n  skills: [a, b]\n  commands: [c]\n  agents: []\n  mcps: []\n  has_instructions: true\n- module: \"evil\\e[31m\"\n  assistant: claude-code\n  scope: user\n"
	if err := os.WriteFile(filepath.Join(home, "installed.yml"), []byte(today), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runLola(t, "list")
	if code != 0 || !strings.Contains(out, "tools  cursor  project /work/app\n  skills: a, b; commands: c; instructions\n") {
		t.Errorf("list: %d\n%s", code, out)
	}
	if strings.Contains(out, "\x1b") {
		t.Error("an escape sequence from installed.yml reached the terminal")
	}
	code, out, _ = runLola(t, "list", "-a", "cursor", "--json")
	var doc struct {
		Installations []struct {
			Module, Assistant, Scope string
			ProjectPath              string   `json:"project_path"`
			Skills                   []string `json:"skills"`
			Agents                   []string `json:"agents"`
			HasInstructions          bool     `json:"has_instructions"`
		} `json:"installations"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("--json: %d %v\n%s", code, err, out)
	}
	if len(doc.Installations) != 1 || doc.Installations[0].Module != "tools" || doc.Installations[0].ProjectPath != "/work/app" ||
		doc.Installations[0].Agents == nil || !doc.Installations[0].HasInstructions {
		t.Errorf("json = %+v", doc)
	}
	if err := os.WriteFile(filepath.Join(home, "installed.yml"), []byte("installations: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runLola(t, "list"); code != exitInternal || strings.Contains(errOut, home) {
		t.Errorf("corrupt installed.yml: exit %d, %s", code, errOut)
	}
}

package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
)

// After the target extension is removed (ext rm --force), uninstall goes
// by installed.yml's record: every file lola wrote and that still holds
// what it wrote is deleted, through one audited plan; a file the user
// edited since stays (Kept), the user's own files stay, the instructions
// block lola cannot parse without the target stays and is named in a
// warning, and the record leaves installed.yml.
func TestUninstallByRecordAfterTheTargetIsGone(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule("#!/bin/bash\n", "#!/bin/bash\n"))
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"README.md": "mine\n", ".claude/commands/my.md": "my own command\n"})
	o := e.options("sample", "claude-code")
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v %+v", err, rep.Result)
	}
	files := rep.Record.Files
	if len(files) < 3 {
		t.Fatalf("the install recorded %d files", len(files))
	}
	var edited string
	for p := range files {
		edited = p
		break
	}
	if err := os.WriteFile(filepath.Join(e.project, filepath.FromSlash(edited)), []byte("my edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := extension.Remove(e.home, "claude-code"); err != nil {
		t.Fatal(err)
	}

	var warnings []string
	o.Warn = func(s string) { warnings = append(warnings, s) }
	urep, err := Uninstall(context.Background(), o)
	if err != nil || !urep.Applied() || !urep.ByRecord {
		t.Fatalf("uninstall: %v %+v", err, urep)
	}
	for p := range files {
		_, err := os.Stat(filepath.Join(e.project, filepath.FromSlash(p)))
		if p == edited && err != nil {
			t.Errorf("the edited file %s was deleted", p)
		}
		if p != edited && err == nil {
			t.Errorf("%s, which lola wrote, is still there", p)
		}
	}
	if len(urep.Kept) != 1 || urep.Kept[0].Path != edited || urep.Kept[0].Reason != KeptEdited {
		t.Errorf("kept %+v, want %s (edited)", urep.Kept, edited)
	}
	for _, f := range []string{"README.md", ".claude/commands/my.md"} {
		if _, err := os.Stat(filepath.Join(e.project, f)); err != nil {
			t.Errorf("the user's %s is gone", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, "CLAUDE.md")); !strings.Contains(string(b), "Use the alpha skill first.") {
		t.Errorf("CLAUDE.md: %q", b)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "instructions block") || !strings.Contains(warnings[0], "remove it by hand") {
		t.Errorf("warnings %q", warnings)
	}
	reg, _ := ReadRegistry(e.home)
	if len(reg.All()) != 0 {
		t.Errorf("installed.yml still records %+v", reg.All())
	}
	plans, err := audit.Read(filepath.Join(e.home, audit.FileName), audit.Filter{Kinds: []audit.Kind{audit.KindPlan}})
	if err != nil || len(plans) == 0 || plans[len(plans)-1].Plan.Extension.Name != ByRecordProposer {
		t.Fatalf("audit: %v %+v", err, plans)
	}

	// No record: still an unknown assistant.
	if _, err := Uninstall(context.Background(), o); !errors.Is(err, ErrUnknownAssistant) {
		t.Fatalf("second uninstall: %v", err)
	}
}

// A record today's Lola wrote says nothing of the files the install
// wrote: with the target gone there is nothing lola could remove by it,
// and forgetting the install would leave its files with no record to find
// them by. The uninstall is refused with what to do, the record stays and
// nothing under the project changes.
func TestUninstallByRecordRefusesARecordWithoutFiles(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", sampleModule("#!/bin/bash\n", "#!/bin/bash\n"))
	writeTree(t, e.project, map[string]string{".claude/commands/hello.md": "written by today's Lola\n"})
	installed := "version: '1.0'\ninstallations:\n  - module: sample\n    assistant: claude-code\n    scope: project\n    project_path: " + e.project + "\n    commands: [hello]\n"
	if err := os.WriteFile(filepath.Join(e.home, "installed.yml"), []byte(installed), 0o600); err != nil {
		t.Fatal(err)
	}
	o := e.options("sample", "claude-code")
	_, err := Uninstall(context.Background(), o)
	if !errors.Is(err, ErrUnknownAssistant) || !strings.Contains(err.Error(), "lola ext add") {
		t.Fatalf("uninstall by a record without files: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.project, ".claude", "commands", "hello.md")); string(b) != "written by today's Lola\n" {
		t.Errorf("the installed command changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(e.home, "installed.yml")); string(b) != installed {
		t.Errorf("installed.yml changed:\n%s", b)
	}
}

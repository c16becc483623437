package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// installed.yml written by today's Lola (with keys this version does not
// model, and the older single-string append_context) reads, and a rewrite
// keeps every key it did not touch.
func TestRegistryReadsAndRewritesTodaysShape(t *testing.T) {
	home := t.TempDir()
	today := `version: '1.0'
future_top: 1
installations:
- module: old
  assistant: cursor
  scope: project
  skills: [a]
  commands: []
  agents: []
  mcps: [old-srv]
  has_instructions: true
  project_path: /p
  version: 1.2.0
  append_context: ctx.md
  groups: []
  future_key: {kept: yes}
`
	if err := os.WriteFile(filepath.Join(home, InstalledFile), []byte(today), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := ReadRegistry(home)
	if err != nil {
		t.Fatal(err)
	}
	recs := reg.All()
	if len(recs) != 1 {
		t.Fatalf("records %+v", recs)
	}
	r := recs[0]
	if r.Module != "old" || r.ProjectPath != "/p" || !r.HasInstructions || strings.Join(r.MCPs, ",") != "old-srv" ||
		strings.Join(r.AppendContext, ",") != "ctx.md" || r.Groups == nil || len(*r.Groups) != 0 || r.Version != "1.2.0" {
		t.Errorf("record = %+v", r)
	}
	reg.Put(Record{Module: "new", Assistant: "claude-code", Scope: "user", Skills: []string{}, Commands: []string{}, Agents: []string{}, MCPs: []string{}})
	reg.Put(Record{Module: "new", Assistant: "claude-code", Scope: "user", Skills: []string{"s"}, Commands: []string{}, Agents: []string{}, MCPs: []string{}})
	if err := reg.Save(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(home, InstalledFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode after save: %v %v", st.Mode().Perm(), err)
	}
	again, err := ReadRegistry(home)
	if err != nil {
		t.Fatal(err)
	}
	all := again.All()
	if len(all) != 2 || all[1].Module != "new" || strings.Join(all[1].Skills, ",") != "s" {
		t.Fatalf("after Put twice and Save: %+v", all)
	}
	if all[0].Extra["future_key"] == nil || again.doc.Extra["future_top"] == nil {
		t.Error("an unknown key was dropped on rewrite")
	}
	b, _ := os.ReadFile(filepath.Join(home, InstalledFile))
	for _, want := range []string{`version: "1.0"`, "installations:", "- module: new", "has_instructions: false", "project_path: /p", "future_key:"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("written file lacks %q:\n%s", want, b)
		}
	}
	if strings.Count(string(b), "project_path") != 1 {
		t.Errorf("a user-scope record carries project_path:\n%s", b)
	}
	matches, _ := filepath.Glob(filepath.Join(home, ".installed.yml.*"))
	if len(matches) != 0 {
		t.Errorf("temp files left: %v", matches)
	}
	if !again.Remove(all[0]) || again.Remove(all[0]) {
		t.Error("Remove did not report the record once")
	}
}

// A file that is not installed.yml is an error, never an empty registry
// (the file is the only record of what to uninstall).
func TestRegistryRefusesACorruptFile(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, InstalledFile), []byte("installations: {not: a list}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegistry(home); err == nil {
		t.Fatal("a corrupt installed.yml read as a registry")
	} else if strings.Contains(err.Error(), home) || strings.Contains(err.Error(), "install.") {
		t.Errorf("error carries the home path or a Go type: %v", err)
	}
	// A second document is refused, not silently dropped on the next save.
	two := "installations: []\n---\ninstallations:\n- module: hidden\n"
	if err := os.WriteFile(filepath.Join(home, InstalledFile), []byte(two), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRegistry(home); err == nil || !strings.Contains(err.Error(), "more than one YAML document") {
		t.Fatalf("two documents: %v", err)
	}
	// An empty file is an empty registry, as a missing one is.
	if err := os.WriteFile(filepath.Join(home, InstalledFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if reg, err := ReadRegistry(home); err != nil || len(reg.All()) != 0 {
		t.Fatalf("empty file: %v", err)
	}
}

// Concurrent updates (each its own lock file description, as separate lola
// processes have) never lose a record.
func TestUpdateRegistrySerialisesConcurrentWriters(t *testing.T) {
	home := t.TempDir()
	const n = 16
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			errs <- UpdateRegistry(home, func(r *Registry) error {
				r.Put(Record{Module: fmt.Sprintf("m%02d", i), Assistant: "cursor", Scope: "user"})
				return nil
			})
		}(i)
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	reg, err := ReadRegistry(home)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(reg.All()); got != n {
		t.Fatalf("%d records after %d concurrent updates", got, n)
	}
	// An fn that fails leaves the file as it was.
	before, _ := os.ReadFile(filepath.Join(home, InstalledFile))
	if err := UpdateRegistry(home, func(r *Registry) error { r.Put(Record{Module: "x"}); return os.ErrInvalid }); err == nil {
		t.Fatal("the fn's error was lost")
	}
	if after, _ := os.ReadFile(filepath.Join(home, InstalledFile)); string(after) != string(before) {
		t.Error("a failed update was saved")
	}
}

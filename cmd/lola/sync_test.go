package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSyncNoFile(t *testing.T) {
	modTestHome(t)
	t.Chdir(t.TempDir())
	if code, out, errOut := runLola(t, "sync"); code != exitInternal || !strings.Contains(out+errOut, "Config file not found") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
}

// sync installs what .lola-req lists, skips what is there, a dry run
// changes nothing, and a bad line, or a line that fails, is named with
// its number while every other line still syncs.
func TestSyncCLI(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	req := filepath.Join(w.project, ".lola-req")
	write := func(s string) {
		if err := os.WriteFile(req, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# modules\nsample#assistant=fake\n")
	if code, out, errOut := runLola(t, "sync", w.project, "--dry-run"); code != exitOK || !strings.Contains(out, "would install sample (fake)") {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	if got := projectEntries(t, w.project); len(got) != 1 {
		t.Fatalf("a dry run changed the project: %v", got)
	}
	hookRan := func(h string) bool { _, err := os.Stat(w.hookOut + "." + h); return err == nil }
	if hookRan("pre-install") || hookRan("post-install") {
		t.Fatal("a dry run ran the module's lola.yaml hooks")
	}
	if code, out, errOut := runLola(t, "sync", w.project); code != exitOK || !strings.Contains(out, "installed sample (fake)") || !strings.Contains(out, "1 installed") {
		t.Fatalf("sync: %d %s %s", code, out, errOut)
	}
	// As today's Lola's sync does, each install runs the module's own
	// lola.yaml hooks.
	if !hookRan("pre-install") || !hookRan("post-install") {
		t.Fatal("sync did not run the module's lola.yaml hooks")
	}
	if code, out, _ := runLola(t, "sync", w.project); code != exitOK || !strings.Contains(out, "0 installed, 1 already installed") {
		t.Fatalf("second sync: %d %s", code, out)
	}
	write("sample\nbroken>=x\n")
	if code, _, errOut := runLola(t, "sync", w.project, "-a", "fake"); code != exitUsage || !strings.Contains(errOut, "skipped: requirements file refused: line 2:") {
		t.Fatalf("bad line: %d %s", code, errOut)
	}

	other := filepath.Join(t.TempDir(), "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "lola.txt"), []byte("nonexistent\nbroken>=x\nsample\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "sync", other, "--file", "lola.txt", "-a", "fake")
	if code != exitUsage || !strings.Contains(errOut, "not synced: line 1 (nonexistent)") || !strings.Contains(errOut, "module nonexistent not found") ||
		!strings.Contains(errOut, "skipped: requirements file refused: line 2:") || !strings.Contains(out, "1 installed, 0 already installed, 0 would install, 2 failed") {
		t.Fatalf("sync with a missing module and a bad line: %d\n%s\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(other, ".claude/skills/alpha/SKILL.md")); err != nil || string(b) != "# Alpha\n" {
		t.Fatalf("the line after the failures was not synced: %q %v", b, err)
	}
	if strings.Contains(errOut, "the run stopped") {
		t.Errorf("the sync says it stopped:\n%s", errOut)
	}
}

// A version the catalog does not offer stops the sync before anything is
// fetched.
func TestSyncVersionFromCatalog(t *testing.T) {
	home := modTestHome(t)
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	if err := os.WriteFile(cat, []byte(marketTestCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatal(errOut)
	}
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("@community/git-tools^2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "sync", project, "-a", "claude-code")
	if code != exitInternal || !strings.Contains(errOut, "no version matching ^2.0 (the catalog offers 1.0.0)") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Fatalf("fetched %v", es)
	}
}

// A module a catalog lists gets the catalog's version recorded in
// installed.yml; a later sync whose line admits it skips the install.
func TestSyncRecordsCatalogVersion(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	body := "name: t\nversion: '1'\nmodules:\n  - name: sample\n    description: d\n    version: 1.2.0\n    repository: https://example.com/sample.git\n"
	if err := os.WriteFile(cat, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatal(errOut)
	}
	req := filepath.Join(w.project, ".lola-req")
	if err := os.WriteFile(req, []byte("sample~1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runLola(t, "sync", w.project, "-a", "fake"); code != exitOK || !strings.Contains(out, "installed sample (fake) 1.2.0") {
		t.Fatalf("sync: %d %s %s", code, out, errOut)
	}
	if !strings.Contains(readFileOr(filepath.Join(w.home, "installed.yml")), "version: 1.2.0") {
		t.Fatal("installed.yml does not record the version")
	}
	if code, out, _ := runLola(t, "sync", w.project, "-a", "fake"); code != exitOK || !strings.Contains(out, "0 installed, 1 already installed") {
		t.Fatalf("second sync: %d %s", code, out)
	}
}

// Issue 28 item 5: an @MARKET/NAME line whose NAME the store already
// holds from another source is refused as `lola install @MARKET/NAME`
// refuses it: the catalog's hooks never run on that module and its
// version is not recorded; nothing is installed.
func TestSyncMarketLineRefusesAStoreModuleFromAnotherSource(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	body := "name: t\nversion: '1'\nmodules:\n  - name: sample\n    description: d\n    version: 9.9.9\n    repository: https://example.com/sample.git\n    hooks:\n      post-install: scripts/post.sh\n"
	if err := os.WriteFile(cat, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatal(errOut)
	}
	if err := os.WriteFile(filepath.Join(w.project, ".lola-req"), []byte("@community/sample\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "sync", w.project, "-a", "fake")
	if code == exitOK || !strings.Contains(out+errOut, "from another source") {
		t.Fatalf("sync: %d %s %s", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(w.home, "installed.yml")); err == nil && strings.Contains(string(b), "sample") {
		t.Fatalf("installed.yml records the install:\n%s", b)
	}
	if es, _ := os.ReadDir(w.project); len(es) != 1 {
		t.Fatalf("the project changed: %v", es)
	}
	if _, err := os.Stat(w.hookOut + ".post-install"); err == nil {
		t.Fatal("a hook ran")
	}
}

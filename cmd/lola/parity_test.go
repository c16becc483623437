package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/extension"
)

// Tests of today's Lola's command line that the other files do not cover;
// docs/upstream-cli-parity.md names each.

// mod info takes a path too, as today's Lola's MODULE_NAME_OR_PATH does:
// "." and anything with a '/' is a folder, read in place (nothing is
// added to the store); a bare name is the store's module.
func TestModInfoPath(t *testing.T) {
	home := modTestHome(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "local-mod")
	modWriteFiles(t, src, map[string]string{
		"module/skills/one/SKILL.md": "---\ndescription: the one skill\n---\n",
		"module/commands/go.md":      "---\ndescription: go\n---\n",
	})
	t.Chdir(dir)
	for _, arg := range []string{"./local-mod", src} {
		code, out, errs := runModCLI(t, "info", arg)
		if code != exitOK || !strings.Contains(out, "local-mod") || !strings.Contains(out, "the one skill") || !strings.Contains(out, "/go") {
			t.Errorf("mod info %s: %d %q %q", arg, code, out, errs)
		}
	}
	t.Chdir(src)
	if code, out, errs := runModCLI(t, "info", "."); code != exitOK || !strings.Contains(out, "local-mod") || !strings.Contains(out, "one") {
		t.Errorf("mod info .: %d %q %q", code, out, errs)
	}
	if code, _, errs := runModCLI(t, "info", "./absent"); code != exitInternal || !strings.Contains(errs, "Path not found") {
		t.Errorf("mod info ./absent: %d %q", code, errs)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runModCLI(t, "info", empty); code != exitOK || !strings.Contains(out+errs, "No skills or commands found") {
		t.Errorf("mod info of an empty folder: %d %q %q", code, out, errs)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Errorf("mod info PATH added to the store: %v", es)
	}
}

// mod info of a stored module names where it came from, as today's Lola's
// "Source" section does.
func TestModInfoShowsSource(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "sourced")
	modWriteFiles(t, src, map[string]string{"skills/one/SKILL.md": "---\ndescription: one\n---\n"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	code, out, errs := runModCLI(t, "info", "sourced")
	if code != exitOK || !strings.Contains(out, "Source") || !strings.Contains(out, "folder") || !strings.Contains(out, src) {
		t.Fatalf("%d %q %q", code, out, errs)
	}
}

// search: --mod and --market together is a usage error; the store is
// searched by module, skill, command and agent names (today's Lola); mod
// search says on stderr that it is the old spelling.
func TestSearchParity(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "toolbox")
	modWriteFiles(t, src, map[string]string{
		"skills/alpha/SKILL.md": "---\ndescription: a\n---\n",
		"commands/deploy.md":    "---\ndescription: d\n---\n",
		"agents/reviewer.md":    "---\ndescription: r\n---\n",
	})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	if code, out, errs := runLola(t, "search", "x", "--mod", "--market"); code != exitUsage || !strings.Contains(errs, "mutually exclusive") {
		t.Errorf("--mod --market: %d %q %q", code, out, errs)
	}
	for _, q := range []string{"deploy", "REVIEW", "alpha", "toolbox"} {
		if code, out, errs := runLola(t, "search", q, "--mod"); code != exitOK || !strings.Contains(out, "toolbox") {
			t.Errorf("search %s --mod: %d %q %q", q, code, out, errs)
		}
	}
	if code, out, errs := runLola(t, "mod", "search", "deploy"); code != exitOK || !strings.Contains(out, "toolbox") || !strings.Contains(errs, "deprecated") || strings.Contains(out, "deprecated") {
		t.Errorf("mod search: %d %q %q", code, out, errs)
	}
	if code, out, _ := runLola(t, "search", "nothing-like-it", "--mod"); code != exitOK || !strings.Contains(out, "No modules found matching 'nothing-like-it'") {
		t.Errorf("no match: %d %q", code, out)
	}
}

// market update NAME --all is a usage error (today's Lola refuses it too).
func TestMarketUpdateNameAndAll(t *testing.T) {
	modTestHome(t)
	if code, out, errs := runLola(t, "market", "update", "community", "--all"); code != exitUsage || !strings.Contains(errs, "NAME and --all") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
}

// -a names an assistant target: one lola does not know is a usage error
// (exit 2) on every command that takes it, before anything else is looked
// at, as today's Lola's choice check is.
func TestUnknownAssistantIsUsage(t *testing.T) {
	modTestHome(t)
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list", "-a", "bogus"},
		{"update", "-a", "bogus"},
		{"install", "nonexistent", "-a", "bogus", project},
		{"uninstall", "nonexistent", "-a", "bogus", project},
		{"sync", project, "-a", "bogus"},
	} {
		if code, out, errs := runLola(t, args...); code != exitUsage || !strings.Contains(errs, "Invalid value for '-a'") {
			t.Errorf("%v: %d %q %q", args, code, out, errs)
		}
	}
}

// The assistants -a admits without their files (extension.ShippedTargets)
// are exactly the built-in targets make build ships.
func TestShippedTargetsAreTheBuiltins(t *testing.T) {
	_, names := builtLola(t)
	if strings.Join(names, " ") != strings.Join(extension.ShippedTargets, " ") {
		t.Fatalf("bin/builtin holds %v; extension.ShippedTargets says %v", names, extension.ShippedTargets)
	}
}

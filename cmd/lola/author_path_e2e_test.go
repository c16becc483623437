package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/schema"
)

// The author path of a native (tier-2) Go extension from a clean
// $LOLA_HOME, every step through the CLI: ext new -> ext build -> ext sign
// -> ext add (the key trusted in config.yaml) -> install a module with it
// -> change the source, rebuild: an update of the unsigned rebuild is
// refused and the installed version keeps working; the rebuild copied
// over the installed artifact is refused (extension.changed, exit 4,
// audited, before any hook) -> re-sign -> ext update -> install again
// shows the new output.
func TestAuthorPathNewBuildSignAddInstallUpdate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the module's hooks are bash scripts")
	}
	base := t.TempDir()
	home, project := filepath.Join(base, "home"), filepath.Join(base, "project")
	t.Setenv("LOLA_HOME", home)
	os.MkdirAll(project, 0o755)
	dir := filepath.Join(base, "hello")
	lola := func(args ...string) (int, string, string) {
		t.Helper()
		return extCLI(t, args...)
	}
	must := func(what string, args ...string) string {
		t.Helper()
		code, out, errOut := lola(args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", what, code, out, errOut)
		}
		return out
	}

	must("ext new", "ext", "new", "--lang", "go", "--sdk-go", extTestSDKGoDir(t), "hello", dir)
	must("ext build", "ext", "build", "--tier", "2", dir)
	artifact := filepath.Join(dir, "dist", "hello")

	keyFile, pub := authorKey(t, base)
	os.MkdirAll(filepath.Join(home, "keys"), 0o755)
	os.WriteFile(filepath.Join(home, "keys", "author.pub"), pub, 0o644)
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("trust:\n  keys: [{name: author, file: keys/author.pub}]\n"), 0o644)

	must("ext sign", "ext", "sign", "--key", keyFile, artifact)
	if out := must("ext add", "ext", "add", dir); !strings.Contains(out, "signed by key author") {
		t.Fatalf("ext add: %s", out)
	}

	mod := filepath.Join(base, "greeting")
	modWriteFiles(t, mod, map[string]string{
		"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha\n---\n# Alpha\n",
		"lola.yaml":             "hooks:\n  pre-install: pre.sh\n",
		"pre.sh":                "#!/bin/bash\necho pre-install ran\n",
	})
	must("mod add", "mod", "add", mod)
	out := must("install v1", "install", "greeting", "-a", "hello", project)
	if !strings.Contains(out, "pre-install hook pre.sh: native, unsigned (runs unconfined as you); ok") {
		t.Errorf("install does not report the hook as native and unsigned:\n%s", out)
	}
	v1 := filepath.Join(project, "hello", "greeting", "skills", "alpha", "SKILL.md")
	if b, err := os.ReadFile(v1); err != nil || !strings.Contains(string(b), "# Alpha") {
		t.Fatalf("v1 output: %q %v", b, err)
	}

	// Version 2 writes under hello/v2-<module>.
	src := filepath.Join(dir, "main.go")
	b, _ := os.ReadFile(src)
	v2src := strings.Replace(string(b), `dir := "hello/" + m.Name`, `dir := "hello/v2-" + m.Name`, 1)
	if v2src == string(b) {
		t.Fatal("the scaffold's main.go changed shape; update this test")
	}
	os.WriteFile(src, []byte(v2src), 0o644)
	must("rebuild", "ext", "build", "--tier", "2", dir)
	installed := filepath.Join(home, "extensions", "hello")
	before := extTreeSnapshot(t, installed)
	lockBefore, _ := os.ReadFile(filepath.Join(home, "extensions.lock"))

	// The old bundle does not vouch for the rebuild: update refused.
	code, _, errOut := lola("ext", "update", "hello")
	if code != exitUsage || !strings.Contains(errOut, "not signed by a trusted key") {
		t.Fatalf("update of the unsigned rebuild: %d %s", code, errOut)
	}
	lockAfter, _ := os.ReadFile(filepath.Join(home, "extensions.lock"))
	if string(lockAfter) != string(lockBefore) || len(extTreeSnapshot(t, installed)) != len(before) {
		t.Fatal("a refused update changed the installed extension or its pin")
	}

	// The rebuild copied over the installed artifact, not updated.
	rebuilt, _ := os.ReadFile(artifact)
	instArt := filepath.Join(installed, "dist", "hello")
	pinned, _ := os.ReadFile(instArt)
	os.WriteFile(instArt, rebuilt, 0o755)
	code, out, errOut = lola("install", "greeting", "-a", "hello", project)
	if code != exitExtension || !strings.Contains(errOut, "extension.changed") {
		t.Fatalf("install of a rebuilt, not updated artifact: %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "pre-install ran") {
		t.Errorf("the hook ran before the changed target was refused:\n%s", out)
	}
	entries, err := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if last := entries[len(entries)-1]; last.Rejected == nil || last.Rejected.Violations[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("audit tail %+v", last)
	}
	if _, err := os.Stat(filepath.Join(project, "hello", "v2-greeting")); err == nil {
		t.Fatal("the changed artifact ran")
	}
	if code, _, errOut := lola("ext", "run", "--root", t.TempDir(), "hello"); code != exitExtension || !strings.Contains(errOut, "extension.changed") {
		t.Fatalf("ext run of the changed artifact: %d %s", code, errOut)
	}
	os.WriteFile(instArt, pinned, 0o755)

	must("re-sign", "ext", "sign", "--key", keyFile, artifact)
	if out := must("ext update", "ext", "update", "hello"); !strings.Contains(out, "signed by key author") {
		t.Fatalf("ext update: %s", out)
	}
	must("install v2", "install", "greeting", "-a", "hello", project)
	if b, err := os.ReadFile(filepath.Join(project, "hello", "v2-greeting", "skills", "alpha", "SKILL.md")); err != nil || !strings.Contains(string(b), "# Alpha") {
		t.Fatalf("v2 output: %q %v", b, err)
	}
}

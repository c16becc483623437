package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/install"
)

// lifecycleTarget writes a native target extension that installs two
// files under out/ and deletes them on uninstall.
func lifecycleTarget(t *testing.T, src, out string) {
	t.Helper()
	script := `#!/bin/sh
req=$(cat)
case "$req" in
*'"operation":"uninstall"'*) printf '{"protocol":1,"intents":[{"op":"delete","path":"OUT/a.md"},{"op":"delete","path":"OUT/b.md"}]}' ;;
*) printf '{"protocol":1,"intents":[{"op":"write","path":"OUT/a.md","content":"A\\n"},{"op":"write","path":"OUT/b.md","content":"B\\n"}]}' ;;
esac
`
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml": "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/demo\npaths: [demo/, demo2/]\n",
	})
	os.MkdirAll(filepath.Join(src, "dist"), 0o755)
	if err := os.WriteFile(filepath.Join(src, "dist", "demo"), []byte(strings.ReplaceAll(script, "OUT", out)), 0o755); err != nil {
		t.Fatal(err)
	}
}

// The lifecycle of a target that installs use: ext rm refuses (exit 2,
// naming each install and how to uninstall it) and removes nothing; ext
// update to a version that writes elsewhere reinstalls them, removing
// what the old version wrote and keeping the file the user edited; ext rm
// --force removes it, and uninstall then works by installed.yml's record:
// the files lola wrote go, the edited one stays, the record goes.
func TestExtRmAndUpdateOfATargetInstallsUse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	project := filepath.Join(work, "project")
	os.MkdirAll(project, 0o755)
	src := filepath.Join(work, "demo")
	lifecycleTarget(t, src, "demo")
	lola := func(args ...string) (int, string, string) { t.Helper(); return extLsLola(t, home, args...) }
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := lola(args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		return out + errOut
	}
	must("ext", "add", "--allow-unsigned", src)
	mod := filepath.Join(work, "notes")
	modWriteFiles(t, mod, map[string]string{"skills/n/SKILL.md": "---\nname: n\ndescription: N\n---\n# N\n"})
	must("mod", "add", mod)
	must("install", "notes", "-a", "demo", project)
	for _, f := range []string{"demo/a.md", "demo/b.md"} {
		if _, err := os.Stat(filepath.Join(project, f)); err != nil {
			t.Fatalf("install did not write %s", f)
		}
	}

	code, _, errOut := lola("ext", "rm", "demo")
	if code != exitUsage || !strings.Contains(errOut, "1 install(s) use demo") || !strings.Contains(errOut, "lola uninstall notes -a demo "+project) {
		t.Fatalf("ext rm with an install: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "extensions", "demo")); err != nil {
		t.Fatal("a refused ext rm removed the extension")
	}

	// The user edits one installed file; version 2 writes under demo2/.
	os.WriteFile(filepath.Join(project, "demo", "b.md"), []byte("my notes\n"), 0o644)
	lifecycleTarget(t, src, "demo2")
	out := must("ext", "update", "--allow-unsigned", "demo")
	if !strings.Contains(out, "- demo/a.md (no longer written by the new demo)") || !strings.Contains(out, "demo/b.md is no longer written by the new demo but changed since lola wrote it; kept") {
		t.Fatalf("ext update output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(project, "demo", "a.md")); err == nil {
		t.Fatal("the old version's file stayed")
	}
	if b, _ := os.ReadFile(filepath.Join(project, "demo", "b.md")); string(b) != "my notes\n" {
		t.Fatalf("the user's edit was lost: %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, "demo2", "b.md")); err != nil {
		t.Fatal("the new version's output is missing")
	}

	out = must("ext", "rm", "--force", "demo")
	if !strings.Contains(out, "removed demo") || !strings.Contains(out, "lola uninstall notes -a demo "+project) {
		t.Fatalf("ext rm --force:\n%s", out)
	}
	out = must("uninstall", "notes", "-a", "demo", project)
	if !strings.Contains(out, "by installed.yml's record") {
		t.Fatalf("uninstall after a forced ext rm:\n%s", out)
	}
	for f, want := range map[string]bool{"demo2/a.md": false, "demo2/b.md": false, "demo2": false, "demo/b.md": true} {
		if _, err := os.Stat(filepath.Join(project, filepath.FromSlash(f))); (err == nil) != want {
			t.Errorf("%s present: %v, want %v", f, err == nil, want)
		}
	}
	reg, err := install.ReadRegistry(home)
	if err != nil || len(reg.All()) != 0 {
		t.Fatalf("installed.yml after uninstall: %v %+v", err, reg.All())
	}
}

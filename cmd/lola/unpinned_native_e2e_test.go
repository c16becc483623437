package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A native (tier-2) extension copied by hand into $LOLA_HOME/extensions,
// never added with lola ext add, is refused before it runs, with exit 4
// ("extension failed or hit a limit, nothing applied"), by lola install
// (and uninstall) as by lola ext run: nothing pins or vouches for it. The
// script would leave a mark if it ran; nothing is written in the project.
func TestUnpinnedNativeTargetIsExit4Everywhere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the native fixture is a shell script")
	}
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project, mark := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "ran")
	env := []string{"LOLA_HOME=" + home}
	ext := filepath.Join(home, "extensions", "handmade")
	modWriteFiles(t, ext, map[string]string{
		"lola-extension.yaml": "name: handmade\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/handmade\npaths: [\".claude/\"]\n",
	})
	script := "#!/bin/sh\ntouch '" + mark + "'\necho '{\"protocol\":1,\"intents\":[{\"op\":\"write\",\"path\":\".claude/x\",\"content\":\"x\"}]}'\n"
	if err := os.MkdirAll(filepath.Join(ext, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ext, "dist", "handmade"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(base, "sample")
	modWriteFiles(t, src, map[string]string{"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha\n---\n# Alpha\n"})
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != exitOK {
		t.Fatalf("mod add: %d %s", r.code, r.err)
	}
	for name, args := range map[string][]string{
		"install": {"install", "sample", "-a", "handmade", project},
		"ext run": {"ext", "run", "--root", project, "handmade"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runBuilt(t, exe, env, args...)
			if r.code != exitExtension || !strings.Contains(r.err, "not added with lola ext add") {
				t.Errorf("exit %d, want %d (refused before it ran):\n%s%s", r.code, exitExtension, r.out, r.err)
			}
			if _, err := os.Stat(mark); err == nil {
				t.Fatal("the unpinned native extension ran")
			}
			if ents, _ := os.ReadDir(project); len(ents) != 0 {
				t.Fatalf("the project was written: %v", ents)
			}
		})
	}
}

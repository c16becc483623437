package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/extension"
)

// Through the built binary, with its built-ins: ext add and ext link of
// an extension named as a built-in are refused (exit 2, the built-in
// named) and install nothing; an installed copy of that name left by an
// older lola does not make ext ls fail: it lists everything, exits 0 and
// warns how to remove the unused copy, which ext rm then does.
func TestExtAddRefusesABuiltinNameAndLsStaysUsable(t *testing.T) {
	exe, names := builtLola(t)
	if len(names) == 0 {
		t.Skip("no built-ins beside " + exe)
	}
	name := names[0]
	home, work := t.TempDir(), t.TempDir()
	env := []string{"LOLA_HOME=" + home}
	src := filepath.Join(work, name)
	modWriteFiles(t, src, map[string]string{
		"lola-extension.yaml": "name: " + name + "\nversion: 9.0.0\nkind: target\nartifacts:\n  tier1: dist/m.wasm\npaths: [" + name + "-x/]\n",
		"dist/m.wasm":         "\x00asm\x01\x00\x00\x00",
	})
	for _, verb := range []string{"add", "link"} {
		r := runBuilt(t, exe, env, "ext", verb, src)
		if r.code != exitUsage || !strings.Contains(r.err, `"`+name+`" is the name of a built-in extension`) {
			t.Fatalf("ext %s of a built-in's name: %+v", verb, r)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "extensions", name)); err == nil {
		t.Fatal("the built-in's namesake was installed")
	}
	if lock, _ := extension.ReadLock(home); len(lock.Extensions) != 0 {
		t.Fatalf("pinned: %v", lock.Extensions)
	}

	// What an older lola left: the copy installed and pinned.
	dst := filepath.Join(home, "extensions", name)
	os.MkdirAll(filepath.Join(dst, "dist"), 0o755)
	for _, f := range []string{"lola-extension.yaml", "dist/m.wasm"} {
		b, _ := os.ReadFile(filepath.Join(src, filepath.FromSlash(f)))
		os.WriteFile(filepath.Join(dst, filepath.FromSlash(f)), b, 0o644)
	}
	if _, err := extension.Adopt(home, name, extension.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	r := runBuilt(t, exe, env, "ext", "ls")
	if r.code != exitOK || !strings.Contains(r.out, name) || !strings.Contains(r.err, "warning") || !strings.Contains(r.err, "lola ext rm "+name) {
		t.Fatalf("ext ls with a shadowed copy: %+v", r)
	}
	if r := runBuilt(t, exe, env, "ext", "rm", name); r.code != exitOK {
		t.Fatalf("ext rm: %+v", r)
	}
	if r := runBuilt(t, exe, env, "ext", "ls"); r.code != exitOK || r.err != "" {
		t.Fatalf("ext ls after rm: %+v", r)
	}
}

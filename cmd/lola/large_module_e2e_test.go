package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/largemodule"
)

// TestEndToEndLargeModuleOnEveryTarget runs the real bin/lola (make build):
// a module of the size of real skill collections and more
// (largemodule.Default: 500 files, 20 MiB, 17 skills with frontmatter,
// nested schemas, binaries, executable scripts) installs with every
// built-in target, and every file of every skill lands somewhere under the
// project with its bytes and its execute bit (SKILL.md with its body: a
// target may rewrite its frontmatter). Before the fix gemini-cli
// ran past the shim's clock and then its memory ceiling, and said only
// "exit-non-zero".
func TestEndToEndLargeModuleOnEveryTarget(t *testing.T) {
	exe, names := builtLola(t)
	if len(names) < 7 {
		t.Fatalf("built-in targets %v: want the seven assistants", names)
	}
	base := t.TempDir()
	src := filepath.Join(base, "big")
	files, err := largemodule.Write(src, largemodule.Default)
	if err != nil {
		t.Fatal(err)
	}
	w := e2eWorld{base: base, home: filepath.Join(base, "home"), lolaHome: filepath.Join(base, "lolahome"), cwd: filepath.Join(base, "cwd")}
	for _, d := range []string{w.home, w.cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r := runBuiltIn(t, exe, w.env(), w.cwd, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	for _, assistant := range names {
		t.Run(assistant, func(t *testing.T) {
			project := filepath.Join(base, "project-"+assistant)
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			// openclaw's root is its workspace (--workspace), others' the project.
			r := runBuiltIn(t, exe, w.env(), w.cwd, atProject([]string{"install", "big", "-a", assistant}, project)...)
			if r.code != 0 {
				t.Fatalf("install -a %s: exit %d\n%s\n%s", assistant, r.code, r.out, r.err)
			}
			installed := map[string]string{} // "<skill>/<rel>" -> the installed path
			err := filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(project, p)
				parts := strings.Split(filepath.ToSlash(rel), "/")
				for i, part := range parts {
					if strings.HasPrefix(part, "skill-") {
						installed[strings.Join(parts[i:], "/")] = p
						break
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				key := strings.TrimPrefix(f.Path, "skills/")
				p, ok := installed[key]
				if !ok {
					t.Fatalf("%s was not installed", f.Path)
				}
				want, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f.Path)))
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(f.Path, "/SKILL.md") {
					// A target may rewrite SKILL.md (Copilot's reduce its
					// frontmatter); its body stays.
					skill := strings.Split(f.Path, "/")[1]
					if !bytes.Contains(got, []byte("# "+skill+" guide")) {
						t.Fatalf("%s: the installed SKILL.md lost its body:\n%.300s", f.Path, got)
					}
					continue
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: installed %d bytes (sha256 %x), the module's %d", f.Path, len(got), sha256.Sum256(got), len(want))
				}
				if runtime.GOOS != "windows" && f.Executable {
					if st, err := os.Stat(p); err != nil || st.Mode()&0o111 == 0 {
						t.Errorf("%s is not executable once installed", f.Path)
					}
				}
			}
		})
	}
}

//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Issue 27: installed files keep their source's permission bits, as
// today's Lola's copies do. A folder module whose skill holds a 0664 note
// and a 0750 script is installed for every built-in assistant (targets in
// Go, Rust and AssemblyScript, each through its SDK's copy helper): every
// copy of the note is 0664 and every copy of the script 0750, whatever
// lola's umask; and no file the install wrote is group or other writable
// beyond the note.
func TestEndToEndInstalledFilesKeepTheSourcesMode(t *testing.T) {
	exe, names := builtLola(t)
	base := t.TempDir()
	home, user, src := filepath.Join(base, "home"), filepath.Join(base, "user"), filepath.Join(base, "kit")
	modWriteFiles(t, src, map[string]string{
		"skills/s1/SKILL.md":      "---\nname: s1\ndescription: One\n---\nbody\n",
		"skills/s1/team-notes.md": "shared notes\n",
		"skills/s1/tool.sh":       "#!/bin/sh\necho hi\n",
	})
	for p, m := range map[string]fs.FileMode{"skills/s1/team-notes.md": 0o664, "skills/s1/tool.sh": 0o750} {
		if err := os.Chmod(filepath.Join(src, p), m); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"LOLA_HOME=" + home, "HOME=" + user, "USERPROFILE=" + user, "XDG_CONFIG_HOME="}
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			project := filepath.Join(base, "p-"+name)
			if err := os.MkdirAll(project, 0o755); err != nil {
				t.Fatal(err)
			}
			if r := runBuilt(t, exe, env, atProject([]string{"install", "kit", "-a", name}, project)...); r.code != 0 {
				t.Fatalf("install: %+v", r)
			}
			found := map[string]int{}
			filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				fi, err := d.Info()
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(project, p)
				switch d.Name() {
				case "team-notes.md":
					found["note"]++
					if fi.Mode().Perm() != 0o664 {
						t.Errorf("%s is %v, want 0664 (the source's)", rel, fi.Mode())
					}
				case "tool.sh":
					found["script"]++
					if fi.Mode().Perm() != 0o750 {
						t.Errorf("%s is %v, want 0750 (the source's)", rel, fi.Mode())
					}
				default:
					if fi.Mode().Perm()&0o022 != 0 {
						t.Errorf("%s is %v: group or other writable", rel, fi.Mode())
					}
				}
				return nil
			})
			if found["note"] == 0 || found["script"] == 0 {
				t.Errorf("no copy of the skill's files found: %v", found)
			}
		})
	}
}

package largemodule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Write makes exactly the files and bytes asked for, text valid UTF-8 and
// binaries not, SKILL.md with frontmatter in every skill, some files
// executable, nested several folders deep; twice the same bytes.
func TestWriteShape(t *testing.T) {
	s := Spec{Files: 120, Bytes: 2 << 20}
	dir := t.TempDir()
	files, err := Write(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != s.Files {
		t.Fatalf("%d files, want %d", len(files), s.Files)
	}
	var total int64
	var binaries, executables, deep, skillMDs int
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != f.Size || f.Size > MaxFileBytes {
			t.Fatalf("%s: %d bytes, listed %d", f.Path, len(b), f.Size)
		}
		total += f.Size
		if utf8.Valid(b) == f.Binary {
			t.Fatalf("%s: binary %v but utf8.Valid %v", f.Path, f.Binary, utf8.Valid(b))
		}
		if f.Binary {
			binaries++
		}
		if f.Executable {
			executables++
		}
		if strings.Count(f.Path, "/") >= 6 {
			deep++
		}
		if strings.HasSuffix(f.Path, "/SKILL.md") {
			skillMDs++
			name := strings.Split(f.Path, "/")[1]
			if !strings.HasPrefix(string(b), "---\nname: "+name+"\ndescription: ") {
				t.Fatalf("%s: no frontmatter: %.60q", f.Path, b)
			}
			// Valid YAML: a plain scalar holds no ": " (a target that
			// reads the description would skip the skill).
			desc, _, _ := strings.Cut(strings.SplitN(string(b), "\ndescription: ", 2)[1], "\n")
			if strings.Contains(desc, ": ") || strings.Contains(desc, " #") {
				t.Fatalf("%s: description is not a YAML plain scalar: %q", f.Path, desc)
			}
		}
	}
	if total != s.Bytes {
		t.Fatalf("%d bytes, want %d", total, s.Bytes)
	}
	if skillMDs != Skills || binaries == 0 || executables == 0 || deep == 0 {
		t.Fatalf("%d SKILL.md, %d binaries, %d executables, %d nested 6 deep", skillMDs, binaries, executables, deep)
	}
	again := t.TempDir()
	if _, err := Write(again, s); err != nil {
		t.Fatal(err)
	}
	for _, f := range files[:10] {
		a, _ := os.ReadFile(filepath.Join(dir, f.Path))
		b, _ := os.ReadFile(filepath.Join(again, f.Path))
		if string(a) != string(b) {
			t.Fatalf("%s differs between two writes", f.Path)
		}
	}
}

// The default spec is writable: 500 files, 20 MiB, none over the cap.
func TestDefaultLayout(t *testing.T) {
	plan, err := layout(Default)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, p := range plan {
		total += p.Size
	}
	if len(plan) != 500 || total != 20<<20 {
		t.Fatalf("%d files, %d bytes", len(plan), total)
	}
}

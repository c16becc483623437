package module

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// benchEntries is a module of 200 files of 4 KiB: a large skills bundle.
func benchEntries() []entry {
	var es []entry
	body := strings.Repeat("skill text line\n", 256)
	for i := range 200 {
		es = append(es, file("skills/s"+strconv.Itoa(i/10)+"/f"+strconv.Itoa(i)+".md", body))
	}
	for i := range 20 {
		es = append(es, file("skills/s"+strconv.Itoa(i)+"/SKILL.md", "---\ndescription: d\n---\n"))
	}
	return es
}

func BenchmarkReadFiles(b *testing.B) {
	root := b.TempDir()
	writeTree(b, root, benchEntries())
	bounds := DefaultBounds()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadFiles(root, bounds); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAddTarGz(b *testing.B) {
	path := filepath.Join(b.TempDir(), "m.tar.gz")
	writeTar(b, path, true, benchEntries())
	home := b.TempDir()
	s, err := OpenStore(home)
	if err != nil {
		b.Fatal(err)
	}
	src, err := ParseSource(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Add(context.Background(), src, AddOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNamespace(b *testing.B) {
	es := benchEntries()
	b.ReportAllocs()
	for b.Loop() {
		ns := newNamespace()
		for _, e := range es {
			p, err := parseEntry(e.name, DefaultBounds())
			if err != nil {
				b.Fatal(err)
			}
			if err := ns.add(p, false); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAddFolder: `mod add FOLDER` of the 220-file module, read with
// fsroot's descriptor discipline (openat2 per directory, an Lstat and an
// openat2 per file).
func BenchmarkAddFolder(b *testing.B) {
	root := filepath.Join(b.TempDir(), "m")
	writeTree(b, root, benchEntries())
	s, err := OpenStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	src, err := ParseSource(root)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Add(context.Background(), src, AddOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
}

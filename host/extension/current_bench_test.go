package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCurrentFiles: reading two managed files of 64 KiB (one nested
// one level) and one absent, as a run of a target does before each request.
func BenchmarkCurrentFiles(b *testing.B) {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestFile), []byte("name: x\nversion: 1\nkind: target\nartifacts: {tier1: a.wasm}\npaths: [d/, CLAUDE.md, AGENTS.md]\nmanaged: [CLAUDE.md, d/AGENTS.md, AGENTS.md]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.wasm"), []byte("w"), 0o644)
	e, err := Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	body := strings.Repeat("user text line\n", 64<<10/15)
	os.WriteFile(filepath.Join(root, "CLAUDE.md"), []byte(body), 0o644)
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	os.WriteFile(filepath.Join(root, "d", "AGENTS.md"), []byte(body), 0o644)
	b.SetBytes(int64(2 * len(body)))
	b.ReportAllocs()
	for b.Loop() {
		fs, err := e.CurrentFiles(root)
		if err != nil || len(fs) != 2 {
			b.Fatal(err, len(fs))
		}
	}
}

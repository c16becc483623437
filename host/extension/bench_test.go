package extension

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func BenchmarkParseManifest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseManifest(strings.NewReader(goodManifest)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiscover50: discovery of 50 installed extensions, each with a
// manifest and two built artifacts.
func BenchmarkDiscover50(b *testing.B) {
	home := b.TempDir()
	for i := range 50 {
		name := "ext-" + strconv.Itoa(i)
		dir := filepath.Join(home, ExtensionsDir, name, "dist")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "x.wasm"), []byte("w"), 0o644)
		os.WriteFile(filepath.Join(dir, "x"), []byte("n"), 0o755)
		os.WriteFile(filepath.Join(home, ExtensionsDir, name, ManifestFile), []byte(manifest(name, "target", bothTiers)), 0o644)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := Discover(home)
		if err != nil || len(c.Extensions()) != 50 {
			b.Fatal(err, c.Problems())
		}
	}
}

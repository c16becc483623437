package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleManifestsDeclareTheirManagedFiles: the built-in targets that
// keep a block inside a shared file name it as managed, so the host hands
// its current content over and the target never overwrites the user's text.
func TestExampleManifestsDeclareTheirManagedFiles(t *testing.T) {
	want := map[string]string{"claude-code": "CLAUDE.md", "gemini-cli": "GEMINI.md", "opencode": "AGENTS.md"}
	for name, file := range want {
		f, err := os.Open(filepath.Join("..", "..", "examples", name, ManifestFile))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		m, err := ParseManifest(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		found := false
		for _, p := range m.Managed() {
			found = found || p.String() == file
		}
		if !found {
			t.Errorf("%s: managed %v does not name %s", name, m.Managed(), file)
		}
	}
}

// TestDocumentedManifestParses: the manifest `lola ext manifest` shows
// (cmd/lola/help/ext-manifest.txt, shipped in the binary) is one the strict
// loader accepts, with every documented field set.
func TestDocumentedManifestParses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "cmd", "lola", "help", "ext-manifest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "  name:") || doc.Len() > 0 {
			if strings.TrimSpace(line) == "" {
				break
			}
			doc.WriteString(strings.TrimPrefix(line, "  ") + "\n")
		}
	}
	if doc.Len() == 0 {
		t.Fatal("the manifest topic shows no manifest")
	}
	m, err := ParseManifest(strings.NewReader(doc.String()))
	if err != nil {
		t.Fatalf("documented manifest refused: %v\n%s", err, doc.String())
	}
	if len(m.Managed()) != 1 || len(m.Paths().Strings()) != 2 || len(m.Tiers()) != 2 {
		t.Fatalf("documented manifest: managed %v paths %v tiers %v", m.Managed(), m.Paths().Strings(), m.Tiers())
	}
	for _, key := range []string{"name", "version", "kind", "artifacts", "tier1", "tier2", "capabilities", "paths", "managed"} {
		if !strings.Contains(doc.String(), key+":") {
			t.Errorf("the documented manifest does not show %s:", key)
		}
	}
}

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

// TestDocumentedManifestParses: the manifest templates/README.md shows is
// one the strict loader accepts, with every documented field set.
func TestDocumentedManifestParses(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "templates", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "```yaml\n")
	if i < 0 {
		t.Fatal("templates/README.md shows no yaml manifest")
	}
	doc = doc[i+len("```yaml\n"):]
	doc = doc[:strings.Index(doc, "```")]
	m, err := ParseManifest(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("documented manifest refused: %v\n%s", err, doc)
	}
	if len(m.Managed()) != 1 || len(m.Paths().Strings()) != 2 || len(m.Tiers()) != 2 {
		t.Fatalf("documented manifest: managed %v paths %v tiers %v", m.Managed(), m.Paths().Strings(), m.Tiers())
	}
}

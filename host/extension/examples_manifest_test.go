package extension

import (
	"os"
	"path/filepath"
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

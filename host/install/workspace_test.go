package install

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenClawWorkspaceAsTodaysLola(t *testing.T) {
	home := t.TempDir()
	abs := filepath.Join(t.TempDir(), "custom", "ws")
	for w, want := range map[string]string{
		"":               filepath.Join(home, ".openclaw", "workspace"),
		"work":           filepath.Join(home, ".openclaw", "workspace-work"),
		abs:              abs,
		"~/elsewhere/ws": filepath.Join(home, "elsewhere", "ws"),
	} {
		got, err := OpenClawWorkspace(home, w)
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", w, got, err, want)
		}
		if st, err := os.Stat(want); err != nil || !st.IsDir() {
			t.Errorf("%q: workspace not created", w)
		}
	}
	for _, w := range []string{".", ".."} {
		if _, err := OpenClawWorkspace(home, w); !errors.Is(err, ErrUsage) {
			t.Errorf("%q: %v, want ErrUsage", w, err)
		}
	}
}

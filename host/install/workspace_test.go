package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
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

// Moved from cmd/lola with OpenClawRoot: which flag combinations are
// refused (as ErrUsage, worded as the flag's complaint), and which root
// each accepted one picks.
func TestOpenClawRootFlags(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		assistant, workspace string
		scope                schema.Scope
		hasProject           bool
		wantProject, wantErr string
	}{
		{"openclaw", "", schema.ScopeProject, false, filepath.Join(home, ".openclaw", "workspace"), ""},
		{"openclaw", "work", schema.ScopeProject, false, filepath.Join(home, ".openclaw", "workspace-work"), ""},
		{"openclaw", "", schema.ScopeProject, true, "given", ""},
		{"openclaw", "work", schema.ScopeProject, true, "", "not both"},
		{"claude-code", "work", schema.ScopeProject, false, "", "only valid with -a openclaw"},
		{"openclaw", "work", schema.ScopeUser, false, "", "--scope project"},
		{"claude-code", "", schema.ScopeProject, false, "", ""},
	} {
		o := Options{Scope: c.scope, UserHome: home}
		if c.hasProject {
			o.Project = "given"
		}
		err := OpenClawRoot(&o, c.assistant, c.workspace, c.hasProject)
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, ErrUsage) {
				t.Errorf("%+v: %v, want usage error %q", c, err, c.wantErr)
			}
		case err != nil || o.Project != c.wantProject:
			t.Errorf("%+v: project %q err %v, want %q", c, o.Project, err, c.wantProject)
		}
	}
}

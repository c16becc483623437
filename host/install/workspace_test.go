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
		// -a openclaw PROJECT: the workspace, as today's Lola writes it.
		{"openclaw", "", schema.ScopeProject, true, filepath.Join(home, ".openclaw", "workspace"), ""},
		{"openclaw", "work", schema.ScopeProject, true, "", "not both"},
		{"claude-code", "work", schema.ScopeProject, false, "", "only valid with -a openclaw"},
		{"openclaw", "work", schema.ScopeUser, false, "", "--scope project"},
		{"claude-code", "", schema.ScopeProject, false, "", ""},
	} {
		var warned []string
		o := Options{Scope: c.scope, UserHome: home, Warn: func(s string) { warned = append(warned, s) }}
		if c.hasProject {
			o.Project = "given"
		}
		err := OpenClawRoot(&o, c.assistant, c.workspace, c.hasProject)
		if wantWarn := c.hasProject && c.wantErr == "" && c.assistant == "openclaw"; wantWarn != (len(warned) == 1) || wantWarn && !strings.Contains(warned[0], "--workspace ./given") {
			t.Errorf("%+v: warnings %q", c, warned)
		}
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

// InstallAll keeps a given PROJECT as OpenClaw's root (today's Lola
// without -a), and takes the workspace without one.
func TestOpenClawRootForAll(t *testing.T) {
	home := t.TempDir()
	o := Options{Scope: schema.ScopeProject, UserHome: home, Project: "given"}
	if err := openClawRootForAll(&o, "openclaw", true); err != nil || o.Project != "given" {
		t.Fatalf("with PROJECT: %q %v", o.Project, err)
	}
	o.Project = ""
	if err := openClawRootForAll(&o, "openclaw", false); err != nil || o.Project != filepath.Join(home, ".openclaw", "workspace") {
		t.Fatalf("without PROJECT: %q %v", o.Project, err)
	}
	o.Project = "given"
	if err := openClawRootForAll(&o, "claude-code", false); err != nil || o.Project != "given" {
		t.Fatalf("another assistant: %q %v", o.Project, err)
	}
}

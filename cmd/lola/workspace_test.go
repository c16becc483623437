package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/schema"
)

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
		o := install.Options{Scope: c.scope, UserHome: home}
		if c.hasProject {
			o.Project = "given"
		}
		err := openClawRoot(&o, c.assistant, c.workspace, c.hasProject)
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !isUsage(err) {
				t.Errorf("%+v: %v, want usage error %q", c, err, c.wantErr)
			}
		case err != nil || o.Project != c.wantProject:
			t.Errorf("%+v: project %q err %v, want %q", c, o.Project, err, c.wantProject)
		}
	}
}

func isUsage(err error) bool {
	var e *exitError
	return errors.As(err, &e) && e.code == exitUsage
}

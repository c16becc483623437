package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/shim/shimtest"
)

// A target that fails says why, in the install's own error: the limit it
// hit by name and figure (the memory ceiling, the shim's clock), or how it
// exited; its stderr is kept in the report for the printer. Nothing is
// applied in any case.
func TestTargetFailureSaysWhy(t *testing.T) {
	grow := shimtest.Reactor(1, 0, []byte(`{"protocol":1,"intents":[]}`)).Replace("lola_run", shimtest.Func{
		Name: "lola_run", Params: 2, Results: 1,
		Body: shimtest.Concat(shimtest.MemoryGrow(60000), shimtest.TrapIfMinusOne, shimtest.I32(0)),
	})
	spin := shimtest.Reactor(1, 0, nil).Replace("lola_run", shimtest.Func{
		Name: "lola_run", Params: 2, Results: 1, Body: shimtest.Concat(shimtest.Spin, shimtest.I32(0)),
	})
	var noisy strings.Builder
	noisy.WriteString("#!/bin/sh\ncat >/dev/null\n")
	for i := 1; i <= 30; i++ {
		noisy.WriteString("echo 'line " + string(rune('0'+i/10)) + string(rune('0'+i%10)) + "' >&2\n")
	}
	noisy.WriteString("exit 1\n")
	cases := []struct {
		name, tier string
		wasm       []byte
		script     string
		timeout    time.Duration
		want       []string
		stderr     int // guest lines the report keeps
	}{
		{name: "memory ceiling", tier: "tier1", wasm: grow.Bytes(),
			want: []string{"memory-limit", "memory ceiling of 4096 pages (256 MiB)"}},
		{name: "clock", tier: "tier1", wasm: spin.Bytes(), timeout: 2 * time.Second,
			want: []string{"timeout: the module exceeded the shim's clock (limit: 1.75s)"}},
		{name: "stderr and exit 1", tier: "tier2", script: noisy.String(),
			want: []string{"exit-non-zero: exit status 1 (the extension refused the request as malformed"}, stderr: 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.tier == "tier2" && runtime.GOOS == "windows" {
				t.Skip("a shell script target")
			}
			e := newEnv(t)
			e.addModule(t, "sample", map[string]string{"skills/a/SKILL.md": "---\nname: a\ndescription: A\n---\nA\n"})
			art := filepath.Join(t.TempDir(), "target")
			body, mode := c.wasm, os.FileMode(0o644)
			if c.script != "" {
				body, mode = []byte(c.script), 0o755
			}
			if err := os.WriteFile(art, body, mode); err != nil {
				t.Fatal(err)
			}
			e.addTarget(t, "claude-code", map[string]string{c.tier: art}, "paths: [.claude/]\n")
			before := snapshot(t, e.project)
			o := e.options("sample", "claude-code")
			shimOptions(t, &o)
			o.Timeout = c.timeout
			rep, err := Install(context.Background(), o)
			if !errors.Is(err, ErrTargetFailed) {
				t.Fatalf("err = %v, want ErrTargetFailed", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to say %q", err, w)
				}
			}
			if rep.Launched == nil {
				t.Fatal("no report of the run")
			}
			if lines, _ := rep.Launched.GuestLog(); len(lines) != c.stderr {
				t.Errorf("%d stderr lines kept, want %d: %q", len(lines), c.stderr, lines)
			}
			sameTree(t, "project", snapshot(t, e.project), before)
		})
	}
}

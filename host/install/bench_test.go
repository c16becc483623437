package install

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// BenchmarkRegistrySave is the installed.yml rewrite every install pays:
// decode, replace one record among 500, encode, fsync, rename.
func BenchmarkRegistrySave(b *testing.B) {
	home := b.TempDir()
	reg, err := ReadRegistry(home)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 500; i++ {
		reg.Put(Record{Module: fmt.Sprintf("m%d", i), Assistant: "claude-code", Scope: "project", ProjectPath: "/p", Skills: []string{"a", "b"}})
	}
	if err := reg.Save(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := ReadRegistry(home)
		if err != nil {
			b.Fatal(err)
		}
		r.Put(Record{Module: "m7", Assistant: "claude-code", Scope: "project", ProjectPath: "/p", Skills: []string{"c"}})
		if err := r.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstallTier2 is one whole install of the sample module (no
// hooks) through the native claude-code target: resolve, run, check,
// apply with the audit log, record; then the uninstall, so every
// iteration starts from the same tree.
func BenchmarkInstallTier2(b *testing.B) {
	e := newEnv(b)
	files := sampleModule("", "")
	for _, f := range []string{"lola.yaml", "scripts/pre.sh", "scripts/post.sh"} {
		delete(files, f)
	}
	e.addModule(b, "sample", files)
	e.addClaudeCode(b, "tier2")
	o := e.options("sample", "claude-code")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep, err := Install(ctx, o); err != nil || !rep.Applied() {
			b.Fatalf("install: %v", err)
		}
		if rep, err := Uninstall(ctx, o); err != nil || !rep.Applied() {
			b.Fatalf("uninstall: %v", err)
		}
	}
}

// BenchmarkOwnershipGuard is the conflict.unowned check of a plan that
// rewrites 1,000 owned 4 KiB files with new content: one hash of each
// file on disk and of each new body.
func BenchmarkOwnershipGuard(b *testing.B) {
	root := b.TempDir()
	own := owned{}
	var intents []string
	var changes []apply.Change
	old := bytes.Repeat([]byte("o"), 4096)
	for i := 0; i < 1000; i++ {
		rel := fmt.Sprintf(".claude/skills/s%d/SKILL.md", i)
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), old, 0o644); err != nil {
			b.Fatal(err)
		}
		own.add(rel, hashHex(old))
		intents = append(intents, fmt.Sprintf(`{"op":"write","path":%q,"content":%q}`, rel, strings.Repeat("n", 4096)))
		changes = append(changes, apply.Change{Kind: apply.ChangeReplaced, Intent: i, Op: schema.OpWrite, Path: rel})
	}
	p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[`+strings.Join(intents, ",")+`]}`), plan.DefaultLimits())
	if err != nil {
		b.Fatal(err)
	}
	g := &guard{root: root, owned: own, managed: map[string]bool{}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.check(changes, p); err != nil {
			b.Fatal(err)
		}
	}
}

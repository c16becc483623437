package install

import (
	"context"
	"fmt"
	"testing"
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

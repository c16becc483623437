package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtNewRustAndAssemblyScriptBuildBothTiers: each template scaffolds an
// extension that `lola ext build --tier both` turns into a tier-1 module
// exporting the ABI and a native binary, and the native binary plans.
func TestExtNewRustAndAssemblyScriptBuildBothTiers(t *testing.T) {
	for _, c := range []struct {
		lang  string
		files []string
	}{
		{"rust", []string{"lola-extension.yaml", "Cargo.toml", "Cargo.lock", ".cargo/config.toml", "src/lib.rs", "src/main.rs", "README.md", ".gitignore"}},
		{"assemblyscript", []string{"lola-extension.yaml", "package.json", "assembly/extension.ts", "README.md", ".gitignore", "node_modules/.bin/asc"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hello-"+c.lang[:2])
			name := filepath.Base(dir)
			code, out, errOut := extCLI(t, "ext", "new", "--lang", c.lang, "--sdk-go", extTestSDKGoDir(t), name, dir)
			if code != exitOK || strings.Contains(errOut, "warning") {
				t.Fatalf("ext new: exit %d\n%s%s", code, out, errOut)
			}
			for _, f := range c.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("scaffold lacks %s", f)
				}
			}
			for _, f := range c.files {
				if strings.HasPrefix(f, "node_modules/") {
					continue
				}
				body, _ := os.ReadFile(filepath.Join(dir, f))
				if strings.Contains(string(body), "{{") {
					t.Errorf("%s is an unrendered template", f)
				}
			}
			code, out, errOut = extCLI(t, "ext", "build", "--tier", "both", dir)
			if code != exitOK {
				t.Fatalf("ext build: exit %d\n%s%s", code, out, errOut)
			}
			wasm, err := os.ReadFile(filepath.Join(dir, "dist", name+".wasm"))
			if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
				t.Fatalf("no tier-1 module: %v", err)
			}
			for _, export := range []string{"lola_abi_version", "lola_alloc", "lola_run", "lola_plan_ptr", "lola_plan_len", "_initialize"} {
				if !bytes.Contains(wasm, []byte(export)) {
					t.Errorf("the module lacks %s", export)
				}
			}
			cmd := exec.Command(filepath.Join(dir, "dist", name))
			cmd.Stdin = strings.NewReader(`{"protocol":1,"operation":"uninstall","modules":[{"name":"m","files":[]}]}`)
			plan, err := cmd.Output()
			if want := `{"protocol":1,"intents":[{"op":"delete","path":"` + name + `/m"}]}`; err != nil || string(plan) != want {
				t.Fatalf("native run: %s, %v; want %s", plan, err, want)
			}
		})
	}
}

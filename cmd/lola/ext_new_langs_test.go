package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// extTestShippedSDK is the SDK set `make build` ships in bin/sdk/.
func extTestShippedSDK(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../../bin/sdk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := extShippedSDKAt(d); err != nil {
		t.Fatalf("no shipped SDK (run `make build` first): %v", err)
	}
	return d
}

// extOfflineAuthorEnv is an author's machine with no network for Go
// modules and only the shipped SDK: a fresh LOLA_HOME, the module proxy
// off, no workspace; ext run's child is this test binary. It returns the
// shipped SDK's directory.
func extOfflineAuthorEnv(t *testing.T) string {
	t.Helper()
	sdk := extTestShippedSDK(t)
	extRunTestEnv = []string{extHostChildEnv + "=1"} // the test binary serves as the shim
	t.Cleanup(func() { extRunTestEnv = nil })
	t.Setenv("LOLA_HOME", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	return sdk
}

// TestExtNewShippedSDKBuildsAnywhereOffline: in each language, a project
// scaffolded against the shipped SDK (bin/sdk, not the checkout) in a
// directory outside the repository builds both tiers with the Go module
// proxy off, and each tier's artifact runs through the host (`lola ext
// run`) to the plan the template promises.
func TestExtNewShippedSDKBuildsAnywhereOffline(t *testing.T) {
	sdk := extOfflineAuthorEnv(t)
	for _, c := range []struct {
		lang  string
		files []string
	}{
		{"go", []string{"lola-extension.yaml", "go.mod", "go.sum", "main.go", "main_test.go"}},
		{"rust", []string{"lola-extension.yaml", "Cargo.toml", "Cargo.lock", "src/lib.rs", "src/main.rs", "README.md", ".gitignore"}},
		{"assemblyscript", []string{"lola-extension.yaml", "package.json", "assembly/extension.ts", "README.md", ".gitignore", "node_modules/.bin/asc"}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hello-"+c.lang[:2])
			if repo, _ := filepath.Abs("../.."); strings.HasPrefix(dir, repo+string(filepath.Separator)) {
				t.Fatalf("the temp dir %s lies inside the repository", dir)
			}
			name := filepath.Base(dir)
			code, out, errOut := extCLI(t, "ext", "new", "--lang", c.lang, "--sdk", sdk, name, dir)
			if code != exitOK || strings.Contains(errOut, "warning") {
				t.Fatalf("ext new: exit %d\n%s%s", code, out, errOut)
			}
			for _, f := range c.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("scaffold lacks %s", f)
				}
				if strings.HasPrefix(f, "node_modules/") {
					continue
				}
				body, _ := os.ReadFile(filepath.Join(dir, f))
				if strings.Contains(string(body), "{{") || strings.Contains(string(body), "PATH/TO") {
					t.Errorf("%s is an unrendered template", f)
				}
				if (f == "go.mod" || f == "Cargo.toml" || f == "package.json") && !strings.Contains(string(body), filepath.ToSlash(sdk)+"/") {
					t.Errorf("%s does not depend on the shipped SDK %s:\n%s", f, sdk, body)
				}
			}
			if c.lang == "go" {
				extNewGoScaffoldNeedsNoHost(t, dir)
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
			req := filepath.Join(t.TempDir(), "req.json")
			if err := os.WriteFile(req, []byte(`{"protocol":1,"operation":"uninstall","modules":[{"name":"m","files":[]}]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, art := range []string{name + ".wasm", name} {
				code, out, errOut = extCLI(t, "ext", "run", "--root", t.TempDir(), "--request", req,
					"--dry-run", "--trust-native", "--json", filepath.Join(dir, "dist", art))
				var rep struct {
					Outcome string
					Intents []struct{ Op, Path string }
				}
				if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil {
					t.Fatalf("ext run %s: exit %d\n%s%s", art, code, out, errOut)
				}
				if rep.Outcome != "dry-run" || len(rep.Intents) != 1 || rep.Intents[0].Op != "delete" || rep.Intents[0].Path != name+"/m" {
					t.Fatalf("ext run %s: %+v", art, rep)
				}
			}

			// The scaffold's own golden test passes through the host in
			// both tiers; a changed golden fails with a diff.
			code, out, errOut = extCLI(t, "ext", "test", dir)
			if code != exitOK || strings.Count(out, "ok    install  tier ") != 2 {
				t.Fatalf("ext test: exit %d\n%s%s", code, out, errOut)
			}
			golden := filepath.Join(dir, "testdata", "install.plan.json")
			body, _ := os.ReadFile(golden)
			if err := os.WriteFile(golden, bytes.Replace(body, []byte("Hello."), []byte("Bye."), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, _ = extCLI(t, "ext", "test", dir)
			if code != exitRejected || !strings.Contains(out, `-  {"op":"write","path":"`+name+`/demo/skills/demo/SKILL.md","content":"Bye."}`) ||
				!strings.Contains(out, `+  {"op":"write","path":"`+name+`/demo/skills/demo/SKILL.md","content":"Hello."}`) {
				t.Fatalf("ext test with a changed golden: exit %d\n%s", code, out)
			}
		})
	}
}

// TestExtNewRefusesAnIncompleteShippedSDK: --sdk naming a directory without
// all three SDKs is a usage error and writes nothing, rather than quietly
// scaffolding against some other copy.
func TestExtNewRefusesAnIncompleteShippedSDK(t *testing.T) {
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "go", "sdk-go"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "x")
	code, _, errOut := extCLI(t, "ext", "new", "--lang", "rust", "--sdk", bad, "x", dir)
	if code != exitUsage || !strings.Contains(errOut, "--sdk") || !strings.Contains(errOut, "go/sdk-go") {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s was created", dir)
	}
}

// extNewGoScaffoldNeedsNoHost: the Go scaffold's module graph holds the SDK
// and its own small dependencies, never the host or the host's (go-git,
// sigstore, ...): those are in a module cache only on a machine that built
// lola, so a scaffold needing them would not build or test offline
// elsewhere. Its own tests then pass with the module proxy off.
func extNewGoScaffoldNeedsNoHost(t *testing.T, dir string) {
	t.Helper()
	list := exec.Command("go", "list", "-deps", "-test", "-f", "{{with .Module}}{{.Path}} {{end}}", "./...")
	list.Dir = dir
	mods, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps -test: %v\n%s", err, mods)
	}
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"github.com/lola-pm/lola/host ", "github.com/lola-pm/lola/sdk-go/lolatest ", "github.com/go-git/", "github.com/sigstore/"} {
		if strings.Contains(string(mods), m) || strings.Contains(string(sum), m) {
			t.Errorf("the scaffold's build or go.sum needs %s:\n%s\n%s", strings.TrimSpace(m), mods, sum)
		}
	}
	test := exec.Command("go", "test", "./...")
	test.Dir = dir
	if out, err := test.CombinedOutput(); err != nil {
		t.Fatalf("go test in the scaffold, proxy off: %v\n%s", err, out)
	}
}

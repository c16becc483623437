package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/schema"
)

// authorLang is one language of the author path: the scaffold's source
// file that names the output directory, and how version 2 changes it.
type authorLang struct {
	lang, short, src string
	v1, v2           func(name string) string
	files            []string // what the scaffold must hold
}

var authorLangs = []authorLang{
	{"go", "go", "main.go",
		func(n string) string { return `dir := "` + n + `/" + m.Name` },
		func(n string) string { return `dir := "` + n + `/v2-" + m.Name` },
		[]string{"lola-extension.yaml", "go.mod", "go.sum", "main.go", "main_test.go"}},
	{"rust", "rs", "src/lib.rs",
		func(n string) string { return `format!("` + n + `/{}", m.name)` },
		func(n string) string { return `format!("` + n + `/v2-{}", m.name)` },
		[]string{"lola-extension.yaml", "Cargo.toml", "Cargo.lock", "src/lib.rs", "src/main.rs", "README.md", ".gitignore"}},
	{"assemblyscript", "as", "assembly/extension.ts",
		func(n string) string { return `const dir = "` + n + `/" + m.name;` },
		func(n string) string { return `const dir = "` + n + `/v2-" + m.name;` },
		[]string{"lola-extension.yaml", "package.json", "assembly/extension.ts", "README.md", ".gitignore", "node_modules/.bin/asc"}},
}

// The author path in each language, from a directory outside the checkout
// with only what `make build` ships (bin/sdk) and the Go module proxy off,
// every step through the CLI: ext new (a scaffold that depends on the
// shipped SDK only; for Go, whose tests pass offline without the host) ->
// ext build (both tiers; each artifact runs through ext run) -> ext test
// (the scaffold's goldens, whose requests are what `ext request` prints;
// a changed golden fails with its diff) -> ext pack of
// the unsigned build, which ext add refuses -> ext sign -> ext pack ->
// ext add of the archive (the key trusted in config.yaml) -> install a
// module with it (its hook reported native and unsigned) -> version 2
// rebuilt over the installed artifact is refused (extension.changed,
// exit 4, audited, before any hook) -> re-sign, pack, ext update from the
// new archive -> install shows version 2's output -> uninstall -> ext rm.
func TestAuthorPathNewBuildSignAddInstallUpdate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the module's hooks are bash scripts")
	}
	sdk := extOfflineAuthorEnv(t)
	installTestEnv = extRunTestEnv
	t.Cleanup(func() { installTestEnv = nil })
	for _, l := range authorLangs {
		t.Run(l.lang, func(t *testing.T) { authorPath(t, sdk, l) })
	}
}

func authorPath(t *testing.T, sdk string, l authorLang) {
	base := t.TempDir()
	if repo, _ := filepath.Abs("../.."); strings.HasPrefix(base, repo+string(filepath.Separator)) {
		t.Fatalf("the temp dir %s lies inside the repository", base)
	}
	t.Chdir(base)
	home, project := filepath.Join(base, "home"), filepath.Join(base, "project")
	t.Setenv("LOLA_HOME", home)
	os.MkdirAll(project, 0o755)
	name := "hello-" + l.short
	dir := filepath.Join(base, name)
	lola := func(args ...string) (int, string, string) {
		t.Helper()
		return extCLI(t, args...)
	}
	must := func(what string, args ...string) string {
		t.Helper()
		code, out, errOut := lola(args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", what, code, out, errOut)
		}
		return out
	}

	if code, out, errOut := lola("ext", "new", "--lang", l.lang, "--sdk", sdk, name, dir); code != exitOK || strings.Contains(errOut, "warning") {
		t.Fatalf("ext new: exit %d\n%s%s", code, out, errOut)
	}
	authorScaffoldIsShippedOnly(t, l, sdk, dir)
	must("ext build", "ext", "build", "--tier", "both", dir)
	authorArtifactsRun(t, dir, name)
	if out := must("ext test", "ext", "test", dir); strings.Count(out, "ok    ") != 4 {
		t.Fatalf("ext test: want install and uninstall in both tiers:\n%s", out)
	}
	golden := filepath.Join(dir, "testdata", "install.plan.json")
	body, _ := os.ReadFile(golden)
	os.WriteFile(golden, bytes.Replace(body, []byte("Hello."), []byte("Bye."), 1), 0o644)
	code, out, _ := lola("ext", "test", dir)
	if code != exitRejected || !strings.Contains(out, `-  {"op":"write","path":"`+name+`/demo/skills/demo/SKILL.md","content":"Bye."}`) ||
		!strings.Contains(out, `+  {"op":"write","path":"`+name+`/demo/skills/demo/SKILL.md","content":"Hello."}`) {
		t.Fatalf("ext test with a changed golden: exit %d\n%s", code, out)
	}
	os.WriteFile(golden, body, 0o644)

	// Unsigned, the archive's native artifact is refused; nothing installed.
	code, _, errOut := lola("ext", "pack", dir)
	if code != exitOK || !strings.Contains(errOut, "has no .sigstore.json bundle") {
		t.Fatalf("pack of the unsigned build: exit %d %s", code, errOut)
	}
	archive := name + "-0.1.0.tar.gz"
	if code, _, errOut := lola("ext", "add", archive); code != exitUsage || !strings.Contains(errOut, "not signed") {
		t.Fatalf("add of the unsigned archive: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "extensions", name)); err == nil {
		t.Fatal("a refused add installed the extension")
	}

	keyFile, pub := authorKey(t, base)
	os.MkdirAll(filepath.Join(home, "keys"), 0o755)
	os.WriteFile(filepath.Join(home, "keys", "author.pub"), pub, 0o644)
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("trust:\n  keys: [{name: author, file: keys/author.pub}]\n"), 0o644)
	native := filepath.Join(dir, "dist", name)
	must("ext sign", "ext", "sign", "--key", keyFile, native)
	if out := must("ext pack", "ext", "pack", dir); !strings.Contains(out, "into "+archive) {
		t.Fatalf("ext pack: %s", out)
	}
	if out := must("ext add", "ext", "add", archive); !strings.Contains(out, "signed by key author") {
		t.Fatalf("ext add: %s", out)
	}
	installed := filepath.Join(home, "extensions", name)
	for _, f := range []string{"lola-extension.yaml", "dist/" + name + ".wasm", "dist/" + name, "dist/" + name + ".sigstore.json"} {
		if _, err := os.Stat(filepath.Join(installed, filepath.FromSlash(f))); err != nil {
			t.Errorf("the archive did not install %s", f)
		}
	}

	// The scaffold's golden request is what install sends for its module.
	demo := filepath.Join(base, "demo")
	modWriteFiles(t, demo, map[string]string{"skills/demo/SKILL.md": "Hello."})
	must("mod add demo", "mod", "add", demo)
	goldenReq, _ := os.ReadFile(filepath.Join(dir, "testdata", "install.request.json"))
	if got := must("ext request", "ext", "request", "demo", "-a", name, project); got != string(goldenReq) {
		t.Fatalf("the scaffold's testdata/install.request.json is not what lola sends:\n%s\n%s", goldenReq, got)
	}

	mod := filepath.Join(base, "greeting")
	modWriteFiles(t, mod, map[string]string{
		"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: Alpha\n---\n# Alpha\n",
		"lola.yaml":             "hooks:\n  pre-install: pre.sh\n",
		"pre.sh":                "#!/bin/bash\necho pre-install ran\n",
	})
	must("mod add", "mod", "add", mod)
	out = must("install v1", "install", "greeting", "-a", name, project)
	if !strings.Contains(out, "pre-install hook pre.sh: native, unsigned (runs unconfined as you); ok") {
		t.Errorf("install does not report the hook as native and unsigned:\n%s", out)
	}
	v1 := filepath.Join(project, name, "greeting", "skills", "alpha", "SKILL.md")
	if b, err := os.ReadFile(v1); err != nil || !strings.Contains(string(b), "# Alpha") {
		t.Fatalf("v1 output: %q %v", b, err)
	}

	// Version 2 writes under NAME/v2-<module>.
	src := filepath.Join(dir, filepath.FromSlash(l.src))
	b, _ := os.ReadFile(src)
	v2src := strings.Replace(string(b), l.v1(name), l.v2(name), 1)
	if v2src == string(b) {
		t.Fatalf("the scaffold's %s changed shape; update this test", l.src)
	}
	os.WriteFile(src, []byte(v2src), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, "lola-extension.yaml"))
	os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(strings.Replace(string(m), "version: 0.1.0", "version: 0.2.0", 1)), 0o644)
	must("rebuild", "ext", "build", "--tier", "both", dir)

	// The rebuild copied over the installed artifact, not updated.
	wasm := filepath.Join("dist", name+".wasm")
	rebuilt, _ := os.ReadFile(filepath.Join(dir, wasm))
	pinned, _ := os.ReadFile(filepath.Join(installed, wasm))
	os.WriteFile(filepath.Join(installed, wasm), rebuilt, 0o644)
	code, out, errOut = lola("install", "greeting", "-a", name, project)
	if code != exitExtension || !strings.Contains(errOut, "extension.changed") {
		t.Fatalf("install of a rebuilt, not updated artifact: %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "pre-install ran") {
		t.Errorf("the hook ran before the changed target was refused:\n%s", out)
	}
	entries, err := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if last := entries[len(entries)-1]; last.Rejected == nil || last.Rejected.Violations[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("audit tail %+v", last)
	}
	if _, err := os.Stat(filepath.Join(project, name, "v2-greeting")); err == nil {
		t.Fatal("the changed artifact ran")
	}
	os.WriteFile(filepath.Join(installed, wasm), pinned, 0o644)

	must("re-sign", "ext", "sign", "--key", keyFile, native)
	must("pack v2", "ext", "pack", dir)
	if out := must("ext update", "ext", "update", name, "--from", name+"-0.2.0.tar.gz"); !strings.Contains(out, "updated "+name+" 0.2.0") || !strings.Contains(out, "signed by key author") {
		t.Fatalf("ext update: %s", out)
	}
	must("install v2", "install", "greeting", "-a", name, project)
	v2 := filepath.Join(project, name, "v2-greeting", "skills", "alpha", "SKILL.md")
	if b, err := os.ReadFile(v2); err != nil || !strings.Contains(string(b), "# Alpha") {
		t.Fatalf("v2 output: %q %v", b, err)
	}

	must("uninstall", "uninstall", "greeting", "-a", name, project)
	if _, err := os.Stat(v2); err == nil {
		t.Fatal("uninstall left version 2's output")
	}
	must("ext rm", "ext", "rm", name)
	if _, err := os.Stat(installed); err == nil {
		t.Fatal("ext rm left the extension")
	}
	if out := must("ext ls", "ext", "ls"); strings.Contains(out, name) {
		t.Fatalf("ext ls after rm:\n%s", out)
	}
}

// authorScaffoldIsShippedOnly: the scaffold holds l's files, every
// template rendered, and depends on the shipped SDK sdk (not a checkout);
// a Go scaffold's build needs no host module and its tests pass offline.
func authorScaffoldIsShippedOnly(t *testing.T, l authorLang, sdk, dir string) {
	t.Helper()
	for _, f := range l.files {
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
	if l.lang == "go" {
		extNewGoScaffoldNeedsNoHost(t, dir)
	}
}

// authorArtifactsRun: the tier-1 module exports the Lola ABI, and each
// tier runs through the host (ext run) on the scaffold's own uninstall
// request to the plan the template promises.
func authorArtifactsRun(t *testing.T, dir, name string) {
	t.Helper()
	wasm, err := os.ReadFile(filepath.Join(dir, "dist", name+".wasm"))
	if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Fatalf("no tier-1 module: %v", err)
	}
	for _, export := range []string{"lola_abi_version", "lola_alloc", "lola_run", "lola_plan_ptr", "lola_plan_len", "_initialize"} {
		if !bytes.Contains(wasm, []byte(export)) {
			t.Errorf("the module lacks %s", export)
		}
	}
	req := filepath.Join(dir, "testdata", "uninstall.request.json")
	for _, art := range []string{name + ".wasm", name} {
		code, out, errOut := extCLI(t, "ext", "run", "--root", t.TempDir(), "--request", req,
			"--dry-run", "--trust-native", "--json", filepath.Join(dir, "dist", art))
		var rep struct {
			Outcome string
			Intents []struct{ Op, Path string }
		}
		if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil {
			t.Fatalf("ext run %s: exit %d\n%s%s", art, code, out, errOut)
		}
		if rep.Outcome != "dry-run" || len(rep.Intents) != 1 || rep.Intents[0].Op != "delete" || rep.Intents[0].Path != name+"/demo" {
			t.Fatalf("ext run %s: %+v", art, rep)
		}
	}
}

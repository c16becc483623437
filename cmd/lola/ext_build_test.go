package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// extTestGoExtension writes an extension directory by hand (no scaffold),
// with main.go as given.
func extTestGoExtension(t *testing.T, name, mainGo string) string {
	t.Helper()
	dir := t.TempDir()
	sdk := extTestSDKGoDir(t)
	files := map[string]string{
		"lola-extension.yaml": extTestManifest(name, "dist/"+name+".wasm", "dist/"+name),
		"go.mod": "module " + name + "\n\ngo 1.26\n\nrequire github.com/lola-pm/lola/sdk-go v0.0.0\n\nreplace (\n\tgithub.com/lola-pm/lola/sdk-go => " +
			filepath.ToSlash(sdk) + "\n\tgithub.com/lola-pm/lola/schema => " + filepath.ToSlash(filepath.Join(filepath.Dir(sdk), "schema")) + "\n)\n",
		"main.go": mainGo,
	}
	for f, body := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// extTestManifest is a valid manifest declaring the artifacts given ("" for
// none of that tier).
func extTestManifest(name, tier1, tier2 string) string {
	m := "name: " + name + "   # comment\nversion: 0.1.0\nkind: target\nartifacts:\n"
	if tier1 != "" {
		m += "  tier1: " + tier1 + "\n"
	}
	if tier2 != "" {
		m += "  tier2: " + tier2 + "\n"
	}
	return m + "paths: [" + name + "/]\n"
}

const extTestTrivialMain = `package main

import lola "github.com/lola-pm/lola/sdk-go"

func init() { lola.Register(func(*lola.Request, *lola.Plan) error { return nil }) }

func main() { lola.Main() }
`

func TestExtBuildNamesAMissingToolchain(t *testing.T) {
	dir := extTestGoExtension(t, "x", extTestTrivialMain)
	t.Setenv("PATH", t.TempDir())
	code, _, errOut := extCLI(t, "ext", "build", dir)
	if code != exitInternal || !strings.Contains(errOut, `the go toolchain is missing: "go" is not on PATH`) || !strings.Contains(errOut, "make setup") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "dist")); err == nil {
		t.Fatal("dist/ was created without a toolchain")
	}
}

func TestExtBuildRefusesBadInput(t *testing.T) {
	good := extTestGoExtension(t, "x", extTestTrivialMain)
	noManifest := t.TempDir()
	badName := extTestGoExtension(t, "x", extTestTrivialMain)
	os.WriteFile(filepath.Join(badName, "lola-extension.yaml"), []byte("name: ../../evil\n"), 0o644)
	typo := extTestGoExtension(t, "x", extTestTrivialMain)
	os.WriteFile(filepath.Join(typo, "lola-extension.yaml"), []byte(extTestManifest("x", "dist/x.wasm", "")+"capabilites: []\n"), 0o644)
	escapes := extTestGoExtension(t, "x", extTestTrivialMain)
	os.WriteFile(filepath.Join(escapes, "lola-extension.yaml"), []byte(extTestManifest("x", "../x.wasm", "")), 0o644)
	onlyTier2 := extTestGoExtension(t, "x", extTestTrivialMain)
	os.WriteFile(filepath.Join(onlyTier2, "lola-extension.yaml"), []byte(extTestManifest("x", "", "dist/x")), 0o644)
	noLang := t.TempDir()
	os.WriteFile(filepath.Join(noLang, "lola-extension.yaml"), []byte(extTestManifest("x", "dist/x.wasm", "")), 0o644)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad tier", []string{"ext", "build", "--tier", "3", good}, "--tier must be"},
		{"no manifest", []string{"ext", "build", noManifest}, "no lola-extension.yaml"},
		{"name traversal", []string{"ext", "build", badName}, "is not ^[a-z]"},
		{"a misspelt key, as ext run refuses it", []string{"ext", "build", typo}, `unknown key "capabilites"`},
		{"an artifact path that escapes", []string{"ext", "build", escapes}, "path.traversal"},
		{"a tier the manifest does not declare", []string{"ext", "build", "--tier", "1", onlyTier2}, "declares no artifacts.tier1"},
		{"unknown language", []string{"ext", "build", noLang}, "cannot tell the extension's language"},
		{"two dirs", []string{"ext", "build", good, good}, "accepts at most 1 arg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := extCLI(t, c.args...)
			if code != exitUsage || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errOut, exitUsage, c.want)
			}
		})
	}
	for _, d := range []string{badName, typo, escapes, onlyTier2} {
		if _, err := os.Stat(filepath.Join(d, "dist")); err == nil {
			t.Fatal("a refused build created dist/")
		}
	}
}

func TestExtBuildReportsACompileError(t *testing.T) {
	dir := extTestGoExtension(t, "broken", "package main\n\nfunc main() { undefinedThing() }\n")
	code, _, errOut := extCLI(t, "ext", "build", "--tier", "2", dir)
	if code != exitInternal || !strings.Contains(errOut, "undefined: undefinedThing") || !strings.Contains(errOut, "tier 2 build failed") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(errOut, dir) {
		t.Fatalf("the error carries the absolute directory: %q", errOut)
	}
}

// An extension inside a go.work that does not list it still builds (as
// the standalone module it is), one tier at a time.
func TestExtBuildOneTierInsideAForeignWorkspace(t *testing.T) {
	dir := extTestGoExtension(t, "inner", extTestTrivialMain)
	work := t.TempDir()
	ext := filepath.Join(work, "ext")
	if err := os.Rename(dir, ext); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(work, "other"), 0o755)
	os.WriteFile(filepath.Join(work, "other", "go.mod"), []byte("module other\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(work, "go.work"), []byte("go 1.26\n\nuse ./other\n"), 0o644)
	t.Setenv("GOWORK", "")
	if env, err := extGoWorkEnv(ext); err != nil || len(env) != 1 || env[0] != "GOWORK=off" {
		t.Fatalf("goWorkEnv = %v, %v; want GOWORK=off", env, err)
	}
	if env, _ := extGoWorkEnv(filepath.Join(work, "other")); len(env) != 0 {
		t.Fatalf("a module the workspace uses got %v", env)
	}
	// go.sum: the hand-written module needs one; tidy writes it.
	for _, s := range extLanguages[0].afterNew(ext) {
		if err := extRunStep(ext, s, os.Stderr); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := extCLI(t, "ext", "build", "--tier", "1", ext)
	if code != exitOK || !strings.Contains(out, "tier 1  dist/inner.wasm") || !strings.Contains(out, "MiB") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ext, "dist", "inner")); err == nil {
		t.Fatal("--tier 1 also built tier 2")
	}
}

// extTestWritingMain is a handler that writes one file named by what.
func extTestWritingMain(what string) string {
	return `package main

import lola "github.com/lola-pm/lola/sdk-go"

func init() {
	lola.Register(func(_ *lola.Request, p *lola.Plan) error { return p.Write("` + what + `", "x") })
}

func main() { lola.Main() }
`
}

// TestExtBuildWritesTheArtifactTheManifestNames: renaming the extension
// in its manifest (the artifact path unchanged) and rebuilding replaces
// the artifact the manifest names, so what runs is the new build; before,
// the build wrote dist/<new name> and the stale dist/<old name> ran.
func TestExtBuildWritesTheArtifactTheManifestNames(t *testing.T) {
	dir := extTestGoExtension(t, "old", extTestWritingMain("old/a"))
	for _, s := range extLanguages[0].afterNew(dir) {
		if err := extRunStep(dir, s, os.Stderr); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errOut := extCLI(t, "ext", "build", "--tier", "2", dir); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	m := strings.Replace(extTestManifest("new", "dist/old.wasm", "dist/old"), "paths: [new/]", "paths: [new/, old/]", 1)
	os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(m), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(extTestWritingMain("new/a")), 0o644)
	code, out, errOut := extCLI(t, "ext", "build", "--tier", "2", dir)
	if code != exitOK || !strings.Contains(out, "tier 2  dist/old ") {
		t.Fatalf("rebuild: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "dist", "new")); err == nil {
		t.Fatal("the build wrote dist/new, which the manifest does not name")
	}
	code, out, errOut = extCLI(t, "ext", "run", "--root", t.TempDir(), "--dry-run", "--trust-native", "--json", dir)
	if code != exitOK || !strings.Contains(out, `"new/a"`) {
		t.Fatalf("the renamed extension ran the stale artifact: exit %d\n%s%s", code, out, errOut)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/extension"
)

// extCLI runs the lola CLI in-process and returns exit code, stdout, stderr.
func extCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func extTestSDKGoDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("../../sdk-go")
	if err != nil || !extIsSDKGo(d) {
		t.Fatalf("the monorepo's sdk-go is not at ../../sdk-go (%v)", err)
	}
	return d
}

// extTreeSnapshot maps every file under dir to its content, for "nothing changed".
func extTreeSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		m[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExtNewGoScaffoldsAnExtensionThatBuildsAndRuns is the template's
// end-to-end check: scaffold, build both tiers, run the native build, and
// run the scaffold's own tests.
func TestExtNewGoScaffoldsAnExtensionThatBuildsAndRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hello")
	code, out, errOut := extCLI(t, "ext", "new", "--lang", "go", "--sdk-go", extTestSDKGoDir(t), "hello", dir)
	if code != exitOK {
		t.Fatalf("ext new: exit %d\n%s%s", code, out, errOut)
	}
	for _, f := range []string{"lola-extension.yaml", "go.mod", "go.sum", "main.go", "main_test.go", "README.md", "Makefile", ".gitignore"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("scaffold lacks %s", f)
		}
	}
	for p, body := range extTreeSnapshot(t, dir) {
		if strings.HasSuffix(p, ".tmpl") || strings.Contains(body, "{{") {
			t.Errorf("%s is an unrendered template", p)
		}
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(gomod), "github.com/lola-pm/lola/sdk-go => "+filepath.ToSlash(extTestSDKGoDir(t))) {
		t.Fatalf("go.mod does not point at the local sdk-go:\n%s", gomod)
	}
	if m, err := extension.ReadManifest(dir); err != nil || m.Name() != "hello" {
		t.Fatalf("manifest %v, %v", m, err)
	}

	code, out, errOut = extCLI(t, "ext", "build", "--tier", "both", "--json", dir)
	if code != exitOK {
		t.Fatalf("ext build: exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Name      string
		Lang      string
		Artifacts []extBuiltArtifact
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if rep.Name != "hello" || rep.Lang != "go" || len(rep.Artifacts) != 2 ||
		rep.Artifacts[0].Path != "dist/hello.wasm" || rep.Artifacts[1].Path != "dist/hello" {
		t.Fatalf("report %+v", rep)
	}
	for _, a := range rep.Artifacts {
		st, err := os.Stat(filepath.Join(dir, a.Path))
		if err != nil || st.Size() != a.Bytes || a.Bytes == 0 {
			t.Fatalf("artifact %+v: %v", a, err)
		}
	}
	wasm, _ := os.ReadFile(filepath.Join(dir, "dist/hello.wasm"))
	if !bytes.HasPrefix(wasm, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatal("dist/hello.wasm is not a wasm module")
	}
	for _, export := range []string{"lola_abi_version", "lola_alloc", "lola_run", "lola_plan_ptr", "lola_plan_len", "_initialize"} {
		if !bytes.Contains(wasm, []byte(export)) {
			t.Errorf("dist/hello.wasm lacks %s", export)
		}
	}
	if bytes.Contains(wasm, []byte("extism:host")) {
		t.Error("dist/hello.wasm imports extism:host/env")
	}

	cmd := exec.Command(filepath.Join(dir, "dist/hello"))
	cmd.Stdin = strings.NewReader(`{"protocol":1,"operation":"uninstall","modules":[{"name":"m","files":[]}]}`)
	plan, err := cmd.Output()
	if err != nil || string(plan) != `{"protocol":1,"intents":[{"op":"delete","path":"hello/m"}]}` {
		t.Fatalf("native run: %s, %v", plan, err)
	}

	test := exec.Command("go", "test", "./...")
	test.Dir = dir
	test.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if b, err := test.CombinedOutput(); err != nil {
		t.Fatalf("the scaffold's own tests fail: %v\n%s", err, b)
	}
}

func TestExtNewRefusesBadInvocationsAndTouchesNothing(t *testing.T) {
	base := t.TempDir()
	occupied := filepath.Join(base, "occupied")
	if err := os.MkdirAll(occupied, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(occupied, "main.go"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := extTreeSnapshot(t, base)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no lang", []string{"ext", "new", "hello", filepath.Join(base, "a")}, "lang"},
		{"unknown lang", []string{"ext", "new", "--lang", "cobol", "hello", filepath.Join(base, "a")}, "--lang must be one of"},
		{"upper-case name", []string{"ext", "new", "--lang", "go", "Hello", filepath.Join(base, "a")}, "must match"},
		{"traversal name", []string{"ext", "new", "--lang", "go", "../x", filepath.Join(base, "a")}, "must match"},
		{"occupied dir", []string{"ext", "new", "--lang", "go", "hello", occupied}, "not empty"},
		{"not an sdk", []string{"ext", "new", "--lang", "go", "--sdk-go", base, "hello", filepath.Join(base, "a")}, "is not the lola sdk-go"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := extCLI(t, c.args...)
			if code != exitUsage || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errOut, exitUsage, c.want)
			}
		})
	}
	after := extTreeSnapshot(t, base)
	if len(after) != len(before) || after[filepath.Join(occupied, "main.go")] != "mine" {
		t.Fatalf("a refused ext new changed the disk: %v", after)
	}
	if _, err := os.Stat(filepath.Join(base, "a")); err == nil {
		t.Fatal("a refused ext new created its directory")
	}
}

// Without --sdk-go, the checkout is found above the working directory (the
// test runs in cmd/lola, inside the monorepo).
func TestExtNewFindsTheCheckout(t *testing.T) {
	t.Setenv("LOLA_SDK_GO", "")
	dir := filepath.Join(t.TempDir(), "found")
	code, out, errOut := extCLI(t, "ext", "new", "--lang", "go", "found", dir)
	if code != exitOK || strings.Contains(errOut, "no local lola checkout") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(gomod), "=> "+filepath.ToSlash(extTestSDKGoDir(t))) {
		t.Fatalf("go.mod:\n%s", gomod)
	}
}

func TestReplacePathIsRelativeInsideTheCheckout(t *testing.T) {
	cases := []struct{ from, target, want string }{
		{"/repo/examples/x", "/repo/sdk-go", "../../sdk-go"},
		{"/repo/x", "/repo/sdk-go", "../sdk-go"},
		{"/elsewhere/x", "/repo/sdk-go", "/repo/sdk-go"},
		{"/repo-other/x", "/repo/sdk-go", "/repo/sdk-go"},
	}
	for _, c := range cases {
		if got := extReplacePath(filepath.FromSlash(c.from), filepath.FromSlash(c.target)); got != c.want {
			t.Errorf("replacePath(%s, %s) = %s, want %s", c.from, c.target, got, c.want)
		}
	}
}

// TestTemplatesMatchSource fails when cmd/lola/templates (embedded) drifts
// from the repository's templates/: run `go generate ./lola` in cmd/.
func TestTemplatesMatchSource(t *testing.T) {
	src := "../../templates"
	want := map[string]string{}
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		want[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatalf("reading %s: %v", src, err)
	}
	got := map[string]string{}
	err = fs.WalkDir(templatesFS, "templates", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := templatesFS.ReadFile(p)
		got[strings.TrimPrefix(p, "templates/")] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("embedded templates lack %s: run `go generate ./lola` in cmd/", name)
		} else if g != body {
			t.Errorf("embedded %s differs from templates/%s: run `go generate ./lola` in cmd/", name, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("embedded templates have %s, which templates/ does not: run `go generate ./lola` in cmd/", name)
		}
	}
	for _, l := range extLanguages {
		if _, ok := want[l.template+"/README.md.tmpl"]; !ok {
			t.Errorf("language %s has no templates/%s/README.md.tmpl", l.name, l.template)
		}
	}
}

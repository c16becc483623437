package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// repoRoot is the monorepo's top directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixture is one SDK's fixture, built both ways.
type fixture struct {
	lang   string
	wasm   string // tier 1 module
	native string // tier 2 executable
}

var (
	buildOnce sync.Map // lang -> *buildResult
	workDir   string   // build outputs shared by every test of this run
)

func TestMain(m *testing.M) {
	var err error
	workDir, err = os.MkdirTemp("", "lola-conformance-")
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(workDir)
	os.Exit(code)
}

type buildResult struct {
	once sync.Once
	fx   fixture
	err  error
	out  string
}

func requireTool(t testing.TB, tool, why string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("LOLA_CONFORMANCE_ALLOW_SKIP") == "1" {
			t.Skipf("%s not found (%s); `make setup` installs it", tool, why)
		}
		t.Fatalf("%s not found (%s); run `make setup`", tool, why)
	}
	return p
}

func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// buildFixture builds lang's fixture once per test binary.
func buildFixture(t *testing.T, lang string) fixture {
	t.Helper()
	v, _ := buildOnce.LoadOrStore(lang, &buildResult{})
	br := v.(*buildResult)
	root := repoRoot(t)
	switch lang {
	case "rust":
		requireTool(t, "/usr/bin/rustc", "Debian's rustc builds wasm32-wasi")
		requireTool(t, "cargo", "rustup's cargo builds the native tier")
	case "assemblyscript":
		requireTool(t, "wasm2c", "wabt translates the module for tier 2")
		requireTool(t, "gcc", "compiles the wasm2c output")
		if _, err := os.Stat(filepath.Join(root, "sdk-assemblyscript/node_modules/.bin/asc")); err != nil {
			requireTool(t, "asc-from-npm-ci", "npm ci in sdk-assemblyscript installs asc")
		}
	}
	br.once.Do(func() {
		out := filepath.Join(workDir, lang)
		if br.err = os.MkdirAll(out, 0o755); br.err != nil {
			return
		}
		switch lang {
		case "rust":
			dir := filepath.Join(root, "sdk-rust")
			var log string
			log, br.err = run(dir, []string{"RUSTC=/usr/bin/rustc"}, "/usr/bin/cargo",
				"build", "--release", "--locked", "--target", "wasm32-wasi", "-p", "lola-fixture", "--lib")
			br.out += log
			if br.err == nil {
				log, br.err = run(dir, nil, "cargo", "build", "--release", "--locked", "-p", "lola-fixture")
				br.out += log
			}
			br.fx = fixture{lang: lang,
				wasm:   filepath.Join(dir, "target/wasm32-wasi/release/lola_fixture.wasm"),
				native: filepath.Join(dir, "target/release/lola-fixture")}
		case "assemblyscript":
			dir := filepath.Join(root, "sdk-assemblyscript")
			br.out, br.err = run(dir, nil, "./build.sh", "assembly/fixture.ts", out, "fixture")
			br.fx = fixture{lang: lang, wasm: filepath.Join(out, "fixture.wasm"), native: filepath.Join(out, "fixture")}
		case "go":
			dir := filepath.Join(root, "sdk-go")
			var log string
			wasm, native := filepath.Join(out, "fixture.wasm"), filepath.Join(out, "fixture")
			log, br.err = run(dir, []string{"GOOS=wasip1", "GOARCH=wasm"}, "go", "build",
				"-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./internal/fixture")
			br.out += log
			if br.err == nil {
				log, br.err = run(dir, []string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", native, "./internal/fixture")
				br.out += log
			}
			br.fx = fixture{lang: lang, wasm: wasm, native: native}
		default:
			br.err = os.ErrNotExist
		}
	})
	if br.err != nil {
		t.Fatalf("building the %s fixture: %v\n%s", lang, br.err, strings.TrimSpace(br.out))
	}
	return br.fx
}

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

// project is one extension source that builds both tiers.
type project struct {
	lang string // go, rust, assemblyscript
	dir  string // relative to the repository root
	// go: the package to build ("." or "./internal/fixture");
	// rust: the cargo package (-p); assemblyscript: the entry file.
	target string
	// rust: the cdylib's file stem and the binary's name.
	wasmStem, binName string
}

// built is a project's two artifacts.
type built struct {
	wasm   string // tier 1 module
	native string // tier 2 executable
}

var (
	builds  sync.Map // project.dir+target -> *buildResult
	workDir string   // build outputs shared by every test of this run
)

type buildResult struct {
	once sync.Once
	out  built
	err  error
	log  string
}

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

func requireTool(t testing.TB, tool, why string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		if os.Getenv("LOLA_CONFORMANCE_ALLOW_SKIP") == "1" {
			t.Skipf("%s not found (%s); `make setup` installs it", tool, why)
		}
		t.Fatalf("%s not found (%s); run `make setup`", tool, why)
	}
}

func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// build builds p's two tiers once per test binary, with the recipes of
// TOOLCHAINS.md (the same ones `lola ext build` uses).
func build(t testing.TB, p project) built {
	t.Helper()
	root := repoRoot(t)
	dir := filepath.Join(root, p.dir)
	switch p.lang {
	case "rust":
		requireTool(t, "/usr/bin/rustc", "Debian's rustc builds wasm32-wasi")
		requireTool(t, "cargo", "rustup's cargo builds the native tier")
	case "assemblyscript":
		requireTool(t, "wasm2c", "wabt translates the module for tier 2")
		requireTool(t, "gcc", "compiles the wasm2c output")
		if _, err := os.Stat(filepath.Join(dir, "node_modules/.bin/asc")); err != nil {
			t.Fatalf("%s: node_modules missing: `make setup` runs npm ci there", p.dir)
		}
	}
	v, _ := builds.LoadOrStore(p.dir+"|"+p.target, &buildResult{})
	br := v.(*buildResult)
	br.once.Do(func() {
		out := filepath.Join(workDir, strings.NewReplacer("/", "_", ".", "_").Replace(p.dir+"_"+p.target))
		if br.err = os.MkdirAll(out, 0o755); br.err != nil {
			return
		}
		step := func(env []string, name string, args ...string) {
			if br.err != nil {
				return
			}
			var log string
			log, br.err = run(dir, env, name, args...)
			br.log += log
		}
		switch p.lang {
		case "go":
			br.out = built{wasm: filepath.Join(out, "ext.wasm"), native: filepath.Join(out, "ext")}
			step([]string{"GOOS=wasip1", "GOARCH=wasm"}, "go", "build", "-buildmode=c-shared",
				"-trimpath", "-ldflags=-s -w", "-o", br.out.wasm, p.target)
			step([]string{"CGO_ENABLED=0"}, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", br.out.native, p.target)
		case "rust":
			br.out = built{
				wasm:   filepath.Join(dir, "target/wasm32-wasi/release", p.wasmStem+".wasm"),
				native: filepath.Join(dir, "target/release", p.binName),
			}
			step([]string{"RUSTC=/usr/bin/rustc"}, "/usr/bin/cargo", "build", "--release", "--locked",
				"--target", "wasm32-wasi", "-p", p.target, "--lib")
			step(nil, "cargo", "build", "--release", "--locked", "-p", p.target)
		case "assemblyscript":
			br.out = built{wasm: filepath.Join(out, "ext.wasm"), native: filepath.Join(out, "ext")}
			step(nil, filepath.Join(root, "sdk-assemblyscript/build.sh"), p.target, out, "ext")
		default:
			br.err = os.ErrNotExist
		}
	})
	if br.err != nil {
		t.Fatalf("building %s (%s): %v\n%s", p.dir, p.lang, br.err, strings.TrimSpace(br.log))
	}
	return br.out
}

// fixtures are the SDKs' conformance fixtures (schema/vectors/requests/README.md).
var fixtures = []project{
	{lang: "go", dir: "sdk-go", target: "./internal/fixture"},
	{lang: "rust", dir: "sdk-rust", target: "lola-fixture", wasmStem: "lola_fixture", binName: "lola-fixture"},
	{lang: "assemblyscript", dir: "sdk-assemblyscript", target: "assembly/fixture.ts"},
}

// examples are the real extensions in examples/, each with golden
// testdata/<name>.request.json and <name>.plan.json.
var examples = []project{
	{lang: "go", dir: "examples/go-claude-code", target: "."},
	{lang: "go", dir: "examples/go-opencode", target: "."},
	{lang: "go", dir: "examples/go-copilot-cli", target: "."},
	{lang: "go", dir: "examples/go-copilot-vscode", target: "."},
	{lang: "go", dir: "examples/go-openclaw", target: "."},
	{lang: "rust", dir: "examples/claude-code", target: "lola-claude-code", wasmStem: "lola_claude_code", binName: "claude-code"},
	{lang: "rust", dir: "examples/opencode", target: "lola-opencode", wasmStem: "lola_opencode", binName: "opencode"},
	{lang: "rust", dir: "examples/copilot-cli", target: "lola-copilot-cli", wasmStem: "lola_copilot_cli", binName: "copilot-cli"},
	{lang: "rust", dir: "examples/copilot-vscode", target: "lola-copilot-vscode", wasmStem: "lola_copilot_vscode", binName: "copilot-vscode"},
	{lang: "rust", dir: "examples/openclaw", target: "lola-openclaw", wasmStem: "lola_openclaw", binName: "openclaw"},
	{lang: "rust", dir: "examples/cursor", target: "lola-cursor", wasmStem: "lola_cursor", binName: "cursor"},
	{lang: "assemblyscript", dir: "examples/gemini-cli", target: "assembly/gemini.ts"},
}

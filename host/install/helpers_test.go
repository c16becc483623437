package install

import (
	"context"
	"fmt"
	"github.com/lola-pm/lola/host/extension"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/shim"
)

// The test binary doubles as lola's shim (tier 1 re-executes it as
// `__extension-host`), as lola re-executes itself.
const childEnv = "LOLA_INSTALL_TEST_CHILD"

var buildRoot string

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "shim" && len(os.Args) > 1 && os.Args[1] == shim.Subcommand {
		os.Exit(shim.Run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "install-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// shimEnv makes a tier-1 run re-execute this test binary as the shim.
func shimOptions(t testing.TB, o *Options) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o.Exe, o.ExtraEnv = exe, append(o.ExtraEnv, childEnv+"=shim")
}

// The claude-code target of examples/, built once per test run per tier.
var builds struct {
	sync.Mutex
	paths map[string]string
}

func buildClaudeCode(t testing.TB, tier string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the install tests run bash hooks and POSIX targets")
	}
	builds.Lock()
	defer builds.Unlock()
	if p, ok := builds.paths[tier]; ok {
		return p
	}
	src, err := filepath.Abs("../../examples/go-claude-code")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(buildRoot, "claude-code-"+tier)
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if tier == "tier1" {
		out += ".wasm"
		cmd = exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-o", out, ".")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build examples/go-claude-code (%s): %v\n%s", tier, err, b)
	}
	if builds.paths == nil {
		builds.paths = map[string]string{}
	}
	builds.paths[tier] = out
	return out
}

// env is one test's world: a $LOLA_HOME, a project, a user home.
type env struct {
	home, project, userHome string
}

func newEnv(t testing.TB) env {
	t.Helper()
	base := t.TempDir()
	e := env{home: filepath.Join(base, "lola-home"), project: filepath.Join(base, "project"), userHome: filepath.Join(base, "user")}
	for _, d := range []string{e.home, e.project, e.userHome} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e env) options(module, assistant string) Options {
	return Options{Home: e.home, Module: module, Assistant: assistant, Project: e.project, UserHome: e.userHome}
}

// addModule writes files into a folder and adds it to the store as name.
func (e env) addModule(t testing.TB, name string, files map[string]string) string {
	t.Helper()
	src := filepath.Join(filepath.Dir(e.home), "src-"+name)
	writeTree(t, src, files)
	store, err := module.OpenStore(e.home)
	if err != nil {
		t.Fatal(err)
	}
	s, err := module.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	n, err := module.ParseName(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(context.Background(), s, module.AddOptions{Name: n}); err != nil {
		t.Fatalf("mod add: %v", err)
	}
	return filepath.Join(e.home, module.ModulesDir, name)
}

// addTarget installs a target extension under $LOLA_HOME/extensions/name
// with the given artifacts (tier -> host file to copy) and manifest tail.
func (e env) addTarget(t testing.TB, name string, artifacts map[string]string, extra string) {
	t.Helper()
	dir := filepath.Join(e.home, "extensions", name)
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o700); err != nil {
		t.Fatal(err)
	}
	var m strings.Builder
	fmt.Fprintf(&m, "name: %s\nversion: 0.1.0\nkind: target\nartifacts:\n", name)
	tiers := make([]string, 0, len(artifacts))
	for tier := range artifacts {
		tiers = append(tiers, tier)
	}
	sort.Strings(tiers)
	for _, tier := range tiers {
		rel := "dist/" + name
		if tier == "tier1" {
			rel += ".wasm"
		}
		fmt.Fprintf(&m, "  %s: %s\n", tier, rel)
		b, err := os.ReadFile(artifacts[tier])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m.WriteString(extra)
	if err := os.WriteFile(filepath.Join(dir, "lola-extension.yaml"), []byte(m.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// Pinned as ext add --allow-unsigned would: a native target runs only
	// when pinned.
	if _, err := extension.Adopt(e.home, name, extension.AddOptions{AllowUnsigned: true}); err != nil {
		t.Fatal(err)
	}
}

// addClaudeCode installs the claude-code example as the claude-code target.
func (e env) addClaudeCode(t testing.TB, tiers ...string) {
	t.Helper()
	arts := map[string]string{}
	for _, tier := range tiers {
		arts[tier] = buildClaudeCode(t, tier)
	}
	e.addTarget(t, "claude-code", arts, "capabilities: []\npaths: [.claude/, CLAUDE.md]\nmanaged: [CLAUDE.md]\n")
}

func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot is a tree's every entry: path -> content ("<dir>" for a
// directory), to compare before and after.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel) // no lock file or staging is ever left
		if d.IsDir() {
			out[rel] = "<dir>"
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(p)
			out[rel] = "<symlink to " + to + ">"
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t testing.TB, what string, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			diffs = append(diffs, "missing "+k)
		} else if g != v {
			diffs = append(diffs, fmt.Sprintf("changed %s: %q, want %q", k, g, v))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "extra "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s:\n  %s", what, strings.Join(diffs, "\n  "))
	}
}

func readOr(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<absent>"
	}
	return string(b)
}

// sampleModule is a module with two skills, a command, an agent,
// instructions and both hooks, as today's Lola lays one out. The hooks are
// unmodified today's-style scripts: they write their LOLA_* environment
// and working directory to $HOOK_OUT.<hook>.
func sampleModule(preBody, postBody string) map[string]string {
	return map[string]string{
		"skills/alpha/SKILL.md":    "---\nname: alpha\ndescription: First skill\n---\n# Alpha\n",
		"skills/beta/SKILL.md":     "---\nname: beta\ndescription: Second skill\n---\n# Beta\n",
		"skills/beta/reference.md": "beta reference\n",
		"commands/hello.md":        "---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS.\n",
		"agents/reviewer.md":       "---\ndescription: Reviews code\n---\nYou review code.\n",
		"AGENTS.md":                "Use the alpha skill first.\n",
		"lola.yaml":                "hooks:\n  pre-install: scripts/pre.sh\n  post-install: scripts/post.sh\n",
		"scripts/pre.sh":           preBody,
		"scripts/post.sh":          postBody,
	}
}

const recordingHook = `#!/bin/bash
set -eu
{ env | grep '^LOLA_' | sort; echo "PWD=$(pwd)"; echo "USER_VAR=${USER_VAR:-}"; } > "$HOOK_OUT.$LOLA_HOOK"
echo "hook $LOLA_HOOK ran for $LOLA_MODULE_NAME"
`

const failingHook = `#!/bin/bash
echo "refusing" >&2
touch "$HOOK_OUT.$LOLA_HOOK"
exit 7
`

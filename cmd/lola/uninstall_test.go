package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

var updateInstallGolden = flag.Bool("update-install-golden", false, "rewrite testdata/install/*.golden from the built binary")

func TestUninstallCLIRefusesWhatIsNotInstalled(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	code, out, errOut := runLola(t, "uninstall", "sample", "-a", "fake", w.project)
	if code != exitUsage || !strings.Contains(errOut, "not installed") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runLola(t, "uninstall", "sample", w.project)
	if code != exitUsage || !strings.Contains(errOut, "not installed") {
		t.Fatalf("without -a: exit %d %s", code, errOut)
	}
}

// e2eSample is the module the end-to-end test installs: two skills (one
// with a supporting file), a command, an agent, instructions and a
// pre-install hook.
var e2eSample = map[string]string{
	"skills/alpha/SKILL.md":    "---\nname: alpha\ndescription: First skill\n---\n# Alpha\n\nDo alpha things.\n",
	"skills/beta/SKILL.md":     "---\nname: beta\ndescription: Second skill\n---\n# Beta\n",
	"skills/beta/reference.md": "Beta reference.\n",
	"commands/hello.md":        "---\ndescription: Say hello\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS.\n",
	"agents/reviewer.md":       "---\ndescription: Reviews code\nmodel: sonnet\n---\nYou review code carefully.\n",
	"AGENTS.md":                "Prefer the alpha skill.\n",
	"lola.yaml":                "hooks:\n  pre-install: scripts/check.sh\n",
	"scripts/check.sh":         "#!/bin/bash\necho \"checking for $LOLA_ASSISTANT\" > \"$LOLA_PROJECT_PATH/../hook-ran.$LOLA_ASSISTANT\"\n",
}

// e2eUser is what the project holds before the install: the user's own
// files, some beside the ones the targets manage.
var e2eUser = map[string]string{
	"README.md":              "# My app\n",
	".claude/settings.json":  "{}\n",
	".claude/commands/my.md": "My own command.\n",
	"CLAUDE.md":              "# Notes\n\nMy own notes.\n",
	"AGENTS.md":              "# Agents\n\nMy own agent notes.\n",
}

// e2eUserHome is what the user's home holds before a user-scope install:
// the user's own global files, some of them files the targets manage.
var e2eUserHome = map[string]string{
	".claude/CLAUDE.md":     "Global notes.\n",
	".claude/settings.json": "{}\n",
	".gemini/settings.json": "{\n  \"theme\": \"Default\"\n}\n",
	".cursor/mcp.json":      "{\n  \"mcpServers\": {\n    \"mine\": {\n      \"command\": \"my-server\"\n    }\n  }\n}\n",
	"notes.txt":             "not lola's\n",
}

// e2eScopes are the scopes every assistant is tested in (upstream installs
// each of the seven in both).
var e2eScopes = []string{"project", "user"}

// e2eSampleFor is the sample module for a scope: in user scope without the
// pre-install hook (whose LOLA_PROJECT_PATH is empty there).
func e2eSampleFor(scope string) map[string]string {
	if scope == "project" {
		return e2eSample
	}
	out := map[string]string{}
	for k, v := range e2eSample {
		if k != "lola.yaml" && k != "scripts/check.sh" {
			out[k] = v
		}
	}
	return out
}

// e2eWorld is one end-to-end run's directories: the user's home (HOME),
// lola's home outside it, the project, and the directory lola runs in.
type e2eWorld struct {
	base, home, lolaHome, project, cwd string
}

// root is the directory the scope's targets write under.
func (w e2eWorld) root(scope string) string {
	if scope == "user" {
		return w.home
	}
	return w.project
}

// env is the environment lola runs with: HOME and LOLA_HOME in the world,
// XDG_CONFIG_HOME unset so user-scope paths derive from HOME.
func (w e2eWorld) env() []string {
	return []string{"LOLA_HOME=" + w.lolaHome, "HOME=" + w.home, "USERPROFILE=" + w.home, "XDG_CONFIG_HOME="}
}

// args are install/uninstall's arguments for the scope.
func (w e2eWorld) args(scope string, args ...string) []string {
	if scope == "user" {
		return append(args, "--scope", "user")
	}
	return atProject(args, w.project)
}

func newE2EWorld(t *testing.T, scope string) e2eWorld {
	t.Helper()
	base := t.TempDir()
	w := e2eWorld{base: base, home: filepath.Join(base, "home"), lolaHome: filepath.Join(base, "lolahome"),
		project: filepath.Join(base, "project"), cwd: filepath.Join(base, "cwd")}
	for _, d := range []string{w.home, w.project, w.cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if scope == "user" {
		modWriteFiles(t, w.home, e2eUserHome)
	} else {
		modWriteFiles(t, w.project, e2eUser)
	}
	return w
}

// TestEndToEndInstallAndUninstallForEachAssistant runs the real bin/lola
// (make build) with its built-in targets: for each assistant and scope,
// `lola install` of the sample module into a temporary project (or home)
// holding the user's own files produces exactly the golden tree, and `lola
// uninstall` then leaves it exactly as it was — no lola litter at all (no
// lock file, no staging) — and the directory lola ran in untouched.
func TestEndToEndInstallAndUninstallForEachAssistant(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe := os.Getenv("LOLA_BUILT_BINARY")
	if exe == "" {
		exe = filepath.Join("..", "..", "bin", "lola")
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
	}
	if _, err := os.Stat(exe); err != nil {
		t.Skip("no " + exe + ": run make build first (make test does)")
	}
	exe, _ = filepath.Abs(exe)
	for _, assistant := range []string{"claude-code", "copilot-cli", "copilot-vscode", "cursor", "gemini-cli", "openclaw", "opencode"} {
		for _, scope := range e2eScopes {
			t.Run(assistant+"/"+scope, func(t *testing.T) {
				w := newE2EWorld(t, scope)
				src := filepath.Join(w.base, "sample")
				modWriteFiles(t, src, e2eSampleFor(scope))
				lola := func(args ...string) string {
					t.Helper()
					cmd := exec.Command(exe, args...)
					cmd.Env = append(os.Environ(), w.env()...)
					cmd.Dir = w.cwd
					var out, errb bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &errb
					if err := cmd.Run(); err != nil {
						t.Fatalf("lola %s: %v\n%s\n%s", strings.Join(args, " "), err, out.Bytes(), errb.Bytes())
					}
					return out.String()
				}
				lola("mod", "add", src)
				root := w.root(scope)
				before := e2eTree(t, root)
				lola(w.args(scope, "install", "sample", "-a", assistant)...)
				if _, err := os.Stat(filepath.Join(w.base, "hook-ran."+assistant)); scope == "project" && err != nil {
					t.Error("the pre-install hook did not run")
				}
				got := e2eRender(e2eTree(t, root))
				name := assistant + ".golden"
				if scope == "user" {
					name = assistant + ".user.golden"
				}
				golden := filepath.Join("testdata", "install", name)
				if *updateInstallGolden {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestEndToEnd -update-install-golden)", err)
				}
				if got != string(want) {
					t.Errorf("installed tree differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
				}
				if list := lola("list"); !strings.Contains(list, "sample  "+assistant+"  "+scope) {
					t.Errorf("lola list:\n%s", list)
				}

				lola(w.args(scope, "uninstall", "sample", "-a", assistant)...)
				if d := e2eTreeDiff(before, e2eTree(t, root)); d != "" {
					t.Errorf("uninstall did not restore the %s:\n  %s", scope, d)
				}
				if left := e2eTree(t, w.cwd); len(left) != 0 {
					t.Errorf("lola left files in the directory it ran in: %v", left)
				}
				if list := lola("list"); strings.Contains(list, "sample") {
					t.Errorf("lola list after uninstall:\n%s", list)
				}
				if out := lola("audit", "verify"); !strings.Contains(out, "intact") {
					t.Errorf("audit verify: %s", out)
				}
			})
		}
	}
}

// e2eTreeDiff names what differs between two trees, "" when equal.
func e2eTreeDiff(before, after map[string]string) string {
	var diffs []string
	for k, v := range after {
		if b, ok := before[k]; !ok {
			diffs = append(diffs, "left behind: "+k)
		} else if b != v {
			diffs = append(diffs, "changed: "+k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			diffs = append(diffs, "removed: "+k)
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n  ")
}

// e2eTree maps every entry under dir to its content ("<dir>" for
// directories); lola leaves no file of its own (no lock, no staging), so
// none is excluded.
func e2eTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if info.IsDir() {
			out[rel+"/"] = "<dir>"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func e2eRender(tree map[string]string) string {
	keys := make([]string, 0, len(tree))
	for k := range tree {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if tree[k] == "<dir>" {
			fmt.Fprintf(&b, "== %s\n", k)
			continue
		}
		fmt.Fprintf(&b, "== %s\n%s", k, tree[k])
		if !strings.HasSuffix(tree[k], "\n") {
			b.WriteString("\n\\ no newline at end of file\n")
		}
	}
	return b.String()
}

// Without -a, an uninstall that would act on more than one assistant asks
// first, as today's Lola does; with no terminal it refuses (exit 2),
// naming the assistants and -f, and changes nothing. -f uninstalls them
// all; one recorded assistant needs no -f; -v is accepted.
func TestUninstallWithoutAssistantNeedsForceForMany(t *testing.T) {
	exe, _ := builtLola(t)
	w := newUpstreamScenarioWorld(t, exe, upstreamScenario{given: []string{"module", "registered"}})
	for _, a := range []string{"claude-code", "cursor"} {
		if r := w.run(t, "install", "my-module", "-a", a); r.code != 0 {
			t.Fatalf("install -a %s: %+v", a, r)
		}
	}
	before := modeTree(t, w.project)
	reg, _ := os.ReadFile(filepath.Join(w.home, "installed.yml"))
	r := w.run(t, "uninstall", "my-module")
	if r.code != exitUsage || !strings.Contains(r.err, "claude-code, cursor") || !strings.Contains(r.err, "-f/--force") {
		t.Fatalf("uninstall of two without -f: %+v", r)
	}
	if d := treeDiff(before, modeTree(t, w.project)); d != "" {
		t.Fatalf("a refused uninstall changed the project:\n%s", d)
	}
	if after, _ := os.ReadFile(filepath.Join(w.home, "installed.yml")); string(after) != string(reg) {
		t.Fatal("a refused uninstall changed installed.yml")
	}
	if r := w.run(t, "uninstall", "my-module", "-f", "-v"); r.code != 0 || strings.Count(r.out, "Uninstalled my-module") != 2 {
		t.Fatalf("uninstall -f: %+v", r)
	}
	if ents, _ := os.ReadDir(w.project); len(ents) != 0 {
		t.Fatalf("uninstall -f left %v", ents)
	}
	if r := w.run(t, "install", "my-module", "-a", "cursor"); r.code != 0 {
		t.Fatal(r)
	}
	if r := w.run(t, "uninstall", "my-module"); r.code != 0 || !strings.Contains(r.out, "Uninstalled my-module for cursor") {
		t.Fatalf("uninstall of the only install without -a: %+v", r)
	}
}

// atProject appends a project directory to install/uninstall/ext request
// arguments: as PROJECT, or for -a openclaw as --workspace, since -a
// openclaw installs into its workspace whatever PROJECT says (as today's
// Lola does) and --workspace PATH is how a folder is named for it.
func atProject(args []string, project string) []string {
	out := append([]string(nil), args...)
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "-a" && args[i+1] == "openclaw" {
			return append(out, "--workspace", project)
		}
	}
	return append(out, project)
}

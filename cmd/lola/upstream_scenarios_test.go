package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
)

// upstreamScenario is one scenario of today's Lola's end-to-end suite
// (e2e/features/**/*.feature in github.com/LobsterTrap/lola), replayed
// against the real bin/lola as behave drives upstream's: a fresh
// $LOLA_HOME and project directory per scenario, the project as the
// working directory, stdin closed, stdout and stderr read together.
type upstreamScenario struct {
	feature, name string
	// given: "module" writes upstream's fixture module (skills/skill1,
	// commands/cmd1, agents/agent1) outside the project; "registered"
	// copies it into $LOLA_HOME/modules/ by hand, as upstream's step does;
	// "installed" installs it for claude-code; "catalog" serves a
	// marketplace catalog (see catalog).
	given []string
	// catalog lists the modules the served catalog holds.
	catalog []string
	// runs are lola's argument lists in order; the assertions hold for
	// the last. {module_path}, {server_url} are replaced.
	runs    [][]string
	code    int
	has     []string
	hasNot  []string
	match   string
	exists  []string // {project}, {lola_home} replaced
	missing []string
	// differs is empty when ours behaves as upstream's scenario says;
	// otherwise it says how and why (docs/upstream-scenarios.md).
	differs string
}

// upstreamHTTPDiffers is why the marketplace scenarios run over https.
const upstreamHTTPDiffers = "upstream serves the catalog over plain http from 127.0.0.1; lola's remote policy refuses http:// (remote.scheme, exit 3) and a loopback address unless config.yaml's remote.allow admits it (remote.destination), so the scenario runs with https and remote.allow: [127.0.0.0/8]; TestUpstreamMarketplaceOverHTTPIsRefused holds the refusal"

var upstreamScenarios = []upstreamScenario{
	{feature: "cli", name: "Show version (--version)", runs: [][]string{{"--version"}}, match: `lola \d+\.\d+`},
	{feature: "cli", name: "Show version (-v)", runs: [][]string{{"-v"}}, match: `lola \d+\.\d+`},
	{feature: "cli", name: "Show help with flag (--help)", runs: [][]string{{"--help"}}, has: []string{"AI Skills Package Manager"}},
	{feature: "cli", name: "Show help with flag (-h)", runs: [][]string{{"-h"}}, has: []string{"AI Skills Package Manager"}},
	{feature: "cli", name: "Show help when invoked without arguments", runs: [][]string{{}}, code: 2, has: []string{"AI Skills Package Manager"}},
	{feature: "cli", name: "No arguments lists available subcommands", runs: [][]string{{}}, code: 2, has: []string{"mod", "install", "market"}},
	{feature: "cli", name: "Show subcommand help", runs: [][]string{{"mod", "--help"}}, has: []string{"add", "ls", "rm"}},
	{feature: "cli", name: "Reject unknown subcommand", runs: [][]string{{"nonexistent"}}, code: 2, has: []string{"No such command"}},
	{feature: "cli", name: "Reject unknown option", runs: [][]string{{"--bogus"}}, code: 2, has: []string{"No such option"}},

	{feature: "completions", name: "Generate bash completion script", runs: [][]string{{"completions", "bash"}}, has: []string{"complete"}},
	{feature: "completions", name: "Reject invalid shell name", runs: [][]string{{"completions", "invalid"}}, code: 2, has: []string{"Invalid value"}},

	{feature: "install/install", name: "Install a module to Claude Code", given: []string{"module", "registered"},
		runs: [][]string{{"install", "my-module", "-a", "claude-code"}}, has: []string{"claude-code"}, exists: []string{"{project}/.claude/skills/skill1"}},
	{feature: "install/install", name: "Install a module that is not registered",
		runs: [][]string{{"install", "nonexistent", "-a", "claude-code"}}, code: 1, has: []string{"not found"}},
	{feature: "install/list", name: "List installed modules when none are installed", runs: [][]string{{"list"}}, has: []string{"No modules installed"}},
	{feature: "install/list", name: "List installed modules with an active installation", given: []string{"module", "installed"},
		runs: [][]string{{"list"}}, has: []string{"my-module", "claude-code"}},
	{feature: "install/scope", name: "Install with project scope by default", given: []string{"module", "registered"},
		runs: [][]string{{"install", "my-module", "-a", "claude-code"}}, exists: []string{"{project}/.claude/skills/skill1"}},
	{feature: "install/uninstall", name: "Uninstall a previously installed module", given: []string{"module", "installed"},
		runs: [][]string{{"uninstall", "my-module", "-a", "claude-code"}}, has: []string{"Uninstalled"}, missing: []string{"{project}/.claude/skills/skill1"}},
	{feature: "install/update", name: "Update when no modules are installed", runs: [][]string{{"update"}}, has: []string{"No installations to update"}},
	{feature: "install/update", name: "Update an installed module", given: []string{"module", "installed"},
		runs: [][]string{{"update", "my-module"}}, has: []string{"Update complete"}},

	{feature: "market/add", name: "Add a marketplace", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}}, has: []string{"Added marketplace"},
		exists: []string{"{lola_home}/market/community.yml", "{lola_home}/market/cache/community.yml"}, differs: upstreamHTTPDiffers},
	{feature: "market/ls", name: "List marketplaces", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"market", "ls"}}, has: []string{"community"}, differs: upstreamHTTPDiffers},
	{feature: "market/rm", name: "Remove a marketplace", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"market", "rm", "community"}}, has: []string{"Removed"}, differs: upstreamHTTPDiffers},
	{feature: "market/rm", name: "Remove a marketplace that does not exist", runs: [][]string{{"market", "rm", "nonexistent"}}, has: []string{"not found"}},
	{feature: "market/set", name: "Disable a marketplace", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"market", "set", "community", "--disable"}}, has: []string{"disabled"}, differs: upstreamHTTPDiffers},
	{feature: "market/set", name: "Enable a disabled marketplace", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"market", "set", "community", "--disable"}, {"market", "set", "community", "--enable"}},
		has:  []string{"enabled"}, differs: upstreamHTTPDiffers},
	{feature: "market/update", name: "Update a marketplace", given: []string{"catalog"}, catalog: []string{"my-module"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"market", "update", "community"}}, has: []string{"Updated"}, differs: upstreamHTTPDiffers},

	{feature: "mod/add", name: "Add a module from a local folder", given: []string{"module"},
		runs: [][]string{{"mod", "add", "{module_path}"}}, has: []string{"Added my-module"}, exists: []string{"{lola_home}/modules/my-module"}},
	{feature: "mod/add", name: "Add a module that already exists", given: []string{"module", "registered"},
		runs: [][]string{{"mod", "add", "{module_path}"}}, code: 2, has: []string{"already exists"},
		differs: "same wording; upstream asks 'Overwrite existing module?' and, stdin closed, aborts with exit 1; ours asks nothing, refuses with exit 2 (usage: nothing was added) and names --force; the scenario asserts no exit code"},
	{feature: "mod/info", name: "Show info for a registered module", given: []string{"module", "registered"},
		runs: [][]string{{"mod", "info", "my-module"}}, has: []string{"my-module", "skill1", "cmd1", "agent1"}},
	{feature: "mod/info", name: "Show info for a module that does not exist", runs: [][]string{{"mod", "info", "nonexistent"}}, code: 1, has: []string{"not found"}},
	{feature: "mod/init", name: "Initialize a new module", runs: [][]string{{"mod", "init", "test-module"}},
		has: []string{"Initialized module test-module"}, exists: []string{"{project}/test-module"}},
	{feature: "mod/init", name: "Initialize a module when directory already exists", runs: [][]string{{"mod", "init", "test-module"}, {"mod", "init", "test-module"}},
		code: 1, has: []string{"already exists"}},
	{feature: "mod/ls", name: "List modules when none are registered", runs: [][]string{{"mod", "ls"}}, has: []string{"No modules found"}},
	{feature: "mod/ls", name: "List modules with a registered module", given: []string{"module", "registered"},
		runs: [][]string{{"mod", "ls"}}, has: []string{"my-module", "1 skill", "1 command", "1 agent"}},
	{feature: "mod/rm", name: "Remove a registered module", given: []string{"module", "registered"},
		runs: [][]string{{"mod", "rm", "my-module", "--force"}}, has: []string{"Removed my-module"}, missing: []string{"{lola_home}/modules/my-module"}},
	{feature: "mod/rm", name: "Remove a module that does not exist", runs: [][]string{{"mod", "rm", "nonexistent", "--force"}}, code: 1, has: []string{"not found"}},
	{feature: "mod/search", name: "Search for a module across marketplaces", given: []string{"catalog"}, catalog: []string{"git-tools", "python-lint"},
		runs: [][]string{{"market", "add", "community", "{server_url}/catalog.yml"}, {"search", "git"}}, has: []string{"git-tools"}, hasNot: []string{"python-lint"}, differs: upstreamHTTPDiffers},
	{feature: "mod/update", name: "Update when no modules are registered", runs: [][]string{{"mod", "update"}}, has: []string{"No modules to update"}},
	{feature: "mod/update", name: "Update a registered module from its source", given: []string{"module"},
		runs: [][]string{{"mod", "add", "{module_path}"}, {"mod", "update", "my-module"}}, has: []string{"my-module"}},

	{feature: "sync", name: "Sync when config file does not exist", runs: [][]string{{"sync"}}, code: 1, has: []string{"Config file not found"}},
}

// upstreamScenarioWorld is one scenario's isolated directories.
type upstreamScenarioWorld struct {
	exe, home, project, user, module, serverURL string
	env                                         []string
}

func (w *upstreamScenarioWorld) expand(s string) string {
	return strings.NewReplacer("{project}", w.project, "{lola_home}", w.home, "{module_path}", w.module, "{server_url}", w.serverURL).Replace(s)
}

func (w *upstreamScenarioWorld) run(t *testing.T, args ...string) lolaRun {
	t.Helper()
	for i := range args {
		args[i] = w.expand(args[i])
	}
	return runBuiltIn(t, w.exe, w.env, w.project, args...)
}

// TestUpstreamScenarios replays every scenario of upstream's e2e suite.
// A scenario ours answers differently says so in its differs field and in
// docs/upstream-scenarios.md, and its assertions are ours.
func TestUpstreamScenarios(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, sc := range upstreamScenarios {
		sc := sc
		t.Run(sc.feature+"/"+sc.name, func(t *testing.T) {
			w := newUpstreamScenarioWorld(t, exe, sc)
			var r lolaRun
			for _, args := range sc.runs {
				r = w.run(t, append([]string(nil), args...)...)
			}
			out := r.out + r.err
			if r.code != sc.code {
				t.Errorf("exit %d, want %d\n%s", r.code, sc.code, out)
			}
			for _, s := range sc.has {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q\n%s", s, out)
				}
			}
			for _, s := range sc.hasNot {
				if strings.Contains(out, s) {
					t.Errorf("output has %q\n%s", s, out)
				}
			}
			if sc.match != "" && !regexp.MustCompile(sc.match).MatchString(out) {
				t.Errorf("output does not match /%s/\n%s", sc.match, out)
			}
			for _, p := range sc.exists {
				if _, err := os.Stat(w.expand(p)); err != nil {
					t.Errorf("%s should exist: %v", p, err)
				}
			}
			for _, p := range sc.missing {
				if _, err := os.Lstat(w.expand(p)); err == nil {
					t.Errorf("%s should not exist", p)
				}
			}
		})
	}
}

func newUpstreamScenarioWorld(t *testing.T, exe string, sc upstreamScenario) *upstreamScenarioWorld {
	t.Helper()
	base := t.TempDir()
	w := &upstreamScenarioWorld{exe: exe, home: filepath.Join(base, ".lola"), project: filepath.Join(base, "project"),
		user: filepath.Join(base, "user"), module: filepath.Join(base, "src", "my-module")}
	for _, d := range []string{w.project, w.user} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.env = []string{"LOLA_HOME=" + w.home, "HOME=" + w.user}
	for _, g := range sc.given {
		switch g {
		case "module":
			modWriteFiles(t, w.module, map[string]string{
				"skills/skill1/SKILL.md": "---\ndescription: skill1 description\n---\n\n# Skill 1\n\nA test skill.\n",
				"commands/cmd1.md":       "---\ndescription: cmd1 description\n---\n\n# Command 1\n\nA test command.\n",
				"agents/agent1.md":       "---\ndescription: agent1 description\n---\n\n# Agent 1\n\nA test agent.\n",
			})
		case "registered":
			copyTree(t, w.module, filepath.Join(w.home, "modules", "my-module"))
		case "installed":
			copyTree(t, w.module, filepath.Join(w.home, "modules", "my-module"))
			if r := w.run(t, "install", "my-module", "-a", "claude-code"); r.code != 0 {
				t.Fatalf("given installed: %+v", r)
			}
		case "catalog":
			w.serveCatalog(t, sc.catalog)
		default:
			t.Fatalf("unknown given %q", g)
		}
	}
	return w
}

// serveCatalog serves upstream's catalog fixture over https from
// 127.0.0.1 and lets the child trust it (SSL_CERT_FILE, read by Go's
// system roots on Unix) and reach it (remote.allow).
func (w *upstreamScenarioWorld) serveCatalog(t *testing.T, modules []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: Test Marketplace\ndescription: E2E test marketplace\nversion: 1.0.0\nmodules:\n")
	for _, m := range modules {
		fmt.Fprintf(&b, "- name: %s\n  description: %s description\n  version: 1.0.0\n  repository: https://example.com/%s.git\n", m, m, m)
	}
	catalog := b.String()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/catalog.yml" {
			http.NotFound(rw, r)
			return
		}
		rw.Write([]byte(catalog))
	}))
	t.Cleanup(srv.Close)
	w.serverURL = srv.URL
	certFile := remotetest.CertFile(t, srv)
	if err := os.MkdirAll(w.home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.home, "config.yaml"), []byte("remote:\n  allow: [127.0.0.0/8]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.env = append(w.env, "SSL_CERT_FILE="+certFile, "SSL_CERT_DIR="+filepath.Dir(certFile))
}

// copyTree copies upstream's "is registered" step: the module directory
// put into $LOLA_HOME/modules/ by hand, without lola mod add.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpstreamMarketplaceOverHTTPIsRefused is the marketplace scenario as
// upstream runs it: a plain-http catalog on 127.0.0.1. Ours refuses it by
// the remote policy's scheme rule, exit 3, and registers nothing.
func TestUpstreamMarketplaceOverHTTPIsRefused(t *testing.T) {
	exe, _ := builtLola(t)
	w := newUpstreamScenarioWorld(t, exe, upstreamScenario{})
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		t.Errorf("the catalog server was reached: %s", r.URL)
	}))
	defer srv.Close()
	r := w.run(t, "market", "add", "community", srv.URL+"/catalog.yml")
	if r.code != 3 || !strings.Contains(r.err, "remote.scheme") {
		t.Fatalf("http catalog: %+v", r)
	}
	if ents, err := os.ReadDir(filepath.Join(w.home, "market")); err == nil && len(ents) > 0 {
		t.Fatalf("a refused add left %v", ents)
	}
}

// TestUpstreamScenariosDocumented holds docs/upstream-scenarios.md to the
// table above: every scenario has one row, marked "same" or "differs".
func TestUpstreamScenariosDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "upstream-scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		rows[strings.TrimSpace(cells[1])+"/"+strings.TrimSpace(cells[2])] = strings.TrimSpace(cells[3])
	}
	for _, sc := range upstreamScenarios {
		key := sc.feature + "/" + sc.name
		want := "same"
		if sc.differs != "" {
			want = "differs"
		}
		if got, ok := rows[key]; !ok || got != want {
			t.Errorf("docs/upstream-scenarios.md: row %q is %q, want %q", key, got, want)
		}
		delete(rows, key)
	}
	for k := range rows {
		if k != "feature/scenario" && !strings.HasPrefix(k, "---") {
			t.Errorf("docs/upstream-scenarios.md: row %q is not a scenario of the table", k)
		}
	}
}

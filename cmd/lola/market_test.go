package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const marketTestCatalog = `name: Test Marketplace
version: 1.0.0
modules:
  - name: git-tools
    description: Git helpers
    version: 1.0.0
    repository: https://example.com/git-tools.git
  - name: python-lint
    description: Lint Python
    version: 2.0.0
    repository: https://example.com/python-lint.git
`

// The marketplace scenarios of today's Lola, with a local catalog file
// (ours refuses the plain-http loopback server those scenarios use).
func TestMarketCLI(t *testing.T) {
	home := modTestHome(t)
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	if err := os.WriteFile(cat, []byte(marketTestCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"market", "ls"}, exitOK, "No marketplaces registered"},
		{[]string{"market", "add", "community", cat}, exitOK, "Added marketplace 'community' with 2 modules"},
		{[]string{"market", "add", "community", cat}, exitUsage, "already exists"},
		{[]string{"market", "ls"}, exitOK, "community"},
		{[]string{"search", "git"}, exitOK, "@community/git-tools"},
		{[]string{"market", "set", "community", "--disable"}, exitOK, "disabled"},
		{[]string{"search", "git"}, exitOK, "No modules found matching 'git'"},
		{[]string{"repo", "set", "community", "--enable"}, exitOK, "enabled"},
		{[]string{"market", "update", "community"}, exitOK, "Updated marketplace 'community'"},
		{[]string{"market", "set", "community"}, exitUsage, "--enable or --disable"},
		{[]string{"market", "rm", "community"}, exitOK, "Removed marketplace 'community'"},
		{[]string{"market", "rm", "nonexistent"}, exitOK, "not found"},
		{[]string{"market", "add", "../evil", cat}, exitUsage, "marketplace name"},
		{[]string{"market", "add", "x", "http://example.com/c.yml"}, exitRejected, "remote.scheme"},
		// The default configuration refuses a loopback catalog server.
		{[]string{"market", "add", "x", "https://127.0.0.1:1/c.yml"}, exitRejected, "remote.destination"},
		{[]string{"market"}, exitUsage, "lola market needs a command"},
	}
	for _, s := range steps {
		code, out, errOut := runLola(t, s.args...)
		if code != s.code || !strings.Contains(out+errOut, s.want) {
			t.Fatalf("lola %v: exit %d, want %d with %q\n%s%s", s.args, code, s.code, s.want, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "market", "x.yml")); err == nil {
		t.Fatal("a refused add registered the marketplace")
	}
	code, out, _ := runLola(t, "market", "add", "community", cat)
	if code != exitOK {
		t.Fatal(out)
	}
	if code, out, _ := runLola(t, "search", "git"); code != exitOK || strings.Contains(out, "python-lint") {
		t.Fatalf("search git shows python-lint:\n%s", out)
	}
}

// install @MARKET/MODULE clones the entry's repository under the remote
// policy: a repository whose name resolves to loopback is refused
// (remote.destination, exit 3) and nothing reaches the store or project.
func TestInstallFromMarketplaceRefusedByPolicy(t *testing.T) {
	home := addLoopbackMarket(t)
	project := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"install", "@community/local-tools", "-a", "claude-code", project}, exitRejected, "remote.destination"},
		{[]string{"install", "local-tools", "-a", "claude-code", project}, exitRejected, "remote.destination"},
		{[]string{"install", "@community/absent", "-a", "claude-code", project}, exitInternal, "not found"},
		{[]string{"install", "@nowhere/local-tools", "-a", "claude-code", project}, exitInternal, "not found"},
		{[]string{"install", "@community/local-tools", "--dry-run", "-a", "claude-code", project}, exitUsage, "--dry-run fetches nothing"},
		{[]string{"install", "absent@v1", "-a", "claude-code", project}, exitInternal, "not found"},
	} {
		code, out, errOut := runLola(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("lola %v: exit %d, want %d with %q\n%s%s", tc.args, code, tc.code, tc.want, out, errOut)
		}
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Errorf("the store holds %v", es)
	}
	if got := projectEntries(t, project); len(got) != 0 {
		t.Errorf("the project holds %v", got)
	}
}

// NAME@REF applies to git modules only; a folder module is a usage error
// and stays as it was.
func TestInstallRefOfFolderModule(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "folder-mod")
	modWriteFiles(t, src, map[string]string{"skills/one/SKILL.md": "---\ndescription: one\n---\n"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	if code, out, errOut := runLola(t, "install", "folder-mod@v1", "-a", "claude-code", t.TempDir()); code != exitUsage || !strings.Contains(errOut, "git") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
}

// addLoopbackMarket registers, in a fresh $LOLA_HOME (returned), the
// marketplace "community" whose one module, local-tools, names a
// repository on a host that resolves to loopback: the catalog's checks
// pass it (names are resolved when cloned), the remote client refuses it.
func addLoopbackMarket(t *testing.T) string {
	t.Helper()
	home := modTestHome(t)
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	body := "name: t\nversion: '1'\nmodules:\n  - name: local-tools\n    description: d\n    version: '1'\n    repository: https://localhost/local-tools.git\n"
	if err := os.WriteFile(cat, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatalf("add: %d %s %s", code, out, errOut)
	}
	return home
}

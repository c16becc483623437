package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
)

const gitCatalogV1 = "name: Team\nversion: 1.0.0\nmodules:\n  - name: git-tools\n    description: Git helpers\n    version: 1.0.0\n    repository: https://example.com/git-tools.git\n"

// marketEntries lists $LOLA_HOME/market, to show a refused add left nothing.
func marketEntries(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	filepath.Walk(filepath.Join(home, "market"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// A git-hosted catalog through a real clone by host/remote's client, in a
// child lola trusting the test server: market add reads marketplace.yml
// from an https .git URL, search finds its modules, and market update
// clones again and sees a new commit.
func TestMarketGitCatalogEndToEnd(t *testing.T) {
	repo := remotetest.NewGitRepo(t)
	repo.Commit(map[string]string{"marketplace.yml": gitCatalogV1, "README.md": "catalog\n"})
	srv := extTLSServer(t, repo.Handler())
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	url := srv.URL + "/repo.git"
	if code, out, errOut := extLolaChild(t, home, certs, "market", "add", "team", url); code != exitOK || !strings.Contains(out, "Added marketplace 'team' with 1 module") {
		t.Fatalf("market add: %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := extLolaChild(t, home, certs, "search", "git"); code != exitOK || !strings.Contains(out, "@team/git-tools") {
		t.Fatalf("search: %d\n%s", code, out)
	}
	repo.Commit(map[string]string{"marketplace.yml": gitCatalogV1 + "  - name: git-hooks\n    description: Hooks\n    version: 0.1.0\n    repository: https://example.com/git-hooks.git\n"})
	if code, out, errOut := extLolaChild(t, home, certs, "market", "update", "team"); code != exitOK {
		t.Fatalf("market update: %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := extLolaChild(t, home, certs, "search", "git-hooks"); code != exitOK || !strings.Contains(out, "@team/git-hooks") {
		t.Fatalf("search after update: %d\n%s", code, out)
	}
}

// Refusals a real clone decides: a loopback server config.yaml does not
// admit (remote.destination), and a catalog that is a symbolic link in the
// repository (path.symlink). Each exits 3 and registers nothing.
func TestMarketGitCatalogRefusedThroughAClone(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		admit bool
		rule  string
	}{
		"loopback not admitted": {map[string]string{"marketplace.yml": gitCatalogV1}, false, "remote.destination"},
		"catalog is a symlink":  {map[string]string{"real.txt": gitCatalogV1, "marketplace.yml": "->real.txt"}, true, "path.symlink"},
	} {
		t.Run(name, func(t *testing.T) {
			repo := remotetest.NewGitRepo(t)
			repo.Commit(c.files)
			srv := extTLSServer(t, repo.Handler())
			home := extRemoteHome(t)
			if c.admit {
				home = extRemoteHome(t, srv)
			}
			code, out, errOut := extLolaChild(t, home, remotetest.CertFile(t, srv), "market", "add", "team", srv.URL+"/repo.git")
			if code != exitRejected || !strings.Contains(errOut, c.rule) {
				t.Fatalf("exit %d, want 3 with %s\n%s%s", code, c.rule, out, errOut)
			}
			if left := marketEntries(t, home); len(left) != 0 {
				t.Fatalf("a refused add left %v", left)
			}
		})
	}
}

// Package remotetest builds what tests of lola's remote intakes serve:
// a git repository published by git http-backend, and the PEM bundle a
// child lola trusts for an httptest TLS server. It is for tests only.
package remotetest

import (
	"bytes"
	"encoding/pem"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitRepo is a work tree whose commits are published as the bare
// repository /repo.git under Handler. It needs the system git; without
// one, NewGitRepo skips the test.
type GitRepo struct {
	t          testing.TB
	root, work string
	git        string
}

// NewGitRepo makes an empty repository (branch main); nothing is served
// until the first Commit.
func NewGitRepo(t testing.TB) *GitRepo {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("the system git is needed to build a fixture repository")
	}
	root := t.TempDir()
	g := &GitRepo{t: t, root: root, work: filepath.Join(root, "work"), git: gitBin}
	for _, d := range []string{g.work, filepath.Join(root, "srv")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g.run(g.work, "init", "-q", "-b", "main")
	return g
}

func (g *GitRepo) run(dir string, args ...string) {
	g.t.Helper()
	cmd := exec.Command(g.git, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+g.root,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		g.t.Fatalf("git %v: %v\n%s", args, err, out.Bytes())
	}
}

// Commit writes files into the work tree (a body "->target" makes a
// symbolic link to target), commits them, and publishes the result as
// /repo.git.
func (g *GitRepo) Commit(files map[string]string) {
	g.t.Helper()
	for name, body := range files {
		p := filepath.Join(g.work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			g.t.Fatal(err)
		}
		os.Remove(p)
		var err error
		if target, ok := strings.CutPrefix(body, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(body), 0o644)
		}
		if err != nil {
			g.t.Fatal(err)
		}
	}
	g.run(g.work, "add", "-A")
	g.run(g.work, "commit", "-q", "-m", "c")
	bare := filepath.Join(g.root, "srv", "repo.git")
	os.RemoveAll(bare)
	g.run(g.root, "clone", "-q", "--bare", g.work, bare)
}

// Executable marks the named files executable (mode 100755 in the tree),
// commits that and publishes the result.
func (g *GitRepo) Executable(names ...string) {
	g.t.Helper()
	for _, n := range names {
		if err := os.Chmod(filepath.Join(g.work, filepath.FromSlash(n)), 0o755); err != nil {
			g.t.Fatal(err)
		}
	}
	g.Commit(nil)
}

// Tag tags the last commit name and publishes it.
func (g *GitRepo) Tag(name string) {
	g.t.Helper()
	g.run(g.work, "tag", name)
	bare := filepath.Join(g.root, "srv", "repo.git")
	os.RemoveAll(bare)
	g.run(g.root, "clone", "-q", "--bare", g.work, bare)
}

// Handler is git http-backend serving the published repository.
func (g *GitRepo) Handler() http.Handler {
	g.t.Helper()
	execPath, err := exec.Command(g.git, "--exec-path").Output()
	if err != nil {
		g.t.Skip("git --exec-path failed")
	}
	return &cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + filepath.Join(g.root, "srv"), "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"},
	}
}

// CertFile writes the servers' certificates as one PEM bundle in a
// temporary directory, for a child process's SSL_CERT_FILE (Go's system
// roots on Unix read it), and returns its path.
func CertFile(t testing.TB, servers ...*httptest.Server) string {
	t.Helper()
	var b bytes.Buffer
	for _, s := range servers {
		pem.Encode(&b, &pem.Block{Type: "CERTIFICATE", Bytes: s.Certificate().Raw})
	}
	p := filepath.Join(t.TempDir(), "roots.pem")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

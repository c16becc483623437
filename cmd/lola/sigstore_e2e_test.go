package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"debug/buildinfo"
	"encoding/pem"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/sigverify"
)

// The built lola links no sigstore-go (its initialisation alone cost
// every command about 16 ms); lola-sigstore, beside it, does.
func TestBuiltLolaDoesNotLinkSigstore(t *testing.T) {
	exe, _ := builtLola(t)
	for _, c := range []struct {
		bin  string
		want bool
	}{{exe, false}, {filepath.Join(filepath.Dir(exe), sigverify.HelperExecutable), true}} {
		info, err := buildinfo.ReadFile(c.bin)
		if err != nil {
			t.Fatalf("%s: %v (make build)", c.bin, err)
		}
		linked := false
		for _, d := range info.Deps {
			if strings.HasPrefix(d.Path, "github.com/sigstore/") {
				linked = true
			}
		}
		if linked != c.want {
			t.Errorf("%s links sigstore: %v, want %v", filepath.Base(c.bin), linked, c.want)
		}
	}
}

// Through the built binaries: a bundle `lola ext sign` made verifies
// through lola-sigstore when the key is trusted; one for other bytes is
// refused; and a lola with no lola-sigstore beside it verifies nothing: it
// refuses the signed extension, naming the missing helper, and installs
// nothing.
func TestBuiltLolaVerifiesThroughLolaSigstore(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	exe, _ := builtLola(t)
	home, work := t.TempDir(), t.TempDir()
	env := []string{"LOLA_HOME=" + home}
	newExt := func(name, script string) string {
		src := filepath.Join(work, name)
		modWriteFiles(t, src, map[string]string{
			"lola-extension.yaml": "name: " + name + "\nversion: 1.0.0\nkind: target\nartifacts:\n  tier2: dist/" + name + "\npaths: [" + name + "/]\n",
		})
		os.MkdirAll(filepath.Join(src, "dist"), 0o755)
		if err := os.WriteFile(filepath.Join(src, "dist", name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return src
	}
	script := "#!/bin/sh\ncat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[]}'\n"
	keyFile, pub := authorKey(t, work)
	os.WriteFile(filepath.Join(home, "alice.pub"), pub, 0o644)
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("trust:\n  keys: [{name: alice, file: alice.pub}]\n"), 0o644)
	sign := func(src, name string) {
		if r := runBuilt(t, exe, env, "ext", "sign", "--key", keyFile, filepath.Join(src, "dist", name)); r.code != 0 {
			t.Fatalf("sign: %+v", r)
		}
	}

	good := newExt("good", script)
	sign(good, "good")
	if r := runBuilt(t, exe, env, "ext", "add", good); r.code != 0 || !strings.Contains(r.out, "signed by key alice") {
		t.Fatalf("add of a signed extension: %+v", r)
	}

	swapped := newExt("swapped", script)
	sign(swapped, "swapped")
	os.WriteFile(filepath.Join(swapped, "dist", "swapped"), []byte(script+"# changed after signing\n"), 0o755)
	if r := runBuilt(t, exe, env, "ext", "add", swapped); r.code != exitUsage || !strings.Contains(r.err, "not for these bytes") {
		t.Fatalf("add of bytes the bundle is not for: %+v", r)
	}

	// The same lola, alone in its directory.
	alone := filepath.Join(t.TempDir(), "lola")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	third := newExt("third", script)
	sign(third, "third")
	r := runBuilt(t, alone, env, "ext", "add", third)
	if r.code == 0 || !strings.Contains(r.err, sigverify.HelperExecutable) {
		t.Fatalf("add without lola-sigstore: %+v", r)
	}
	for _, name := range []string{"swapped", "third"} {
		if _, err := os.Stat(filepath.Join(home, "extensions", name)); err == nil {
			t.Errorf("%s was installed", name)
		}
	}
}

// authorKey writes a fresh ECDSA P-256 private key (unencrypted PKCS #8
// PEM) to dir/author.key, as `lola ext sign --key` reads it, and returns
// that path and the public key's PEM, for config.yaml's trust.keys.
func authorKey(t *testing.T, dir string) (keyFile string, pub []byte) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	keyFile = filepath.Join(dir, "author.key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if pub, err = sigverify.PublicKeyPEM(k); err != nil {
		t.Fatal(err)
	}
	return keyFile, pub
}

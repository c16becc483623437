package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/signature"
	"github.com/lola-pm/lola/host/signature/sigtest"
	"github.com/lola-pm/lola/host/sigverify"
)

// An author who has a cosign key signs with it: the password comes from
// $COSIGN_PASSWORD, as cosign reads it; a wrong one, or none without a
// terminal, is a usage error naming the cause, and no bundle is written.
func TestExtSignWithACosignKey(t *testing.T) {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	key, err := sigtest.CosignKey(k, []byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "cosign.key")
	os.WriteFile(keyFile, key, 0o600)
	art := filepath.Join(dir, "artifact")
	os.WriteFile(art, []byte("native bytes"), 0o755)
	bundle := art + ".sigstore.json"

	os.Unsetenv("COSIGN_PASSWORD")
	if code, _, errOut := extCLI(t, "ext", "sign", "--key", keyFile, art); code != exitUsage || !strings.Contains(errOut, "COSIGN_PASSWORD") {
		t.Fatalf("no password: %d %s", code, errOut)
	}
	t.Setenv("COSIGN_PASSWORD", "wrong")
	if code, _, errOut := extCLI(t, "ext", "sign", "--key", keyFile, art); code != exitUsage || !strings.Contains(errOut, "wrong password") {
		t.Fatalf("wrong password: %d %s", code, errOut)
	}
	if _, err := os.Stat(bundle); err == nil {
		t.Fatal("a refused sign wrote a bundle")
	}
	t.Setenv("COSIGN_PASSWORD", "s3cret")
	code, out, errOut := extCLI(t, "ext", "sign", "--key", keyFile, art)
	if code != exitOK {
		t.Fatalf("sign: %d %s", code, errOut)
	}
	pub, err := sigverify.ParsePublicKey([]byte(out[strings.Index(out, "-----BEGIN"):]))
	if ep, ok := pub.(*ecdsa.PublicKey); err != nil || !ok || !ep.Equal(&k.PublicKey) {
		t.Fatalf("printed public key: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(bundle)
	v, _ := signature.New([]signature.Key{{Name: "author", Pub: pub}}, nil, nil)
	if _, err := v.Verify(sha256.Sum256([]byte("native bytes")), b); err != nil {
		t.Fatalf("the bundle does not verify: %v", err)
	}
}

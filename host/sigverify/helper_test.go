package sigverify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeHelper makes helperPath name a shell script with body, for one test.
// The script's stdin is saved to the returned file.
func fakeHelper(t *testing.T, body string) (stdinCopy string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake helper is a POSIX shell script")
	}
	dir := t.TempDir()
	stdinCopy = filepath.Join(dir, "stdin")
	script := filepath.Join(dir, HelperExecutable)
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat > "+stdinCopy+"\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := helperPath
	helperPath = func() (string, bool) { return script, true }
	t.Cleanup(func() { helperPath = old })
	return stdinCopy
}

func testPolicy() *Policy {
	return &Policy{keys: []Key{{Name: "alice", PEM: []byte("-----BEGIN PUBLIC KEY-----\n")}}, identities: []Identity{{Issuer: "i", Subject: "s"}}, trustedRoot: []byte(`{}`)}
}

// The helper gets exactly the policy, digest and bundle, and an empty
// environment; its signer is the answer.
func TestVerifyAsksTheHelper(t *testing.T) {
	stdin := fakeHelper(t, `[ -z "$(env | grep -v '^PWD=' | grep -v '^SHLVL=' | grep -v '^_=')" ] || { echo "env: $(env)" >&2; exit 9; }
printf '{"signer":"key alice"}'`)
	d := sha256.Sum256([]byte("artifact"))
	signer, err := testPolicy().Verify(d, []byte("the bundle"))
	if err != nil || signer != "key alice" {
		t.Fatalf("%q %v", signer, err)
	}
	b, err := os.ReadFile(stdin)
	if err != nil {
		t.Fatal(err)
	}
	req, err := DecodeRequest(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	want := Request{Keys: testPolicy().keys, Identities: testPolicy().identities, TrustedRoot: []byte(`{}`), Digest: hex.EncodeToString(d[:]), Bundle: []byte("the bundle")}
	got, _ := json.Marshal(req)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Fatalf("the helper was asked\n%s\nwant\n%s", got, wantJSON)
	}
}

// Fail closed: whatever goes wrong with the helper is an error naming it,
// never a signer.
func TestVerifyFailsClosed(t *testing.T) {
	d := sha256.Sum256([]byte("artifact"))
	for name, c := range map[string]struct{ body, want string }{
		"a refusal":             {`printf '{"error":"signed by a key lola does not trust"}'`, "does not trust"},
		"exit 1":                {`echo boom >&2; exit 1`, "lola-sigstore failed"},
		"killed":                {`kill -9 $$`, "lola-sigstore failed"},
		"no answer":             {`:`, "answered no response"},
		"both signer and error": {`printf '{"signer":"key alice","error":"x"}'`, "answered no response"},
		"trailing data":         {`printf '{"signer":"key alice"} {}'`, "answered no response"},
		"an unknown field":      {`printf '{"signer":"key alice","trusted":true}'`, "answered no response"},
		"too much":              {`head -c 70000 /dev/zero | tr '\0' ' '; printf '{"signer":"key alice"}'`, "more than"},
	} {
		t.Run(name, func(t *testing.T) {
			fakeHelper(t, c.body)
			signer, err := testPolicy().Verify(d, []byte("b"))
			if err == nil || signer != "" || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%q %v, want an error containing %q", signer, err, c.want)
			}
		})
	}
	old := helperPath
	helperPath = func() (string, bool) { return "", false }
	defer func() { helperPath = old }()
	if _, err := testPolicy().Verify(d, []byte("b")); !errors.Is(err, ErrNoHelper) {
		t.Fatalf("no helper: %v", err)
	}
	if _, err := testPolicy().Verify(d, make([]byte, MaxBundleBytes+1)); err == nil || errors.Is(err, ErrNoHelper) {
		t.Fatalf("an oversized bundle reached the helper stage: %v", err)
	}
}

// A request over its bounds, with unknown fields or trailing data, does
// not decode.
func TestDecodeRequestIsStrict(t *testing.T) {
	for name, in := range map[string]string{
		"unknown field": `{"digest":"00","bundle":"","trust_everything":true}`,
		"trailing":      `{"digest":"00","bundle":""} {}`,
		"not JSON":      `digest=00`,
		"too large":     `{"digest":"` + strings.Repeat("0", MaxRequestBytes) + `"}`,
	} {
		if _, err := DecodeRequest(strings.NewReader(in)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	if _, err := DecodeRequest(strings.NewReader(`{"digest":"00","bundle":"YQ=="}`)); err != nil {
		t.Fatal(err)
	}
}

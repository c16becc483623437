package signature

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/sigverify"
)

// lola-sigstore's loop: a request in, a response out. A bundle from the
// trusted key names it; a request whose key, digest or bundle is wrong is
// an error response; a request that does not decode is exit 2 with
// nothing on stdout.
func TestMainAnswersOneRequest(t *testing.T) {
	k := newKey(t)
	art := []byte("artifact")
	bundle, err := sigverify.Sign(k, art)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := sigverify.PublicKeyPEM(k)
	d := sha256.Sum256(art)
	good := sigverify.Request{Keys: []sigverify.Key{{Name: "alice", PEM: pub}}, Digest: hex.EncodeToString(d[:]), Bundle: bundle}
	ask := func(req any) (int, sigverify.Response, string) {
		in, _ := json.Marshal(req)
		var out, errOut bytes.Buffer
		code := Main(bytes.NewReader(in), &out, &errOut)
		var resp sigverify.Response
		if out.Len() > 0 {
			if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
				t.Fatalf("stdout %q: %v", out.Bytes(), err)
			}
		}
		return code, resp, errOut.String()
	}
	if code, resp, _ := ask(good); code != 0 || resp.Signer != "key alice" || resp.Error != "" {
		t.Fatalf("good: %d %+v", code, resp)
	}
	other := sha256.Sum256([]byte("other"))
	for name, c := range map[string]struct {
		edit func(r *sigverify.Request)
		want string
	}{
		"another digest":   {func(r *sigverify.Request) { r.Digest = hex.EncodeToString(other[:]) }, "not for these bytes"},
		"a short digest":   {func(r *sigverify.Request) { r.Digest = "00" }, "not a hex sha256"},
		"a long digest":    {func(r *sigverify.Request) { r.Digest = strings.Repeat("0", 200) }, "not a hex sha256"},
		"not hex":          {func(r *sigverify.Request) { r.Digest = strings.Repeat("z", 64) }, "not a hex sha256"},
		"a broken key":     {func(r *sigverify.Request) { r.Keys[0].PEM = []byte("x") }, "trust.keys alice"},
		"no key":           {func(r *sigverify.Request) { r.Keys = nil }, "does not trust"},
		"a truncated one":  {func(r *sigverify.Request) { r.Bundle = r.Bundle[:10] }, "not a Sigstore bundle"},
		"ids without root": {func(r *sigverify.Request) { r.Identities = []sigverify.Identity{{Issuer: "i", Subject: "s"}} }, "trusted root"},
	} {
		r := good
		r.Keys = append([]sigverify.Key(nil), good.Keys...)
		c.edit(&r)
		if code, resp, _ := ask(r); code != 0 || resp.Signer != "" || !strings.Contains(resp.Error, c.want) {
			t.Errorf("%s: %d %+v, want an error containing %q", name, code, resp, c.want)
		}
	}
	var out, errOut bytes.Buffer
	if code := Main(strings.NewReader(`{"digest":"00","bundle":"","trust":true}`), &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "lola-sigstore") {
		t.Fatalf("a request that does not decode: %d %q %q", code, out.String(), errOut.String())
	}
}

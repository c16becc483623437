package audit

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Known secrets, each planted where a careless log would copy it: a write's
// content (utf8 and base64), an Authorization, Cookie and custom header
// value, URL userinfo (user and password), a URL query and fragment, and a
// path that does not parse. None may appear anywhere in the file, in any
// encoding the log could use.
func TestNoBodyNoCredentialReachesTheLog(t *testing.T) {
	const (
		body      = "BODY-7f3a-the-skill-text-nobody-logs"
		binBody   = "BINARY-c01d-secret-bytes"
		bearer    = "BEARER-91e2-token"
		cookie    = "COOKIE-55aa-session"
		custom    = "HEADERVALUE-0b0e"
		user      = "USERINFO-u-4411"
		password  = "USERINFO-p-9922"
		query     = "QUERY-sig-6677"
		fragment  = "FRAGMENT-8899"
		cloneUser = "CLONE-user-1357"
		cloneTok  = "CLONE-token-2468"
		badPath   = "PATH-secret-in-a-bad-path"
	)
	secrets := []string{body, binBody, bearer, cookie, custom, user, password, query, fragment, cloneUser, cloneTok, badPath}
	intents := []schema.Intent{
		{Write: &schema.Write{Path: "skills/s/SKILL.md", Content: body}},
		{Write: &schema.Write{Path: "bin/tool", Content: base64.StdEncoding.EncodeToString([]byte(binBody)), Encoding: schema.EncodingBase64}},
		{Fetch: &schema.Fetch{
			URL:  "https://" + user + ":" + password + "@example.org/x.tgz?token=" + query + "#" + fragment,
			Dest: "vendor/x.tgz",
			Headers: map[string]string{
				"Authorization": "Bearer " + bearer, "cookie": cookie, "X-Custom": custom, "Accept": "*/*",
			},
		}},
		{Clone: &schema.Clone{URL: "https://" + cloneUser + ":" + cloneTok + "@example.org/r.git", Dest: "vendor/r"}},
		{Write: &schema.Write{Path: "../" + badPath, Content: body}},
	}
	var recs []IntentRecord
	for i, in := range intents {
		r, err := NewIntentRecord(i, in, nil)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	l, path := openTestLog(t)
	c, err := l.Begin(PlanRecord{Extension: testExtension(t), Tier: TierNative, Capabilities: []schema.Capability{schema.CapNetHTTP, schema.CapNetGit}, Intents: recs})
	if err != nil {
		t.Fatal(err)
	}
	// The same plan through host/plan's decoder, as the CLI logs it (the
	// strict decoder may refuse userinfo; then its rejection is logged).
	js := fmt.Sprintf(`{"protocol":1,"intents":[{"op":"write","path":"a.md","content":%q},`+
		`{"op":"fetch","url":"https://%s:%s@example.org/y?q=%s","dest":"y","headers":{"Authorization":"Bearer %s"}}]}`,
		body, user, password, query, bearer)
	if p, err := decodePlanErr(js); err == nil {
		fromPlan, err := IntentsFromPlan(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Begin(PlanRecord{Extension: testExtension(t), Tier: TierPlanFile, Intents: fromPlan}); err != nil {
			t.Fatal(err)
		}
	} else if _, err := l.Rejected(Rejection{Extension: testExtension(t), Tier: TierPlanFile, Err: err}); err != nil {
		t.Fatal(err)
	}
	ref := rejection.IntentRef{Index: 2, Op: schema.OpFetch}
	if _, err := l.Rejected(Rejection{Extension: testExtension(t), Tier: TierNative, Intents: recs,
		Err: rejection.New(schema.RuleRemoteHeader, "header value "+bearer, ref)}); err != nil {
		t.Fatal(err)
	}
	must(t, l.Outcome(c, RolledBack(ref, fmt.Errorf("dial %s: %w", custom, rejection.New(schema.RuleRemoteBound, body, ref)))))

	raw := readFile(t, path)
	for _, s := range secrets {
		for _, form := range []string{s, base64.StdEncoding.EncodeToString([]byte(s)), strings.ToLower(s)} {
			if bytes.Contains(raw, []byte(form)) {
				t.Errorf("secret %q reached the log", s)
			}
		}
	}
	// What must be there instead: hashes, names, a redacted URL.
	es, err := Read(path, Filter{Correlation: c})
	if err != nil {
		t.Fatal(err)
	}
	in := es[0].Plan.Intents
	if in[0].SHA256 != sha([]byte(body)) || in[1].SHA256 != sha([]byte(binBody)) {
		t.Error("content is not logged as the sha256 of its decoded bytes")
	}
	if f := in[2]; f.URL != "https://example.org/x.tgz?REDACTED" ||
		fmt.Sprint(f.Headers) != "[Accept X-Custom]" || fmt.Sprint(f.DroppedHeaders) != "[Authorization cookie]" {
		t.Errorf("fetch logged as %+v", f)
	}
	if in[3].URL != "https://example.org/r.git" {
		t.Errorf("clone URL logged as %q", in[3].URL)
	}
	if b := in[4]; len(b.Paths) != 0 || len(b.Unparsed) != 1 || b.Unparsed[0].Field != "path" ||
		b.Unparsed[0].SHA256 != sha([]byte("../"+badPath)) || b.Unparsed[0].Bytes != len("../"+badPath) {
		t.Errorf("an unparsable path must be logged as a digest: %+v", b)
	}
}

// Hostile values in every free-text field of an intent are logged as
// digests, never verbatim.
func TestUntrustedFieldsOutsideTheirVocabularyAreDigested(t *testing.T) {
	long := strings.Repeat("A", 5000)
	cases := []struct {
		name  string
		in    schema.Intent
		field string
	}{
		{"header name with CRLF", schema.Intent{Fetch: &schema.Fetch{URL: "https://e.org/", Dest: "d", Headers: map[string]string{"X\r\nInjected: 1": "v"}}}, "header"},
		{"huge URL", schema.Intent{Fetch: &schema.Fetch{URL: "https://e.org/" + long, Dest: "d"}}, "url"},
		{"URL with spaces", schema.Intent{Clone: &schema.Clone{URL: "https://e.org/a b", Dest: "d"}}, "url"},
		{"opaque URL", schema.Intent{Clone: &schema.Clone{URL: "mailto:someone@example.org", Dest: "d"}}, "url"},
		{"method with spaces", schema.Intent{Fetch: &schema.Fetch{URL: "https://e.org/", Dest: "d", Method: "GET / HTTP/1.1"}}, "method"},
		{"ref with newline", schema.Intent{Clone: &schema.Clone{URL: "https://e.org/r", Dest: "d", Ref: "main\nx"}}, "ref"},
		{"absolute dest", schema.Intent{Clone: &schema.Clone{URL: "https://e.org/r", Dest: "/etc/cron.d/x"}}, "dest"},
		{"traversal rename", schema.Intent{Rename: &schema.Rename{From: "a", To: "../../x"}}, "to"},
		{"bad base64", schema.Intent{Write: &schema.Write{Path: "p", Content: "!!!" + long, Encoding: schema.EncodingBase64}}, "content"},
	}
	for _, tc := range cases {
		r, err := NewIntentRecord(3, tc.in, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		e := r.entry()
		found := false
		for _, d := range e.Unparsed {
			if d.Field == tc.field && len(d.SHA256) == 64 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s digest in %+v", tc.name, tc.field, e)
		}
		l, path := openTestLog(t)
		if _, err := l.Begin(PlanRecord{Extension: testExtension(t), Tier: TierWasm, Intents: []IntentRecord{r}}); err != nil {
			t.Fatal(err)
		}
		raw := readFile(t, path)
		for _, bad := range []string{"Injected", long[:100], "a b", "someone", "HTTP/1.1", "main\\nx", "/etc/cron.d", "../../x", "!!!"} {
			if bytes.Contains(raw, []byte(bad)) {
				t.Errorf("%s: %q reached the log", tc.name, bad)
			}
		}
	}
}

func TestWithDroppedHeaders(t *testing.T) {
	r, err := NewIntentRecord(0, schema.Intent{Fetch: &schema.Fetch{URL: "https://e.org/", Dest: "d"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2 := r.WithDroppedHeaders("Proxy-Authorization", "Cookie", "bad name")
	if e := r2.entry(); fmt.Sprint(e.DroppedHeaders) != "[Cookie Proxy-Authorization]" || len(e.Unparsed) != 1 || e.Unparsed[0].Field != "header" {
		t.Errorf("dropped headers: %+v", e)
	}
	if e := r.entry(); len(e.DroppedHeaders) != 0 {
		t.Error("WithDroppedHeaders mutated the original record")
	}
}

// A signature description reaches the log as one bounded line: control
// characters become "?", invalid UTF-8 is replaced, and an overlong
// signer is cut to 256 bytes.
func TestSignatureIsLoggedBoundedOnOneLine(t *testing.T) {
	id, err := NewExtension("x", "1")
	if err != nil {
		t.Fatal(err)
	}
	if s := id.WithSignature("signed by dev@example.org\n{\"forged\":1}\x1b[31m\xff").Signature(); s != "signed by dev@example.org?{\"forged\":1}?[31m?" {
		t.Errorf("signature %q", s)
	}
	long := id.WithSignature("signed by " + strings.Repeat("é", 300)).Signature()
	if len(long) > maxSignature || !utf8.ValidString(long) || !strings.HasSuffix(long, "...") {
		t.Errorf("long signature: %d bytes, valid %v: %q", len(long), utf8.ValidString(long), long)
	}
	if e := id.WithSignature("unsigned, opted in").entry(); e.Signature != "unsigned, opted in" {
		t.Errorf("entry %+v", e)
	}
}

package plan_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func decodeString(t testing.TB, s string) (*plan.Plan, error) {
	t.Helper()
	return plan.Decode(strings.NewReader(s), vectorLimits(t))
}

func wrap(intents ...string) string {
	return `{"protocol":1,"intents":[` + strings.Join(intents, ",") + `]}`
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []schema.Intent
	}{
		{"empty plan", `{"protocol": 1, "intents": []}`, nil},
		{"trailing whitespace", "{\"protocol\":1,\"intents\":[]} \r\n\t", nil},
		{"intents before protocol", `{"intents":[],"protocol":1}`, nil},
		{"write with every option", wrap(`{"op":"write","path":"bin/x","content":"AAEC","encoding":"base64","executable":true}`),
			[]schema.Intent{{Write: &schema.Write{Path: "bin/x", Content: "AAEC", Encoding: schema.EncodingBase64, Executable: true}}}},
		{"write with if_content", wrap(`{"op":"write","path":"CLAUDE.md","content":"x","if_content":"sha256:`+strings.Repeat("0a", 32)+`"}`, `{"op":"write","path":"AGENTS.md","content":"y","if_content":"absent"}`),
			[]schema.Intent{{Write: &schema.Write{Path: "CLAUDE.md", Content: "x", IfContent: "sha256:" + strings.Repeat("0a", 32)}}, {Write: &schema.Write{Path: "AGENTS.md", Content: "y", IfContent: "absent"}}}},
		{"op last", wrap(`{"content":"c","path":"p","op":"write"}`),
			[]schema.Intent{{Write: &schema.Write{Path: "p", Content: "c"}}}},
		{"escapes and a surrogate pair", wrap(`{"op":"write","path":"caf\u00e9","content":"\ud83d\ude00\"\\\/\b\f\n\r\t\u0000"}`),
			[]schema.Intent{{Write: &schema.Write{Path: "café", Content: "😀\"\\/\b\f\n\r\t\x00"}}}},
		{"delete and rename", wrap(`{"op":"delete","path":"a"}`, `{"op":"rename","from":"a/x","to":"b/x"}`),
			[]schema.Intent{{Delete: &schema.Delete{Path: "a"}}, {Rename: &schema.Rename{From: "a/x", To: "b/x"}}}},
		// Paths are host/pathrule's: this package decodes them as text.
		{"hostile paths decode here", wrap(`{"op":"write","path":"/etc/passwd","content":""}`, `{"op":"delete","path":"../.."}`, `{"op":"delete","path":""}`),
			[]schema.Intent{{Write: &schema.Write{Path: "/etc/passwd"}}, {Delete: &schema.Delete{Path: "../.."}}, {Delete: &schema.Delete{Path: ""}}}},
		{"fetch with method and headers", wrap(`{"op":"fetch","url":"https://example.org/a","dest":"v/a","method":"GET","headers":{"Accept":"*/*","X-Tab":"a\tb"}}`),
			[]schema.Intent{{Fetch: &schema.Fetch{URL: "https://example.org/a", Dest: "v/a", Method: "GET", Headers: map[string]string{"Accept": "*/*", "X-Tab": "a\tb"}}}}},
		{"empty headers read as none", wrap(`{"op":"fetch","url":"https://example.org/a","dest":"v/a","headers":{}}`),
			[]schema.Intent{{Fetch: &schema.Fetch{URL: "https://example.org/a", Dest: "v/a"}}}},
		{"clone https and ssh", wrap(`{"op":"clone","url":"https://example.org/r.git","dest":"v/r","ref":"v1","depth":1}`, `{"op":"clone","url":"ssh://example.org:22/r.git","dest":"v/s","depth":0}`),
			[]schema.Intent{{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: "v/r", Ref: "v1", Depth: 1}}, {Clone: &schema.Clone{URL: "ssh://example.org:22/r.git", Dest: "v/s"}}}},
		{"largest depth", wrap(`{"op":"clone","url":"https://example.org/r.git","dest":"v/r","depth":2147483647}`),
			[]schema.Intent{{Clone: &schema.Clone{URL: "https://example.org/r.git", Dest: "v/r", Depth: plan.MaxCloneDepth}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := decodeString(t, tt.in)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			got := p.Intents()
			if len(got) == 0 {
				got = nil
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Fatalf("intents (-want +got):\n%s", d)
			}
			if p.Len() != len(tt.want) {
				t.Fatalf("Len %d, want %d", p.Len(), len(tt.want))
			}
		})
	}
}

// TestDecodeRefuses is one attack per rule (the vectors hold many more),
// asserting the rule, the intent named, and what the detail must say.
func TestDecodeRefuses(t *testing.T) {
	ok := `{"op":"delete","path":"a"}`
	tests := []struct {
		name   string
		in     string
		rule   schema.Rule
		intent int // -1: the violation names no intent
		detail string
	}{
		{"garbage", `<plan/>`, schema.RulePlanMalformed, -1, "expected a JSON object"},
		{"trailing object", `{"protocol":1,"intents":[]}{}`, schema.RulePlanMalformed, -1, "trailing data"},
		{"truncated", `{"protocol":1,"intents":[` + ok, schema.RulePlanMalformed, -1, "unexpected end of input"},
		{"wrong type in third intent", wrap(ok, ok, `{"op":"write","path":"a","content":true}`), schema.RulePlanMalformed, 2, `member "content": expected a string`},
		{"if_content of another hash", wrap(ok, `{"op":"write","path":"a","content":"x","if_content":"md5:0cc175b9c0f1b6a831c399e269772661"}`), schema.RulePlanMalformed, 1, `if_content "md5:`},
		{"if_content in upper case", wrap(`{"op":"write","path":"a","content":"x","if_content":"sha256:` + strings.Repeat("A", 64) + `"}`), schema.RulePlanMalformed, 0, "lowercase hex"},
		{"if_content on a delete", wrap(`{"op":"delete","path":"a","if_content":"absent"}`), schema.RulePlanUnknownField, 0, `"if_content" is not a member of delete`},
		{"negative depth", wrap(`{"op":"clone","url":"https://e.org/r","dest":"r","depth":-5}`), schema.RulePlanMalformed, 0, "depth -5"},
		{"unknown top-level member", `{"protocol":1,"intents":[],"x":1}`, schema.RulePlanUnknownField, -1, `unknown member "x"`},
		{"member of another op", wrap(ok, `{"op":"delete","path":"a","content":"x"}`), schema.RulePlanUnknownField, 1, `"content" is not a member of delete`},
		{"member of another op before op", wrap(`{"url":"https://e.org/","op":"write","path":"a","content":"b"}`), schema.RulePlanUnknownField, 0, `"url" is not a member of write`},
		{"unknown op", wrap(ok, `{"op":"chmod","path":"a"}`), schema.RulePlanUnknownOp, 1, `unknown op "chmod"`},
		{"duplicate member", wrap(`{"op":"delete","path":"a","path":"b"}`), schema.RulePlanDuplicateKey, 0, `"path" named twice`},
		{"duplicate via escape", `{"protocol":1,"\u0070rotocol":1,"intents":[]}`, schema.RulePlanDuplicateKey, -1, `"protocol" named twice`},
		{"missing op", wrap(`{"path":"a"}`), schema.RulePlanMissingField, 0, `"op" is required`},
		{"missing to", wrap(`{"op":"rename","from":"a"}`), schema.RulePlanMissingField, 0, `"to" is required for rename`},
		{"protocol 2", `{"protocol":2,"intents":[]}`, schema.RulePlanProtocol, -1, "version 2"},
		{"raw invalid UTF-8", wrap(`{"op":"delete","path":"a` + "\xc3\x28" + `"}`), schema.RulePlanInvalidUTF8, 0, `member "path"`},
		{"lone surrogate", wrap(`{"op":"delete","path":"\udfff"}`), schema.RulePlanInvalidUTF8, 0, "lone low surrogate"},
		{"unknown encoding", wrap(`{"op":"write","path":"a","content":"b","encoding":"gzip"}`), schema.RulePlanEncoding, 0, `"gzip"`},
		{"bad base64", wrap(`{"op":"write","path":"a","content":"!!!!","encoding":"base64"}`), schema.RulePlanEncoding, 0, "not valid base64"},
		{"base64 declared after content", wrap(`{"op":"write","path":"a","content":"abc","encoding":"base64"}`), schema.RulePlanEncoding, 0, "not valid base64"},
		{"field too large", wrap(`{"op":"write","path":"a","content":"` + strings.Repeat("y", 4097) + `"}`), schema.RulePlanFieldTooLarge, 0, "longer than 4096 bytes"},
		{"too many intents", wrap(strings.Repeat(ok+",", 64) + ok), schema.RulePlanTooManyIntents, -1, "more than 64 intents"},
		{"too large", `{"protocol":1,"intents":[]}` + strings.Repeat(" ", 65536), schema.RulePlanTooLarge, -1, "exceeds 65536 bytes"},
		{"HEAD", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","method":"HEAD"}`), schema.RuleRemoteMethod, 0, `"HEAD"`},
		{"POST", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","method":"POST"}`), schema.RuleRemoteMethod, 0, `"POST"`},
		{"lower-case get", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","method":"get"}`), schema.RuleRemoteMethod, 0, `"get"`},
		{"http fetch", wrap(`{"op":"fetch","url":"http://e.org/a","dest":"a"}`), schema.RuleRemoteScheme, 0, `scheme "http"`},
		{"ssh fetch", wrap(`{"op":"fetch","url":"ssh://e.org/a","dest":"a"}`), schema.RuleRemoteScheme, 0, `scheme "ssh"`},
		{"http clone", wrap(`{"op":"clone","url":"http://e.org/r","dest":"r"}`), schema.RuleRemoteScheme, 0, "https or ssh"},
		{"userinfo", wrap(`{"op":"fetch","url":"https://u:p@e.org/a","dest":"a"}`), schema.RuleRemoteURL, 0, "userinfo"},
		{"unparsable", wrap(`{"op":"fetch","url":"https://e.org:x/","dest":"a"}`), schema.RuleRemoteURL, 0, "not an absolute URL"},
		{"Host header", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"hOsT":"x"}}`), schema.RuleRemoteHeader, 0, `"hOsT" changes framing`},
		{"CRLF in header value", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"X":"a\r\nHost: b"}}`), schema.RuleRemoteHeader, 0, "control character"},
		{"header name not a token", wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"X(Y)":"a"}}`), schema.RuleRemoteHeader, 0, "not a token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := decodeString(t, tt.in)
			if err == nil {
				t.Fatalf("accepted %d intents, want %s", p.Len(), tt.rule)
			}
			if !errors.Is(err, rejection.Rule(tt.rule)) {
				t.Fatalf("got %v, want %s", err, tt.rule)
			}
			var v *rejection.Violation
			if !errors.As(err, &v) {
				t.Fatalf("%T is not a *rejection.Violation", err)
			}
			if tt.intent < 0 && len(v.Intents) != 0 {
				t.Errorf("names intents %v, want none", v.Intents)
			}
			if tt.intent >= 0 && (len(v.Intents) != 1 || v.Intents[0].Index != tt.intent) {
				t.Errorf("names intents %v, want #%d", v.Intents, tt.intent)
			}
			if !strings.Contains(v.Detail, tt.detail) {
				t.Errorf("detail %q does not say %q", v.Detail, tt.detail)
			}
		})
	}
}

// TestViolationNamesTheOp: once the op is read, the violation names it.
func TestViolationNamesTheOp(t *testing.T) {
	_, err := decodeString(t, wrap(`{"op":"fetch","url":"http://e.org/a","dest":"a"}`))
	var v *rejection.Violation
	if !errors.As(err, &v) || len(v.Intents) != 1 || v.Intents[0].Op != schema.OpFetch {
		t.Fatalf("got %#v", err)
	}
}

// TestDetailNeverEchoesSecretsOrBodies: header values, URLs and contents
// are never repeated; names are repeated only as a short, escaped prefix.
func TestDetailNeverEchoesSecretsOrBodies(t *testing.T) {
	const secret = "s3cr3t-T0KEN"
	long := strings.Repeat("Z", 500)
	tests := []string{
		wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"X-Api":"` + secret + `\r\n"}}`),
		wrap(`{"op":"fetch","url":"https://user:` + secret + `@e.org/a","dest":"a"}`),
		wrap(`{"op":"fetch","url":"http://e.org/` + secret + `","dest":"a"}`),
		wrap(`{"op":"fetch","url":"https://e.org/` + secret + ` x","dest":"a"}`),
		wrap(`{"op":"write","path":"a","content":"` + secret + `!","encoding":"base64"}`),
		wrap(`{"op":"write","path":"a","content":"` + secret + `\ud800"}`),
		wrap(`{"op":"write","path":"a","content":"` + secret + long + long + long + long + long + long + long + long + long + `"}`),
		wrap(`{"op":"` + long + `"}`),
		wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"` + long + `:":"v"}}`),
		wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","method":"` + long + `"}`),
		wrap(`{"op":"delete","path":"a","` + long + `":1}`),
		`{"protocol":1,"intents":[],"` + "\x1b[31m" + `":1}`,
	}
	for i, in := range tests {
		_, err := decodeString(t, in)
		if err == nil {
			t.Errorf("case %d accepted", i)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, secret) || strings.Contains(msg, "s3cr3t") {
			t.Errorf("case %d echoes the secret: %s", i, msg)
		}
		if strings.Contains(msg, strings.Repeat("Z", 25)) {
			t.Errorf("case %d echoes more than a short prefix: %s", i, msg)
		}
		if strings.ContainsAny(msg, "\x1b\r\n") {
			t.Errorf("case %d echoes control characters: %q", i, msg)
		}
	}
}

func TestDroppedHeaders(t *testing.T) {
	p, err := decodeString(t, wrap(
		`{"op":"delete","path":"x"}`,
		`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"Accept":"*/*","authorization":"Bearer t","X-A":"1"}}`,
		`{"op":"fetch","url":"https://e.org/b","dest":"b","headers":{"COOKIE":"s=1","Proxy-Authorization":"Basic eA=="}}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	want := []plan.DroppedHeader{{Index: 1, Name: "authorization"}, {Index: 2, Name: "COOKIE"}, {Index: 2, Name: "Proxy-Authorization"}}
	if d := cmp.Diff(want, p.DroppedHeaders()); d != "" {
		t.Fatalf("dropped (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"Accept": "*/*", "X-A": "1"}, p.Intent(1).Fetch.Headers); d != "" {
		t.Fatalf("kept headers (-want +got):\n%s", d)
	}
	if h := p.Intent(2).Fetch.Headers; h != nil {
		t.Fatalf("every header of intent 2 was dropped, kept %v", h)
	}
	got := p.DroppedHeaders()
	got[0].Name = "changed"
	if p.DroppedHeaders()[0].Name != "authorization" {
		t.Fatal("DroppedHeaders exposes the plan's own slice")
	}
	p2, err := decodeString(t, wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a"}`))
	if err != nil || p2.DroppedHeaders() != nil {
		t.Fatalf("nothing dropped: got %v, %v", p2.DroppedHeaders(), err)
	}
}

func TestBody(t *testing.T) {
	p, err := decodeString(t, wrap(
		`{"op":"write","path":"t","content":"caf\u00e9"}`,
		`{"op":"write","path":"b","content":"AAEC/w==","encoding":"base64"}`,
		`{"op":"write","path":"e","content":"","encoding":"base64"}`,
		`{"op":"delete","path":"d"}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]byte{[]byte("café"), {0, 1, 2, 0xff}, {}} {
		got, err := p.Body(i)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Body(%d) = %v, %v; want %v", i, got, err, want)
		}
	}
	b, _ := p.Body(1)
	b[0] = 42
	if again, _ := p.Body(1); again[0] != 0 {
		t.Error("Body returns shared memory")
	}
	for _, i := range []int{3, 4, -1} {
		if _, err := p.Body(i); err == nil {
			t.Errorf("Body(%d) succeeded", i)
		}
	}
}

func TestIntentsAreDeepCopies(t *testing.T) {
	p, err := decodeString(t, wrap(
		`{"op":"write","path":"a","content":"b"}`,
		`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{"Accept":"x"}}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	all := p.Intents()
	all[0].Write.Path = "changed"
	all[1].Fetch.Headers["Accept"] = "changed"
	all[1].Fetch.Headers["Host"] = "evil"
	one := p.Intent(1)
	one.Fetch.URL = "http://evil/"
	if p.Intent(0).Write.Path != "a" || p.Intent(1).Fetch.URL != "https://e.org/a" {
		t.Fatal("a returned intent aliases the plan")
	}
	if d := cmp.Diff(map[string]string{"Accept": "x"}, p.Intent(1).Fetch.Headers); d != "" {
		t.Fatalf("headers alias the plan:\n%s", d)
	}
}

func TestNewLimits(t *testing.T) {
	for _, c := range []struct {
		bytes   int64
		intents int
		field   int64
	}{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {-1, 1, 1}, {1, -1, 1}, {1, 1, -1}} {
		if _, err := plan.NewLimits(c.bytes, c.intents, c.field); err == nil {
			t.Errorf("NewLimits(%d, %d, %d) accepted", c.bytes, c.intents, c.field)
		}
	}
	l, err := plan.NewLimits(10, 2, 3)
	if err != nil || l.MaxBytes() != 10 || l.MaxIntents() != 2 || l.MaxField() != 3 {
		t.Fatalf("NewLimits(10, 2, 3) = %+v, %v", l, err)
	}
	d := plan.DefaultLimits()
	if d.MaxBytes() <= 0 || d.MaxIntents() <= 0 || d.MaxField() <= 0 {
		t.Fatalf("DefaultLimits not positive: %+v", d)
	}
	// The zero value was not validated and must not be usable.
	_, err = plan.Decode(strings.NewReader(`{"protocol":1,"intents":[]}`), plan.Limits{})
	if err == nil {
		t.Fatal("Decode accepted zero Limits")
	}
	if rejection.All(err) != nil {
		t.Fatalf("zero Limits is the caller's error, not a plan violation: %v", err)
	}
}

// TestRuleIndependentOfChunking: the same bytes get the same verdict,
// however the reader delivers them.
func TestRuleIndependentOfChunking(t *testing.T) {
	for name, b := range readVectors(t, "valid/*.json") {
		checkChunking(t, name, b)
	}
	for name, b := range readVectors(t, "invalid/*/*.json") {
		checkChunking(t, name, b)
	}
}

func checkChunking(t *testing.T, name string, b []byte) {
	t.Helper()
	_, want := plan.Decode(bytes.NewReader(b), vectorLimits(t))
	for _, r := range []io.Reader{
		iotest.OneByteReader(bytes.NewReader(b)),
		iotest.DataErrReader(bytes.NewReader(b)),
		iotest.HalfReader(bytes.NewReader(b)),
	} {
		_, got := plan.Decode(r, vectorLimits(t))
		if (want == nil) != (got == nil) || (want != nil && want.Error() != got.Error()) {
			t.Errorf("%s: %v with bytes.Reader, %v chunked", name, want, got)
		}
	}
}

func TestHeaderCount(t *testing.T) {
	hs := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"X-` + strconv.Itoa(i) + `":"v"`)
		}
		return wrap(`{"op":"fetch","url":"https://e.org/a","dest":"a","headers":{` + b.String() + `}}`)
	}
	p, err := decodeString(t, hs(plan.MaxFetchHeaders))
	if err != nil || len(p.Intent(0).Fetch.Headers) != plan.MaxFetchHeaders {
		t.Fatalf("%d headers: %v", plan.MaxFetchHeaders, err)
	}
	_, err = decodeString(t, hs(plan.MaxFetchHeaders+1))
	if !errors.Is(err, rejection.Rule(schema.RuleRemoteHeader)) {
		t.Fatalf("%d headers: got %v, want remote.header", plan.MaxFetchHeaders+1, err)
	}
}

package lola

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// TestBuilderRefusesWhatTheHostRefusesLexically attacks each builder method
// with input the host would reject and asserts the exact rule, that the
// intent was not added, and that the plan remembers the refusal.
func TestBuilderRefusesWhatTheHostRefusesLexically(t *testing.T) {
	cases := []struct {
		name string
		add  func(p *Plan) error
		rule schema.Rule
	}{
		{"write absolute", func(p *Plan) error { return p.Write("/etc/passwd", "x") }, schema.RulePathAbsolute},
		{"write backslash-rooted", func(p *Plan) error { return p.Write(`\\server\share\x`, "x") }, schema.RulePathAbsolute},
		{"write drive-rooted", func(p *Plan) error { return p.Write("C:/Windows/x", "x") }, schema.RulePathAbsolute},
		{"write drive-relative", func(p *Plan) error { return p.Write("c:x", "x") }, schema.RulePathAbsolute},
		{"write traversal", func(p *Plan) error { return p.Write("a/../../x", "x") }, schema.RulePathTraversal},
		{"write leading dotdot", func(p *Plan) error { return p.Write("..", "x") }, schema.RulePathTraversal},
		{"write empty", func(p *Plan) error { return p.Write("", "x") }, schema.RulePathInvalid},
		{"write dot component", func(p *Plan) error { return p.Write("a/./b", "x") }, schema.RulePathInvalid},
		{"write empty component", func(p *Plan) error { return p.Write("a//b", "x") }, schema.RulePathInvalid},
		{"write trailing slash", func(p *Plan) error { return p.Write("a/b/", "x") }, schema.RulePathInvalid},
		{"write backslash inside", func(p *Plan) error { return p.Write(`a\..\b`, "x") }, schema.RulePathInvalid},
		{"write NUL", func(p *Plan) error { return p.Write("a\x00b", "x") }, schema.RulePathInvalid},
		{"write newline", func(p *Plan) error { return p.Write("a\nb", "x") }, schema.RulePathInvalid},
		{"write path not utf8", func(p *Plan) error { return p.Write("a\xffb", "x") }, schema.RulePlanInvalidUTF8},
		{"write content not utf8", func(p *Plan) error { return p.Write("a", "\xc3\x28") }, schema.RulePlanInvalidUTF8},
		{"writebytes traversal", func(p *Plan) error { return p.WriteBytes("../x", []byte{0}) }, schema.RulePathTraversal},
		{"writefile bad base64", func(p *Plan) error {
			return p.WriteFile("a", File{Path: "a", Content: "!!!!", Encoding: schema.EncodingBase64})
		}, schema.RulePlanEncoding},
		{"writefile non-canonical base64 padding bits", func(p *Plan) error {
			return p.WriteFile("a", File{Path: "a", Content: "AB==", Encoding: schema.EncodingBase64})
		}, schema.RulePlanEncoding},
		{"writefile unknown encoding", func(p *Plan) error {
			return p.WriteFile("a", File{Path: "a", Content: "x", Encoding: "rot13"})
		}, schema.RulePlanEncoding},
		{"delete absolute", func(p *Plan) error { return p.Delete("/") }, schema.RulePathAbsolute},
		{"delete traversal", func(p *Plan) error { return p.Delete("skills/..") }, schema.RulePathTraversal},
		{"rename from traversal", func(p *Plan) error { return p.Rename("../a", "b") }, schema.RulePathTraversal},
		{"rename to absolute", func(p *Plan) error { return p.Rename("a", "/b") }, schema.RulePathAbsolute},
		{"fetch POST", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Method("POST")) }, schema.RuleRemoteMethod},
		{"fetch HEAD", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Method("HEAD")) }, schema.RuleRemoteMethod},
		{"fetch lowercase get", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Method("get")) }, schema.RuleRemoteMethod},
		{"fetch http", func(p *Plan) error { return p.Fetch("http://example.org/x", "x") }, schema.RuleRemoteScheme},
		{"fetch ssh", func(p *Plan) error { return p.Fetch("ssh://example.org/x", "x") }, schema.RuleRemoteScheme},
		{"fetch file", func(p *Plan) error { return p.Fetch("file:///etc/passwd", "x") }, schema.RuleRemoteScheme},
		{"fetch upper-case scheme", func(p *Plan) error { return p.Fetch("HTTPS://example.org/x", "x") }, schema.RuleRemoteScheme},
		{"fetch opaque", func(p *Plan) error { return p.Fetch("https:example.org/x", "x") }, schema.RuleRemoteURL},
		{"fetch space", func(p *Plan) error { return p.Fetch("https://example.org/a b", "x") }, schema.RuleRemoteURL},
		{"fetch raw unicode host", func(p *Plan) error { return p.Fetch("https://exämple.org/", "x") }, schema.RuleRemoteURL},
		{"fetch backslash", func(p *Plan) error { return p.Fetch(`https://example.org\@evil/`, "x") }, schema.RuleRemoteURL},
		{"fetch relative", func(p *Plan) error { return p.Fetch("//example.org/x", "x") }, schema.RuleRemoteURL},
		{"fetch empty method", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Method("")) }, schema.RuleRemoteMethod},
		{"fetch header not a token", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Header("Bad Name", "v")) }, schema.RuleRemoteHeader},
		{"fetch header CRLF", func(p *Plan) error {
			return p.Fetch("https://example.org/x", "x", Header("X-A", "v\r\nHost: evil"))
		}, schema.RuleRemoteHeader},
		{"fetch header twice by case", func(p *Plan) error {
			return p.Fetch("https://example.org/x", "x", Header("Accept", "a"), Header("accept", "b"))
		}, schema.RuleRemoteHeader},
		{"fetch header Host", func(p *Plan) error { return p.Fetch("https://example.org/x", "x", Header("hOsT", "evil")) }, schema.RuleRemoteHeader},
		{"fetch header Transfer-Encoding", func(p *Plan) error {
			return p.Fetch("https://example.org/x", "x", Header("Transfer-Encoding", "chunked"))
		}, schema.RuleRemoteHeader},
		{"fetch 65 headers", func(p *Plan) error {
			var hs []FetchOption
			for i := 0; i < 65; i++ {
				hs = append(hs, Header("X-H"+strings.Repeat("a", i), "v"))
			}
			return p.Fetch("https://example.org/x", "x", hs...)
		}, schema.RuleRemoteHeader},
		{"write device name", func(p *Plan) error { return p.Write("docs/nul.txt", "x") }, schema.RulePathInvalid},
		{"write device superscript", func(p *Plan) error { return p.Write("COM\u00b9", "x") }, schema.RulePathInvalid},
		{"write colon stream", func(p *Plan) error { return p.Write("notes.txt:hidden", "x") }, schema.RulePathInvalid},
		{"write trailing dot", func(p *Plan) error { return p.Write("a./b", "x") }, schema.RulePathInvalid},
		{"write trailing space", func(p *Plan) error { return p.Write("a ", "x") }, schema.RulePathInvalid},
		{"write C1 control", func(p *Plan) error { return p.Write("a\u0085b", "x") }, schema.RulePathInvalid},
		{"write question mark", func(p *Plan) error { return p.Write("what?", "x") }, schema.RulePathInvalid},
		{"writefile base64 line break", func(p *Plan) error {
			return p.WriteFile("a", File{Path: "a", Content: "AAEC\nAAEC", Encoding: schema.EncodingBase64})
		}, schema.RulePlanEncoding},
		{"clone depth too large", func(p *Plan) error { return p.Clone("https://example.org/r.git", "r", "", 1<<31) }, schema.RulePlanMalformed},
		{"clone ssh user", func(p *Plan) error { return p.Clone("ssh://git@example.org/r.git", "r", "", 0) }, schema.RuleRemoteURL},
		{"fetch no host", func(p *Plan) error { return p.Fetch("https:///x", "x") }, schema.RuleRemoteURL},
		{"fetch userinfo", func(p *Plan) error { return p.Fetch("https://u:p@example.org/x", "x") }, schema.RuleRemoteURL},
		{"fetch dest traversal", func(p *Plan) error { return p.Fetch("https://example.org/x", "../x") }, schema.RulePathTraversal},
		{"clone http", func(p *Plan) error { return p.Clone("http://example.org/r.git", "r", "", 0) }, schema.RuleRemoteScheme},
		{"clone git protocol", func(p *Plan) error { return p.Clone("git://example.org/r.git", "r", "", 0) }, schema.RuleRemoteScheme},
		{"clone scp-like", func(p *Plan) error { return p.Clone("git@example.org:r.git", "r", "", 0) }, schema.RuleRemoteURL},
		{"clone negative depth", func(p *Plan) error { return p.Clone("https://example.org/r.git", "r", "", -1) }, schema.RulePlanMalformed},
		{"clone dest absolute", func(p *Plan) error { return p.Clone("ssh://example.org/r.git", "/r", "", 1) }, schema.RulePathAbsolute},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p Plan
			if err := p.Write("before", "kept"); err != nil {
				t.Fatal(err)
			}
			err := c.add(&p)
			if !errors.Is(err, RuleError(c.rule)) {
				t.Fatalf("got %v, want rule %s", err, c.rule)
			}
			var be *BuildError
			if !errors.As(err, &be) || be.Rule != c.rule || be.Index != 1 {
				t.Fatalf("got %#v, want a *BuildError for %s at index 1", err, c.rule)
			}
			if !strings.Contains(err.Error(), c.rule.String()) {
				t.Fatalf("message %q does not name the rule %s", err, c.rule)
			}
			if p.Len() != 1 {
				t.Fatalf("a refused intent was added: %d intents", p.Len())
			}
			if !errors.Is(p.Err(), RuleError(c.rule)) {
				t.Fatalf("Err() = %v, want the refusal", p.Err())
			}
			for _, other := range schema.Rules() {
				if other != c.rule && errors.Is(err, RuleError(other)) {
					t.Fatalf("error also matches %s", other)
				}
			}
		})
	}
}

func TestBuilderKeepsTheFirstRefusal(t *testing.T) {
	var p Plan
	first := p.Delete("../a")
	_ = p.Write("/b", "x")
	if p.Err() != first {
		t.Fatalf("Err() = %v, want the first refusal %v", p.Err(), first)
	}
	if err := p.Write("ok", "x"); err != nil || p.Len() != 1 {
		t.Fatalf("a valid intent after a refusal: err %v, len %d", err, p.Len())
	}
}

// Diagnostics never carry a URL (it can hold a credential) nor content.
func TestBuildErrorRedactsURLsAndContent(t *testing.T) {
	var p Plan
	err := p.Fetch("https://user:hunter2@example.org/x", "x")
	if err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "example.org") {
		t.Fatalf("diagnostic %v leaks the URL", err)
	}
	err = p.Clone("ssh://token:pw@example.org/r.git", "r", "", 0)
	if err == nil || strings.Contains(err.Error(), "token") {
		t.Fatalf("diagnostic %v leaks the URL", err)
	}
	err = p.Write("a", "secret-body\xff")
	if err == nil || strings.Contains(err.Error(), "secret-body") {
		t.Fatalf("diagnostic %v leaks content", err)
	}
	for _, rooted := range []string{"/home/alice/.ssh/id_rsa", `C:\Users\alice\x`, "//server/share/alice"} {
		err = p.Write(rooted, "x")
		if !errors.Is(err, RuleError(schema.RulePathAbsolute)) || strings.Contains(err.Error(), "alice") {
			t.Fatalf("diagnostic %v for a rooted path is not path.absolute or repeats the path", err)
		}
	}
	long := strings.Repeat("é", 100) + "/../x"
	err = p.Write(long, "x")
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("diagnostic for a long path is not truncated: %d bytes", len(err.Error()))
	}
}

func TestBuilderAcceptsAndSerializesCanonically(t *testing.T) {
	var p Plan
	steps := []error{
		p.Write("skills/foo/SKILL.md", "text <&>"),
		p.WriteBytes("bin/tool", []byte{0, 1, 2}, Executable),
		p.Delete("skills/old"),
		p.Rename("a/x", "b/x"),
		p.Fetch("https://example.org/x.tgz", "vendor/x.tgz", Header("X-B", "2"), Header("Accept", "*/*"), Method("GET")),
		p.Clone("https://example.org/r.git", "vendor/r", "v1.2.0", 1),
		p.Clone("ssh://example.org/r.git", "vendor/s", "", 0),
		p.Write("Ünïcödé/日本.md", ""),
	}
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	got, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"protocol":1,"intents":[` +
		`{"op":"write","path":"skills/foo/SKILL.md","content":"text \u003c\u0026\u003e"},` +
		`{"op":"write","path":"bin/tool","content":"AAEC","encoding":"base64","executable":true},` +
		`{"op":"delete","path":"skills/old"},` +
		`{"op":"rename","from":"a/x","to":"b/x"},` +
		`{"op":"fetch","url":"https://example.org/x.tgz","dest":"vendor/x.tgz","headers":{"Accept":"*/*","X-B":"2"}},` +
		`{"op":"clone","url":"https://example.org/r.git","dest":"vendor/r","ref":"v1.2.0","depth":1},` +
		`{"op":"clone","url":"ssh://example.org/r.git","dest":"vendor/s"},` +
		`{"op":"write","path":"Ünïcödé/日本.md","content":""}]}`
	if string(got) != want {
		t.Fatalf("plan\n got %s\nwant %s", got, want)
	}
	var empty Plan
	if b, _ := empty.MarshalJSON(); string(b) != `{"protocol":1,"intents":[]}` {
		t.Fatalf("empty plan = %s", b)
	}
}

func TestBytesDecodesRequestFiles(t *testing.T) {
	b, err := Bytes(File{Path: "a", Content: "AAEC", Encoding: schema.EncodingBase64})
	if err != nil || string(b) != "\x00\x01\x02" {
		t.Fatalf("base64: %q %v", b, err)
	}
	b, err = Bytes(File{Path: "a", Content: "hé"})
	if err != nil || string(b) != "hé" {
		t.Fatalf("utf8: %q %v", b, err)
	}
	if _, err := Bytes(File{Path: "a", Content: "@@", Encoding: schema.EncodingBase64}); !errors.Is(err, RuleError(schema.RulePlanEncoding)) {
		t.Fatalf("bad base64: %v", err)
	}
	if _, err := Bytes(File{Path: "a", Encoding: "hex"}); !errors.Is(err, RuleError(schema.RulePlanEncoding)) {
		t.Fatalf("unknown encoding: %v", err)
	}
}

func TestCheckPath(t *testing.T) {
	for p, rule := range map[string]schema.Rule{
		"../x": schema.RulePathTraversal, "/x": schema.RulePathAbsolute, "a//b": schema.RulePathInvalid, "": schema.RulePathInvalid,
	} {
		if err := CheckPath(p); !errors.Is(err, RuleError(rule)) {
			t.Errorf("CheckPath(%q) = %v, want %s", p, err, rule)
		}
	}
	if err := CheckPath("skills/a/SKILL.md"); err != nil {
		t.Error(err)
	}
	if err := CheckPath("../x"); err.Error() != `lola: path.traversal: '..' component in "../x"` {
		t.Errorf("message %q", err)
	}
}

// TestIntentsSharesNothing: what Intents returns cannot change the plan.
func TestIntentsSharesNothing(t *testing.T) {
	var p Plan
	if err := p.Fetch("https://e.org/x", "d", Header("Accept", "a")); err != nil {
		t.Fatal(err)
	}
	got := p.Intents()
	got[0].Fetch.Dest = "other"
	got[0].Fetch.Headers["Accept"] = "changed"
	again := p.Intents()
	if again[0].Fetch.Dest != "d" || again[0].Fetch.Headers["Accept"] != "a" {
		t.Fatalf("a change to Intents' result reached the plan: %+v", again[0].Fetch)
	}
}

package lexical

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestURLRefuses(t *testing.T) {
	https := []string{"https"}
	git := []string{"https", "ssh"}
	cases := []struct {
		url     string
		allowed []string
		rule    schema.Rule
		detail  string
	}{
		// Not printable ASCII: one spelling for every parser downstream.
		{"https://example.org/a b", https, schema.RuleRemoteURL, "printable ASCII without spaces or backslashes (byte 21)"},
		{"https://exämple.org/", https, schema.RuleRemoteURL, "(byte 10)"},
		{`https://example.org\@evil/`, https, schema.RuleRemoteURL, "backslashes (byte 19)"},
		{"https://example.org/\x00", https, schema.RuleRemoteURL, "(byte 20)"},
		{"https://example.org/\x7f", https, schema.RuleRemoteURL, "(byte 20)"},
		{"https://example.org/\t", https, schema.RuleRemoteURL, "(byte 20)"},
		{"http://e.org/ x", https, schema.RuleRemoteURL, "printable ASCII"}, // before the scheme
		// Not absolute.
		{"", https, schema.RuleRemoteURL, "not an absolute URL"},
		{"//example.org/x", https, schema.RuleRemoteURL, "not an absolute URL"},
		{"example.org/x", https, schema.RuleRemoteURL, "not an absolute URL"},
		{"https://e.org:x/", https, schema.RuleRemoteURL, "not an absolute URL"},
		{"git@example.org:r.git", git, schema.RuleRemoteURL, "not an absolute URL"},
		{"%41://e.org/", https, schema.RuleRemoteURL, "not an absolute URL"},
		// Schemes: as spelled, lower case, from the allowed list only.
		{"http://example.org/x", https, schema.RuleRemoteScheme, `scheme "http" not allowed (allowed: https)`},
		{"ssh://example.org/x", https, schema.RuleRemoteScheme, `scheme "ssh"`},
		{"file:///etc/passwd", https, schema.RuleRemoteScheme, `scheme "file"`},
		{"HTTPS://example.org/x", https, schema.RuleRemoteScheme, `scheme "HTTPS"`},
		{"Https://example.org/x", git, schema.RuleRemoteScheme, "(allowed: https or ssh)"},
		{"git://example.org/r.git", git, schema.RuleRemoteScheme, `scheme "git"`},
		{"http://example.org/r.git", git, schema.RuleRemoteScheme, "https or ssh"},
		{"http://u:p@example.org/", https, schema.RuleRemoteScheme, `"http"`}, // scheme before userinfo
		{"https://example.org/", nil, schema.RuleRemoteScheme, `scheme "https"`},
		{strings.Repeat("a", 100) + "://e.org/", https, schema.RuleRemoteScheme, `"` + strings.Repeat("a", NameEcho) + `"...`},
		// Opaque, userinfo, no host.
		{"https:example.org/x", https, schema.RuleRemoteURL, "not a hierarchical URL"},
		{"https://u:p@example.org/x", https, schema.RuleRemoteURL, "userinfo"},
		{"https://u@example.org/x", https, schema.RuleRemoteURL, "userinfo"},
		{"https://@example.org/x", https, schema.RuleRemoteURL, "userinfo"},
		{"ssh://git@example.org/r.git", git, schema.RuleRemoteURL, "userinfo"},
		{"https:///x", https, schema.RuleRemoteURL, "no host"},
		{"https://:443/x", https, schema.RuleRemoteURL, "no host"},
		{"ssh://", git, schema.RuleRemoteURL, "no host"},
	}
	for _, c := range cases {
		rule, detail := URL(c.url, c.allowed...)
		if rule != c.rule {
			t.Errorf("URL(%q, %v) = %s (%s), want %s", c.url, c.allowed, rule, detail, c.rule)
			continue
		}
		if !strings.Contains(detail, c.detail) {
			t.Errorf("URL(%q) detail %q does not say %q", c.url, detail, c.detail)
		}
	}
}

func TestURLAllows(t *testing.T) {
	for _, u := range []string{
		"https://example.org", "https://example.org/", "https://example.org/a/b?c=d#e",
		"https://xn--exmple-cua.org/", "https://127.0.0.1:8443/x", "https://[::1]/x",
		"https://example.org/a%20b", "https://example.org:443/r.git",
	} {
		if rule, detail := URL(u, "https"); rule != schema.RuleUnknown || detail != "" {
			t.Errorf("URL(%q, https) refused: %s %s", u, rule, detail)
		}
	}
	for _, u := range []string{"ssh://example.org/r.git", "ssh://example.org:2222/org/r.git", "https://example.org/r.git"} {
		if rule, detail := URL(u, "https", "ssh"); rule != schema.RuleUnknown {
			t.Errorf("URL(%q, https ssh) refused: %s %s", u, rule, detail)
		}
	}
}

// TestURLDetailNeverCarriesTheURL: a URL can hold a credential (userinfo,
// a token in the path or query), so no refusal repeats any of it.
func TestURLDetailNeverCarriesTheURL(t *testing.T) {
	const secret = "s3cr3t-T0KEN"
	for _, u := range []string{
		"https://user:" + secret + "@e.org/a",
		"https://e.org/" + secret + " x",
		"http://e.org/" + secret,
		"https:" + secret,
		"https:///" + secret,
		"ssh://" + secret + "@e.org/r.git",
	} {
		rule, detail := URL(u, "https", "ssh")
		if rule == schema.RuleUnknown {
			t.Fatalf("URL(%q) accepted", u)
		}
		if strings.Contains(detail, secret) || strings.Contains(detail, "e.org") {
			t.Errorf("URL(%q) detail carries the URL: %q", u, detail)
		}
	}
}

package lexical

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestHeaderRefuses(t *testing.T) {
	cases := []struct {
		name, value string
		detail      string
	}{
		{"", "v", `header name "" is not a token`},
		{"Bad Name", "v", `"Bad Name" is not a token`},
		{"X(Y)", "v", "not a token"},
		{"X:Y", "v", "not a token"},
		{"X-\u00e9", "v", `"X-\u00e9" is not a token`},
		{"X\r\nHost", "v", `"X\r\nHost" is not a token`},
		{"X-A", "v\r\nHost: evil", `value of header "X-A" has a control character at byte 1`},
		{"X-A", "\x00", "at byte 0"},
		{"X-A", "a\x7f", "at byte 1"},
		{"X-A", "a\nb", "control character"},
		{"Host", "e.org", `header "Host" changes framing or routing; the host sets it`},
		{"hOsT", "e.org", `"hOsT" changes framing`},
		{"Content-Length", "0", "framing"},
		{"transfer-encoding", "chunked", "framing"},
		{"Connection", "close", "framing"},
		{"Upgrade", "h2c", "framing"},
		{"TE", "trailers", "framing"},
		{"Trailer", "x", "framing"},
		{"Keep-Alive", "1", "framing"},
		{"Proxy-Connection", "x", "framing"},
		{"Expect", "100-continue", "framing"},
		{"Host", "\x00", "control character"}, // the value before the name's role
		{"Bad Name", "\x00", "not a token"},   // the name's spelling first
	}
	for _, c := range cases {
		rule, detail := Header(c.name, c.value)
		if rule != schema.RuleRemoteHeader {
			t.Errorf("Header(%q, %q) = %s, want %s", c.name, c.value, rule, schema.RuleRemoteHeader)
			continue
		}
		if !strings.Contains(detail, c.detail) {
			t.Errorf("Header(%q, %q) detail %q does not say %q", c.name, c.value, detail, c.detail)
		}
	}
}

// TestHeaderAllows: ordinary headers, every token character, a tab in a
// value, and the credential headers, which the host drops rather than
// refuses.
func TestHeaderAllows(t *testing.T) {
	for _, h := range [][2]string{
		{"Accept", "*/*"}, {"X-Api-Version", "2"}, {"!#$%&'*+-.^_`|~09azAZ", "x"}, {"X-T", "a\tb"},
		{"X-U", "caf\u00e9"}, {"X-E", ""}, {"Authorization", "Bearer t"}, {"cookie", "s=1"},
		{"Proxy-Authorization", "Basic eA=="}, {"Hosts", "x"}, {"X-Host", "x"}, {"Expected", "x"},
	} {
		if rule, detail := Header(h[0], h[1]); rule != schema.RuleUnknown || detail != "" {
			t.Errorf("Header(%q, %q) refused: %s %s", h[0], h[1], rule, detail)
		}
	}
}

func TestHeaderNameSets(t *testing.T) {
	for _, n := range []string{"Host", "host", "HOST", "content-length", "Transfer-Encoding", "connection",
		"upgrade", "te", "trailer", "keep-alive", "proxy-connection", "Expect"} {
		if !IsFramingHeader(n) || IsCredentialHeader(n) {
			t.Errorf("%q: framing %v, credential %v", n, IsFramingHeader(n), IsCredentialHeader(n))
		}
	}
	for _, n := range []string{"Authorization", "authorization", "COOKIE", "Proxy-Authorization"} {
		if !IsCredentialHeader(n) || IsFramingHeader(n) {
			t.Errorf("%q: framing %v, credential %v", n, IsFramingHeader(n), IsCredentialHeader(n))
		}
	}
	for _, n := range []string{"Accept", "X-Authorization", "Cookies", "Set-Cookie", "Hosts", "", "T",
		"\u212aeep-Alive", "Coo\u212aie", "Hoſt"} { // folding to ASCII only under Unicode rules
		if IsCredentialHeader(n) || IsFramingHeader(n) {
			t.Errorf("%q: framing %v, credential %v", n, IsFramingHeader(n), IsCredentialHeader(n))
		}
	}
}

// addAll adds the (name, value) pairs of hs to a new set, in order, and
// returns the first refusal.
func addAll(hs ...string) (schema.Rule, string) {
	var set HeaderSet
	for i := 0; i+1 < len(hs); i += 2 {
		if rule, detail := set.Add(hs[i], hs[i+1]); rule != schema.RuleUnknown {
			return rule, detail
		}
	}
	return schema.RuleUnknown, ""
}

func TestHeaderSetRefuses(t *testing.T) {
	many := func(n int) []string {
		var hs []string
		for i := 0; i < n; i++ {
			hs = append(hs, "X-"+strconv.Itoa(i), "v")
		}
		return hs
	}
	cases := []struct {
		name    string
		headers []string
		detail  string
	}{
		{"same name by case", []string{"Accept", "a", "accept", "b"}, `header "accept" named twice (names are case-insensitive)`},
		{"credential twice by case", []string{"Cookie", "a", "COOKIE", "b"}, `"COOKIE" named twice`},
		{"first fault wins", []string{"X-A", "a", "Bad Name", "v", "Host", "x"}, `"Bad Name" is not a token`},
		{"fault after a duplicate", []string{"A", "1", "a", "\x00"}, "control character"},
		{"one over the bound", many(MaxHeaders + 1), "more than 64 headers"},
		{"framing among many", append(many(10), "Upgrade", "h2c"), `"Upgrade" changes framing`},
	}
	for _, c := range cases {
		rule, detail := addAll(c.headers...)
		if rule != schema.RuleRemoteHeader {
			t.Errorf("%s: %s, want %s", c.name, rule, schema.RuleRemoteHeader)
			continue
		}
		if !strings.Contains(detail, c.detail) {
			t.Errorf("%s: detail %q does not say %q", c.name, detail, c.detail)
		}
	}
	if rule, detail := addAll(many(MaxHeaders)...); rule != schema.RuleUnknown {
		t.Errorf("%d headers refused: %s %s", MaxHeaders, rule, detail)
	}
	if rule, _ := addAll("Accept", "*/*", "X-A", "1", "Authorization", "t", "Cookie", "c"); rule != schema.RuleUnknown {
		t.Errorf("distinct headers refused: %s", rule)
	}
	// Only letters fold: names that differ in any other byte are distinct,
	// whatever ASCII case arithmetic would make of them.
	if rule, detail := addAll("X_A", "1", "x-a", "2", "a^", "3", "A~", "4", "a`", "5", "A|", "6"); rule != schema.RuleUnknown {
		t.Errorf("distinct headers refused: %s %s", rule, detail)
	}
	if rule, detail := addAll("X_A", "1", "x-a", "2", "x_a", "3"); rule != schema.RuleRemoteHeader || !strings.Contains(detail, `"x_a" named twice`) {
		t.Errorf("x_a after X_A: %s %s", rule, detail)
	}
}

// TestHeaderDetailsNeverCarryValues: a value may be a secret; a name is
// echoed only as a short, escaped prefix.
func TestHeaderDetailsNeverCarryValues(t *testing.T) {
	const secret = "s3cr3t-T0KEN"
	long := strings.Repeat("Z", 500)
	for _, h := range [][2]string{
		{"X-Api", secret + "\r\n"},
		{"X-Api", "\x00" + secret},
		{long + ":", "v"},
		{"\x1b[31m", secret},
		{long, secret + "\n"},
	} {
		rule, detail := Header(h[0], h[1])
		if rule == schema.RuleUnknown {
			t.Fatalf("Header(%.30q) accepted", h[0])
		}
		if strings.Contains(detail, secret) || strings.Contains(detail, "s3cr3t") {
			t.Errorf("detail echoes the value: %q", detail)
		}
		if strings.Contains(detail, strings.Repeat("Z", NameEcho+1)) {
			t.Errorf("detail echoes more than a short prefix: %q", detail)
		}
		if strings.ContainsAny(detail, "\x1b\r\n") {
			t.Errorf("detail echoes control characters: %q", detail)
		}
	}
}

package remote

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// droppedHeaders are removed from an extension's headers: the host alone
// attaches credentials.
var droppedHeaders = map[string]bool{
	"Authorization":       true,
	"Cookie":              true,
	"Proxy-Authorization": true,
}

// refusedHeaders would change the request's framing or routing, or are
// hop-by-hop; host/plan refuses the first five at validation, and this
// package refuses the whole set again at execution.
var refusedHeaders = map[string]bool{
	"Host":              true,
	"Content-Length":    true,
	"Transfer-Encoding": true,
	"Connection":        true,
	"Upgrade":           true,
	"Te":                true,
	"Trailer":           true,
	"Keep-Alive":        true,
	"Proxy-Connection":  true,
	"Expect":            true,
}

// requestHeaders turns an intent's headers into the header set every hop
// starts from: credentials dropped, framing and routing refused, names and
// values that are not valid HTTP refused.
func requestHeaders(in map[string]string, ref rejection.IntentRef) (http.Header, error) {
	h := http.Header{}
	for k, v := range in {
		if !validHeaderName(k) || !validHeaderValue(v) {
			return nil, rejection.New(schema.RuleRemoteHeader, "a header name or value is not valid HTTP", ref)
		}
		ck := http.CanonicalHeaderKey(k)
		if droppedHeaders[ck] {
			continue
		}
		if refusedHeaders[ck] {
			return nil, rejection.New(schema.RuleRemoteHeader, "header "+ck+" would change framing or routing", ref)
		}
		h.Set(ck, v)
	}
	return h, nil
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// parseRemoteURL parses and checks a URL at execution time, for the first
// hop and for every redirect target: an allowed scheme, a host, no
// userinfo, and no dot-segment that would let a path-prefixed credential
// reach a path outside its prefix after the server normalises it.
func parseRemoteURL(raw string, schemes []string, ref rejection.IntentRef) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return nil, rejection.New(schema.RuleRemoteURL, "not an absolute URL", ref)
	}
	ok := false
	for _, s := range schemes {
		if strings.EqualFold(u.Scheme, s) {
			ok = true
		}
	}
	if !ok {
		return nil, rejection.New(schema.RuleRemoteScheme, "scheme "+quoteBounded(u.Scheme)+" is not allowed here (allowed: "+strings.Join(schemes, ", ")+")", ref)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.User != nil && u.Scheme != "ssh" {
		return nil, rejection.New(schema.RuleRemoteURL, "URL carries userinfo", ref)
	}
	if u.User != nil {
		if _, set := u.User.Password(); set {
			return nil, rejection.New(schema.RuleRemoteURL, "URL carries a password", ref)
		}
	}
	if u.Hostname() == "" {
		return nil, rejection.New(schema.RuleRemoteURL, "URL has no host", ref)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return nil, rejection.New(schema.RuleRemoteURL, "URL path has a dot-segment", ref)
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

func quoteBounded(s string) string {
	if len(s) > 32 {
		s = s[:32] + "..."
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

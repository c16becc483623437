package remote

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// requestHeaders turns an intent's headers into the header set every hop
// starts from, under the same rules host/plan applied at validation
// (lexical.HeaderSet: names are tokens the host's client does not own,
// named once, values free of control characters), checked again here at
// execution; credential headers (lexical.IsCredentialHeader) are dropped:
// the host alone attaches credentials.
func requestHeaders(in map[string]string, ref rejection.IntentRef) (http.Header, error) {
	h := http.Header{}
	var set lexical.HeaderSet
	for k, v := range in {
		if rule, detail := set.Add(k, v); rule != schema.RuleUnknown {
			return nil, rejection.New(rule, detail, ref)
		}
		if lexical.IsCredentialHeader(k) {
			continue
		}
		h.Set(k, v)
	}
	return h, nil
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
		return nil, rejection.New(schema.RuleRemoteScheme, "scheme "+lexical.Quote(u.Scheme, lexical.NameEcho)+" is not allowed here (allowed: "+strings.Join(schemes, ", ")+")", ref)
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

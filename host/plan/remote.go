package plan

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// The lexical remote rules: what a fetch or clone intent may name, decided
// from its text alone before anything resolves or dials. The destination
// policy (which addresses a name may reach) is host/remote's, at run time.

// checkURL refuses a URL the host will not try: one that is not pure
// printable ASCII (so every parser downstream reads the same URL), does not
// parse, has no scheme (remote.url); whose scheme is not among allowed
// (remote.scheme); or that is opaque, carries userinfo or has no host
// (remote.url). Schemes are compared as spelled and must be in their
// canonical lower case: "HTTPS://" is refused rather than normalised, and
// "http" is refused rather than upgraded.
func (d *decoder) checkURL(raw string, allowed ...string) error {
	ctx := memberCtx(mURL)
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return d.violation(schema.RuleRemoteURL, ctx, "URL must be printable ASCII without spaces or backslashes (byte "+strconv.Itoa(i)+")")
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return d.violation(schema.RuleRemoteURL, ctx, "not an absolute URL")
	}
	scheme := raw[:len(u.Scheme)] // as spelled: url.Parse lower-cases it
	ok := false
	for _, a := range allowed {
		ok = ok || scheme == a
	}
	if !ok {
		return d.violation(schema.RuleRemoteScheme, ctx, "scheme "+quote([]byte(scheme))+" refused: "+string(d.op)+" allows "+strings.Join(allowed, " or "))
	}
	if u.Opaque != "" {
		return d.violation(schema.RuleRemoteURL, ctx, "not a hierarchical URL (scheme: without //)")
	}
	if u.User != nil {
		return d.violation(schema.RuleRemoteURL, ctx, "URL carries userinfo; credentials come from the host's store")
	}
	if u.Host == "" || u.Hostname() == "" {
		return d.violation(schema.RuleRemoteURL, ctx, "URL has no host")
	}
	return nil
}

// Header names, compared in lower case.
var (
	// droppedHeaders are removed from the intent, not refused: an extension
	// cannot send a credential outward nor override the one the host
	// attaches, and the plan records that it tried.
	droppedHeaders = map[string]bool{"authorization": true, "cookie": true, "proxy-authorization": true}

	// framingHeaders would change how the request is framed or routed, or
	// are hop-by-hop (RFC 9110 section 7.6.1), or change the exchange's
	// flow (Expect): the host's client owns all of them.
	framingHeaders = map[string]bool{
		"host": true, "content-length": true, "transfer-encoding": true, "connection": true, "upgrade": true,
		"te": true, "trailer": true, "keep-alive": true, "proxy-connection": true, "expect": true,
	}
)

// checkHeaders validates a fetch's headers and returns the ones the host
// will carry, recording the dropped ones. Every name must be an RFC 9110
// token and every value free of control characters other than tab; a name
// may appear once whatever its case.
func (d *decoder) checkHeaders(hs []header) (map[string]string, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	ctx := memberCtx(mHeaders)
	lower := make(map[string]struct{}, len(hs))
	var out map[string]string
	for _, h := range hs {
		if !isToken(h.name) {
			return nil, d.violation(schema.RuleRemoteHeader, ctx, "header name "+quote([]byte(h.name))+" is not a token")
		}
		if i := badValueByte(h.value); i >= 0 {
			// The value is never echoed: it may be a secret.
			return nil, d.violation(schema.RuleRemoteHeader, ctx, "value of header "+quote([]byte(h.name))+" has a control character at byte "+strconv.Itoa(i))
		}
		l := strings.ToLower(h.name)
		if _, dup := lower[l]; dup {
			return nil, d.violation(schema.RuleRemoteHeader, ctx, "header "+quote([]byte(h.name))+" named twice (names are case-insensitive)")
		}
		lower[l] = struct{}{}
		if framingHeaders[l] {
			return nil, d.violation(schema.RuleRemoteHeader, ctx, "header "+quote([]byte(h.name))+" changes framing or routing; the host sets it")
		}
		if droppedHeaders[l] {
			d.dropped = append(d.dropped, DroppedHeader{Index: d.index, Name: h.name})
			continue
		}
		if out == nil {
			out = make(map[string]string, len(hs))
		}
		out[h.name] = h.value
	}
	return out, nil
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// badValueByte returns the index of the first byte a field value may not
// hold (a control character other than tab, or DEL), or -1.
func badValueByte(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return i
		}
	}
	return -1
}

// strictBase64 is standard base64 with padding and zero trailing bits: the
// one spelling of each byte string, so a plan's hash names its content.
var strictBase64 = base64.StdEncoding.Strict()

// checkBase64 refuses content that is not strict standard base64. The
// standard decoder skips CR and LF even in strict mode; they are refused
// here so that content has exactly one spelling.
func (d *decoder) checkBase64(content string) error {
	ctx := memberCtx(mContent)
	if strings.ContainsAny(content, "\r\n") {
		return d.violation(schema.RulePlanEncoding, ctx, "base64 content contains a line break")
	}
	n := strictBase64.DecodedLen(len(content))
	if cap(d.scratch) < n {
		d.scratch = make([]byte, n)
	}
	if _, err := strictBase64.Decode(d.scratch[:n], []byte(content)); err != nil {
		return d.violation(schema.RulePlanEncoding, ctx, "content is not valid base64")
	}
	return nil
}

package plan

import (
	"encoding/base64"
	"strings"

	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// The lexical remote rules: what a fetch or clone intent may name, decided
// from its text alone before anything resolves or dials. The destination
// policy (which addresses a name may reach) is host/remote's, at run time.

// checkURL applies lexical.URL (the rules the guest SDK applies too) to a
// fetch's or clone's URL: printable ASCII that parses with a scheme
// (remote.url), the scheme as spelled among allowed (remote.scheme), and
// hierarchical, without userinfo, with a host (remote.url). The violation
// names the url member and never carries the URL.
func (d *decoder) checkURL(raw string, allowed ...string) error {
	if rule, detail := lexical.URL(raw, allowed...); rule != schema.RuleUnknown {
		return d.violation(rule, memberCtx(mURL), detail)
	}
	return nil
}

// checkHeaders validates a fetch's headers under lexical.HeaderSet (every
// name an RFC 9110 token the host's client does not own, named once
// whatever its case; every value free of control characters other than
// tab) and returns the ones the host will carry. Credential headers
// (lexical.IsCredentialHeader) are removed from the intent rather than
// refused, so that an extension can neither send a credential outward nor
// override the one the host attaches, and the plan records that it tried.
func (d *decoder) checkHeaders(hs []header) (map[string]string, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	var set lexical.HeaderSet
	var out map[string]string
	for _, h := range hs {
		if rule, detail := set.Add(h.name, h.value); rule != schema.RuleUnknown {
			return nil, d.violation(rule, memberCtx(mHeaders), detail)
		}
		if lexical.IsCredentialHeader(h.name) {
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

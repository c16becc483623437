package lola

import (
	"strings"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// The builder's lexical checks are the host's own: package schema/lexical
// is the code host/pathrule (paths) and host/plan (URLs, headers) run, so
// the builder refuses exactly what the host refuses from one intent's
// text, under the same rule and with the same detail. What this file adds
// is only what the guest alone needs: strings are checked for UTF-8 first
// (the host's strict decoder refuses invalid UTF-8 anywhere in a plan with
// plan.invalid-utf8, before any path or remote rule, whereas encoding/json
// would silently replace the bytes), and a refused path is named in the
// detail, as a short quoted prefix, since a BuildError has no other way to
// show which path it was (a rooted one excepted: it may name a host
// location). TestBuilderAgreesWithPlanVectors replays
// schema/vectors through the builder and keeps the two honest.

// checkPath returns plan.invalid-utf8 when p is not valid UTF-8 and
// otherwise lexical.Path's verdict: path.absolute, path.traversal or
// path.invalid, chosen in that order when p has several faults, with
// lexical.Path's detail followed by " in " and p quoted (at most
// lexical.NameEcho bytes of it). A rooted or drive-qualified path is not
// quoted: it may name a host location (a home directory), which no
// diagnostic repeats. It returns RuleUnknown when p passes.
func checkPath(p string) (schema.Rule, string) {
	if !utf8.ValidString(p) {
		return schema.RulePlanInvalidUTF8, "path is not valid UTF-8"
	}
	rule, detail := lexical.Path(p)
	if rule != schema.RuleUnknown && rule != schema.RulePathAbsolute && p != "" {
		detail += " in " + quote(p)
	}
	return rule, detail
}

// checkHeaders applies the host's header rules to headers in the order they
// were added: every name and value valid UTF-8 (plan.invalid-utf8: the
// host's decoder sees every header before it applies the header rules),
// then lexical.HeaderSet: at most lexical.MaxHeaders; each name an RFC 9110
// token, named once whatever its case, not a framing header; each value
// free of control characters other than tab (remote.header). Details never
// carry a value: it may be a secret.
func checkHeaders(hs [][2]string) (schema.Rule, string) {
	for _, h := range hs {
		if !utf8.ValidString(h[0]) || !utf8.ValidString(h[1]) {
			return schema.RulePlanInvalidUTF8, "header is not valid UTF-8"
		}
	}
	var set lexical.HeaderSet
	for _, h := range hs {
		if rule, detail := set.Add(h[0], h[1]); rule != schema.RuleUnknown {
			return rule, detail
		}
	}
	return schema.RuleUnknown, ""
}

// decodeBase64 decodes content when it is strict standard base64 (the +/
// alphabet, = padding, zero trailing bits, no line breaks or spaces): the
// one spelling of each byte string, as the host requires. ok is false
// otherwise.
func decodeBase64(content string) (b []byte, ok bool) {
	if strings.ContainsAny(content, "\r\n") {
		return nil, false
	}
	b, err := strictBase64.DecodeString(content)
	return b, err == nil
}

// CheckPath reports whether the host would accept p lexically as a
// root-relative path, returning a *BuildError naming the rule when it would
// not. Use it to check paths from a request (a module file's path) before
// building on them; the builder methods check their own paths already.
func CheckPath(p string) error {
	if rule, detail := checkPath(p); rule != schema.RuleUnknown {
		return &BuildError{Rule: rule, Detail: detail}
	}
	return nil
}

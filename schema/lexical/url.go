package lexical

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// URL applies the lexical remote rules to the URL of a fetch or clone
// intent, before anything resolves or dials; which addresses a name may
// reach is the host's destination policy, decided at run time. It returns
// RuleUnknown and "" when raw passes, and otherwise
//   - RuleRemoteURL: raw is not pure printable ASCII without spaces or
//     backslashes (so every parser downstream reads the same URL), does not
//     parse, or has no scheme;
//   - RuleRemoteScheme: the scheme, as spelled, is not one of
//     allowedSchemes. Schemes must be in their canonical lower case:
//     "HTTPS://" is refused rather than normalised, and "http" is refused
//     rather than upgraded;
//   - RuleRemoteURL: raw is opaque ("https:host/x"), carries userinfo (an
//     ssh user name included: credentials come from the host's store), or
//     names no host.
//
// The faults are checked in that order. The detail never carries raw, which
// can hold a credential; it quotes the scheme, at most NameEcho bytes.
func URL(raw string, allowedSchemes ...string) (schema.Rule, string) {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return schema.RuleRemoteURL, "URL must be printable ASCII without spaces or backslashes (byte " + strconv.Itoa(i) + ")"
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return schema.RuleRemoteURL, "not an absolute URL"
	}
	scheme := raw[:len(u.Scheme)] // as spelled: url.Parse lower-cases it
	ok := false
	for _, a := range allowedSchemes {
		ok = ok || scheme == a
	}
	if !ok {
		return schema.RuleRemoteScheme, "scheme " + Quote(scheme, NameEcho) + " not allowed (allowed: " + strings.Join(allowedSchemes, " or ") + ")"
	}
	switch {
	case u.Opaque != "":
		return schema.RuleRemoteURL, "not a hierarchical URL (scheme: without //)"
	case u.User != nil:
		return schema.RuleRemoteURL, "URL carries userinfo; credentials come from the host's store"
	case u.Host == "" || u.Hostname() == "":
		return schema.RuleRemoteURL, "URL has no host"
	}
	return schema.RuleUnknown, ""
}

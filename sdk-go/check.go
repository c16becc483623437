package lola

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
)

// checkPath applies the host's lexical path vocabulary (the subset a guest
// can check without a filesystem): root-relative, "/"-separated, one or more
// components, none empty, "." or "..", no backslash, no control character,
// valid UTF-8. It returns the rule and a detail, or RuleUnknown when p passes.
func checkPath(p string) (schema.Rule, string) {
	switch {
	case p == "":
		return schema.RulePathInvalid, "empty path"
	case !utf8.ValidString(p):
		return schema.RulePlanInvalidUTF8, "path is not valid UTF-8"
	case p[0] == '/' || p[0] == '\\':
		return schema.RulePathAbsolute, "absolute path " + quote(p)
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return schema.RulePathAbsolute, "drive-rooted path " + quote(p)
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return schema.RulePathTraversal, "'..' component in " + quote(p)
		}
		if c == "" || c == "." {
			return schema.RulePathInvalid, "empty or '.' component in " + quote(p)
		}
	}
	for _, r := range p {
		if r == '\\' {
			return schema.RulePathInvalid, "backslash in " + quote(p) + " (the separator is '/')"
		}
		if r < 0x20 || r == 0x7f {
			return schema.RulePathInvalid, "control character in " + quote(p)
		}
	}
	return schema.RuleUnknown, ""
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

// checkURL parses raw and checks its scheme against allowed. It never puts
// the URL itself into a detail: a URL can carry a credential.
func checkURL(raw string, allowed ...string) (schema.Rule, string) {
	if !utf8.ValidString(raw) {
		return schema.RulePlanInvalidUTF8, "url is not valid UTF-8"
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return schema.RuleRemoteURL, "url does not parse as scheme://host/path"
	}
	if u.User != nil {
		// An ssh user name (ssh://git@host/...) names an account, not a
		// secret; a password, or any userinfo on https, is a credential.
		if _, hasPassword := u.User.Password(); hasPassword || u.Scheme != "ssh" {
			return schema.RuleRemoteURL, "url carries userinfo; the host supplies credentials"
		}
	}
	for _, s := range allowed {
		if u.Scheme == s {
			return schema.RuleUnknown, ""
		}
	}
	return schema.RuleRemoteScheme, "scheme " + quote(u.Scheme) + " not allowed (allowed: " + strings.Join(allowed, ", ") + ")"
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

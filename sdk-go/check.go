package lola

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
)

// The guest's copy of the host's lexical rules (host/pathrule for paths,
// host/plan for URLs and headers). TestBuilderAgreesWithPlanVectors replays
// schema/vectors through the builder so that the two cannot drift apart
// silently: every valid vector is accepted, every lexical invalid vector is
// refused with exactly its rule.

// checkPath applies the host's path vocabulary, which is the same on every
// platform: one or more "/"-separated components; not rooted ("/x", "\x")
// nor drive-qualified ("C:x") (path.absolute); no ".." component
// (path.traversal); valid UTF-8 (plan.invalid-utf8: the plan encoder would
// otherwise silently replace the bytes); and no empty or "." component,
// control character, backslash, one of <>:"|?*, trailing dot or space, or
// Windows device name such as CON, nul.txt, COM1 or CONIN$ (path.invalid).
// When a path has several faults the rule is chosen in that order, as the
// host does. It returns RuleUnknown when p passes.
func checkPath(p string) (schema.Rule, string) {
	switch {
	case p == "":
		return schema.RulePathInvalid, "empty path"
	case p[0] == '/' || p[0] == '\\':
		return schema.RulePathAbsolute, "path " + quote(p) + " is rooted; plan paths are relative to the root"
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return schema.RulePathAbsolute, "path " + quote(p) + " names a drive; plan paths are relative to the root"
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return schema.RulePathTraversal, "'..' component in " + quote(p)
		}
	}
	if !utf8.ValidString(p) {
		return schema.RulePlanInvalidUTF8, "path is not valid UTF-8"
	}
	for _, c := range strings.Split(p, "/") {
		if why := componentFault(c); why != "" {
			return schema.RulePathInvalid, why + " in " + quote(p)
		}
	}
	return schema.RuleUnknown, ""
}

// windowsForbidden are the printable characters Win32 refuses in a name.
const windowsForbidden = `<>:"|?*`

// componentFault says why c cannot be a component, or "".
func componentFault(c string) string {
	switch c {
	case "":
		return "empty component"
	case ".":
		return "'.' component"
	}
	for _, r := range c {
		switch {
		case unicode.IsControl(r):
			return "control character " + strconv.QuoteRune(r)
		case r == '\\':
			return "backslash (the separator is '/')"
		case strings.ContainsRune(windowsForbidden, r):
			return "character " + strconv.QuoteRune(r) + " (not allowed on Windows)"
		}
	}
	if last := c[len(c)-1]; last == '.' || last == ' ' {
		return "component ending in a dot or space (Windows strips it)"
	}
	if isDeviceName(c) {
		return "component " + quote(c) + " is a Windows device name"
	}
	return ""
}

// isDeviceName reports whether Windows would open a device for component
// c: the part before the first dot, trailing spaces removed, compared
// case-insensitively (ASCII only) with CON, PRN, AUX, NUL, COM1-9, LPT1-9
// (and the superscripts ¹²³), CONIN$ and CONOUT$.
func isDeviceName(c string) bool {
	base := c
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	base = strings.TrimRight(base, " ")
	switch len(base) {
	case 3:
		return equalFoldASCII(base, "CON") || equalFoldASCII(base, "PRN") ||
			equalFoldASCII(base, "AUX") || equalFoldASCII(base, "NUL")
	case 4, 5:
		if !equalFoldASCII(base[:3], "COM") && !equalFoldASCII(base[:3], "LPT") {
			return false
		}
		d := base[3:]
		return len(d) == 1 && '1' <= d[0] && d[0] <= '9' || d == "¹" || d == "²" || d == "³"
	case 6:
		return equalFoldASCII(base, "CONIN$")
	case 7:
		return equalFoldASCII(base, "CONOUT$")
	}
	return false
}

func equalFoldASCII(s, upper string) bool {
	if len(s) != len(upper) {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'a' <= b && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b != upper[i] {
			return false
		}
	}
	return true
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// checkURL applies the host's lexical URL rules: printable ASCII without
// spaces or backslashes, parses with a scheme (remote.url); the scheme, as
// spelled (lower case), among allowed (remote.scheme); hierarchical, no
// userinfo at all (ssh user names included: credentials come from the
// host's store), a host (remote.url). A detail never carries the URL: it can
// hold a credential.
func checkURL(raw string, allowed ...string) (schema.Rule, string) {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return schema.RuleRemoteURL, "url must be printable ASCII without spaces or backslashes (byte " + strconv.Itoa(i) + "); percent-encode, and spell hosts in punycode"
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return schema.RuleRemoteURL, "url is not an absolute URL"
	}
	scheme := raw[:len(u.Scheme)] // as spelled: url.Parse lower-cases it
	ok := false
	for _, a := range allowed {
		ok = ok || scheme == a
	}
	if !ok {
		return schema.RuleRemoteScheme, "scheme " + quote(scheme) + " not allowed (allowed: " + strings.Join(allowed, ", ") + ")"
	}
	switch {
	case u.Opaque != "":
		return schema.RuleRemoteURL, "url is not hierarchical (scheme: without //)"
	case u.User != nil:
		return schema.RuleRemoteURL, "url carries userinfo; the host supplies credentials"
	case u.Host == "" || u.Hostname() == "":
		return schema.RuleRemoteURL, "url has no host"
	}
	return schema.RuleUnknown, ""
}

// Header names in lower case that the host's HTTP client owns: framing,
// routing, hop-by-hop and Expect. A fetch naming one is refused.
var framingHeaders = map[string]bool{
	"host": true, "content-length": true, "transfer-encoding": true, "connection": true, "upgrade": true,
	"te": true, "trailer": true, "keep-alive": true, "proxy-connection": true, "expect": true,
}

// maxHeaders is the most headers one fetch may carry.
const maxHeaders = 64

// checkHeaders applies the host's header rules to headers in the order they
// were added: at most maxHeaders; each name an RFC 9110 token, named once
// whatever its case, not a framing header; each value free of control
// characters other than tab (remote.header), and both valid UTF-8. Details
// never carry a value: it may be a secret.
func checkHeaders(hs [][2]string) (schema.Rule, string) {
	if len(hs) > maxHeaders {
		return schema.RuleRemoteHeader, "more than " + strconv.Itoa(maxHeaders) + " headers"
	}
	seen := map[string]bool{}
	for _, h := range hs {
		name, value := h[0], h[1]
		if !utf8.ValidString(name) || !utf8.ValidString(value) {
			return schema.RulePlanInvalidUTF8, "header is not valid UTF-8"
		}
		if !isToken(name) {
			return schema.RuleRemoteHeader, "header name " + quote(name) + " is not a token"
		}
		for i := 0; i < len(value); i++ {
			if c := value[i]; (c < 0x20 && c != '\t') || c == 0x7f {
				return schema.RuleRemoteHeader, "value of header " + quote(name) + " has a control character at byte " + strconv.Itoa(i)
			}
		}
		l := strings.ToLower(name)
		if seen[l] {
			return schema.RuleRemoteHeader, "header " + quote(name) + " named twice (names are case-insensitive)"
		}
		seen[l] = true
		if framingHeaders[l] {
			return schema.RuleRemoteHeader, "header " + quote(name) + " changes framing or routing; the host sets it"
		}
	}
	return schema.RuleUnknown, ""
}

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

// checkBase64 refuses content that is not strict standard base64 (the +/
// alphabet, = padding, zero trailing bits, no line breaks or spaces): the
// one spelling of each byte string, as the host requires.
func checkBase64(content string) bool {
	if strings.ContainsAny(content, "\r\n") {
		return false
	}
	_, err := strictBase64.DecodeString(content)
	return err == nil
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

package lexical

import (
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// MaxHeaders is the most headers one fetch intent may carry. Without it a
// plan of many tiny headers would cost the host far more memory (in maps)
// than the plan's bytes.
const MaxHeaders = 64

// Header applies the rules of one fetch header: its name must be an RFC
// 9110 token, its value free of DEL and of every control character but
// tab, and its name not one the host's HTTP client owns (IsFramingHeader).
// It returns RuleUnknown and "" when the header passes, RuleRemoteHeader
// otherwise, the faults checked in that order (so a framing header with a
// bad value is refused for its value). The detail quotes the name (at most
// NameEcho bytes) and never the value, which may be a secret.
//
// Header does not refuse a credential header (IsCredentialHeader): the host
// drops those from the intent rather than refusing the plan.
func Header(name, value string) (schema.Rule, string) {
	if !isToken(name) {
		return schema.RuleRemoteHeader, "header name " + Quote(name, NameEcho) + " is not a token"
	}
	if i := badValueByte(value); i >= 0 {
		return schema.RuleRemoteHeader, "value of header " + Quote(name, NameEcho) + " has a control character at byte " + strconv.Itoa(i)
	}
	if IsFramingHeader(name) {
		return schema.RuleRemoteHeader, "header " + Quote(name, NameEcho) + " changes framing or routing; the host sets it"
	}
	return schema.RuleUnknown, ""
}

// HeaderSet applies the rules of a fetch's whole header set, one header at
// a time in the order the plan holds them: at most MaxHeaders, each
// passing Header, and no name twice whatever its case. The zero HeaderSet
// is empty and ready to use; use one per fetch intent.
type HeaderSet struct {
	n     int
	names [MaxHeaders]string // the names added so far; a set is small, so a scan beats a map
}

// Add checks the next header of the set and returns the first fault, always
// RuleRemoteHeader, or RuleUnknown and "" when the header passes. Once Add
// has refused a header the verdict on the set is that refusal; later calls
// are not meaningful.
func (s *HeaderSet) Add(name, value string) (schema.Rule, string) {
	if s.n == MaxHeaders {
		return schema.RuleRemoteHeader, "more than " + strconv.Itoa(MaxHeaders) + " headers"
	}
	if rule, detail := Header(name, value); rule != schema.RuleUnknown {
		return rule, detail
	}
	// Both names are tokens, hence ASCII, so strings.EqualFold folds ASCII
	// letters and nothing else; the length test first keeps names of
	// different lengths from costing a scan of their common prefix.
	for _, prev := range s.names[:s.n] {
		if len(prev) == len(name) && strings.EqualFold(prev, name) {
			return schema.RuleRemoteHeader, "header " + Quote(name, NameEcho) + " named twice (names are case-insensitive)"
		}
	}
	s.names[s.n] = name
	s.n++
	return schema.RuleUnknown, ""
}

// Header names, in upper case.
var (
	// framingHeaders would change how the request is framed or routed, or
	// are hop-by-hop (RFC 9110 section 7.6.1), or change the exchange's
	// flow (Expect): the host's client owns all of them.
	framingHeaders = []string{
		"HOST", "CONTENT-LENGTH", "TRANSFER-ENCODING", "CONNECTION", "UPGRADE",
		"TE", "TRAILER", "KEEP-ALIVE", "PROXY-CONNECTION", "EXPECT",
	}

	// credentialHeaders carry a credential: an extension cannot send one
	// outward nor override the one the host attaches.
	credentialHeaders = []string{"AUTHORIZATION", "COOKIE", "PROXY-AUTHORIZATION"}
)

// IsFramingHeader reports whether name, in any ASCII case, is a header that
// frames or routes the request, is hop-by-hop, or changes the exchange's
// flow: Host, Content-Length, Transfer-Encoding, Connection, Upgrade, TE,
// Trailer, Keep-Alive, Proxy-Connection, Expect. A fetch naming one is
// refused (Header).
func IsFramingHeader(name string) bool { return inFoldASCII(name, framingHeaders) }

// IsCredentialHeader reports whether name, in any ASCII case, carries a
// credential: Authorization, Cookie, Proxy-Authorization. The host drops
// such a header from a fetch, and records that it did, rather than refuse
// the plan.
func IsCredentialHeader(name string) bool { return inFoldASCII(name, credentialHeaders) }

// inFoldASCII reports whether s equals one of the upper-case ASCII words,
// folding ASCII letters only: a header name is a token, so Unicode folding
// ("K" to "k") must not make a non-token look like one of them.
func inFoldASCII(s string, words []string) bool {
	for _, w := range words {
		if equalFoldASCII(s, w) {
			return true
		}
	}
	return false
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

package schema

import "fmt"

// Rule is a member of the closed rejection vocabulary. Every refusal the host
// makes names exactly one Rule; its string form is stable and is what the
// CLI, the audit log, --json output and the shared vectors spell.
type Rule uint8

// The rejection vocabulary. Add a member only together with its spelling in
// ruleNames; the round-trip test enforces that every member has one.
const (
	RuleUnknown Rule = iota // not a rule; the zero value

	RulePlanMalformed      // not a JSON object of the plan's shape, or trailing data
	RulePlanUnknownField   // a member the protocol does not define
	RulePlanUnknownOp      // an "op" outside the five intents
	RulePlanDuplicateKey   // one object naming a member twice
	RulePlanMissingField   // a required member is absent
	RulePlanProtocol       // "protocol" is not the version this host speaks
	RulePlanInvalidUTF8    // a string that is not valid UTF-8
	RulePlanEncoding       // unknown content encoding, or content not in it
	RulePlanTooLarge       // more bytes than the plan bound
	RulePlanTooManyIntents // more intents than the intent bound
	RulePlanFieldTooLarge  // one content field larger than the field bound

	RulePathAbsolute     // an absolute or drive- or UNC-rooted path
	RulePathTraversal    // a ".." component
	RulePathInvalid      // a path no supported filesystem can hold portably
	RulePathSymlink      // a component is a symbolic link
	RulePathReparsePoint // a component is a Windows reparse point
	RulePathCrossDevice  // a component crosses onto another device or volume
	RulePathNotDirectory // a non-directory used as a directory

	RuleConflictSamePath // two intents touch the same path
	RuleConflictNested   // one intent's path lies beneath another's
	RuleConflictUnowned  // an intent would change or remove a file lola did not write there

	RuleCapabilityMissing // an intent needs a capability that was not granted
	RuleCapabilityUnknown // a declaration names a capability the host does not define
	RuleGrantOutside      // a path outside the extension's effective path grant

	RuleRemoteScheme        // a scheme the op does not allow
	RuleRemoteMethod        // a fetch method other than GET
	RuleRemoteURL           // a URL that does not parse, or carries userinfo
	RuleRemoteHeader        // a header that would change framing or routing
	RuleRemoteDestination   // a resolved address that is not globally routable
	RuleRemoteRedirect      // too many redirects, or a redirect the policy refuses
	RuleRemoteBound         // a response or checkout over its byte or time bound
	RuleRemoteTransportAuth // TLS or ssh host authentication failed

	RuleExtensionChanged  // an extension's artifact or manifest differs from what was pinned when it was added
	RuleExtensionUnsigned // the trust policy requires a signature the artifact's pin or bundle does not carry

	RuleConflictChanged // a compare-and-swap write's file no longer holds what the write was computed from (if_content)
	RulePlanMode        // a write's mode that is not permission bits, contradicts executable, or adds group/other write

	ruleEnd
)

var ruleNames = [...]string{
	RuleUnknown:             "",
	RulePlanMalformed:       "plan.malformed",
	RulePlanUnknownField:    "plan.unknown-field",
	RulePlanUnknownOp:       "plan.unknown-op",
	RulePlanDuplicateKey:    "plan.duplicate-key",
	RulePlanMissingField:    "plan.missing-field",
	RulePlanProtocol:        "plan.protocol",
	RulePlanInvalidUTF8:     "plan.invalid-utf8",
	RulePlanEncoding:        "plan.encoding",
	RulePlanTooLarge:        "plan.too-large",
	RulePlanTooManyIntents:  "plan.too-many-intents",
	RulePlanFieldTooLarge:   "plan.field-too-large",
	RulePathAbsolute:        "path.absolute",
	RulePathTraversal:       "path.traversal",
	RulePathInvalid:         "path.invalid",
	RulePathSymlink:         "path.symlink",
	RulePathReparsePoint:    "path.reparse-point",
	RulePathCrossDevice:     "path.cross-device",
	RulePathNotDirectory:    "path.not-directory",
	RuleConflictSamePath:    "conflict.same-path",
	RuleConflictNested:      "conflict.nested",
	RuleConflictUnowned:     "conflict.unowned",
	RuleCapabilityMissing:   "capability.missing",
	RuleCapabilityUnknown:   "capability.unknown",
	RuleGrantOutside:        "grant.outside",
	RuleRemoteScheme:        "remote.scheme",
	RuleRemoteMethod:        "remote.method",
	RuleRemoteURL:           "remote.url",
	RuleRemoteHeader:        "remote.header",
	RuleRemoteDestination:   "remote.destination",
	RuleRemoteRedirect:      "remote.redirect",
	RuleRemoteBound:         "remote.bound",
	RuleRemoteTransportAuth: "remote.transport-auth",
	RuleExtensionChanged:    "extension.changed",
	RuleExtensionUnsigned:   "extension.unsigned",
	RuleConflictChanged:     "conflict.changed",
	RulePlanMode:            "plan.mode",
}

// Rules lists every member of the vocabulary, in declaration order.
func Rules() []Rule {
	out := make([]Rule, 0, int(ruleEnd)-1)
	for r := RuleUnknown + 1; r < ruleEnd; r++ {
		out = append(out, r)
	}
	return out
}

// String returns the rule's stable spelling, e.g. "conflict.same-path".
func (r Rule) String() string {
	if r < ruleEnd {
		return ruleNames[r]
	}
	return fmt.Sprintf("rule(%d)", uint8(r))
}

// ParseRule returns the rule spelled s, or false if s is not in the vocabulary.
func ParseRule(s string) (Rule, bool) {
	for r := RuleUnknown + 1; r < ruleEnd; r++ {
		if ruleNames[r] == s {
			return r, true
		}
	}
	return RuleUnknown, false
}

// MarshalText spells the rule; the zero value and out-of-range values are errors.
func (r Rule) MarshalText() ([]byte, error) {
	if r == RuleUnknown || r >= ruleEnd {
		return nil, fmt.Errorf("schema: %d is not a rule", uint8(r))
	}
	return []byte(ruleNames[r]), nil
}

// UnmarshalText parses a rule spelling, refusing anything outside the vocabulary.
func (r *Rule) UnmarshalText(b []byte) error {
	v, ok := ParseRule(string(b))
	if !ok {
		return fmt.Errorf("schema: %q is not a rule", b)
	}
	*r = v
	return nil
}

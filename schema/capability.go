package schema

import (
	"fmt"
	"slices"
	"strings"
)

// Capability is an atom of authority an extension can declare. Its string
// form is the one spelling shared by manifests, --caps, the audit log and
// this package; there is no filesystem capability, since every filesystem
// effect is mediated by the plan.
type Capability string

// The capabilities the host defines. Both are exercised by the host, never by
// the extension: the extension supplies an intent and the host performs it.
const (
	CapNetHTTP Capability = "net.http" // the host performs fetch intents
	CapNetGit  Capability = "net.git"  // the host performs clone intents
)

// Capabilities lists every defined capability, sorted.
func Capabilities() []Capability { return []Capability{CapNetGit, CapNetHTTP} }

// ParseCapability returns the capability spelled s, or an error naming s when
// the host does not define it. Unknown atoms are refused, never trimmed.
func ParseCapability(s string) (Capability, error) {
	for _, c := range Capabilities() {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown capability %q (defined: %s)", s, JoinCapabilities(Capabilities()))
}

// ParseCapabilityList parses the comma-separated form used by --caps. The
// empty string is the empty set. Duplicates collapse; the result is sorted.
func ParseCapabilityList(s string) ([]Capability, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	seen := map[Capability]bool{}
	var out []Capability
	for _, part := range strings.Split(s, ",") {
		c, err := ParseCapability(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out, nil
}

// JoinCapabilities renders a set in the --caps form.
func JoinCapabilities(cs []Capability) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	return strings.Join(parts, ",")
}

// RequiredCapability is the capability an op needs, or "" when it needs none.
func RequiredCapability(op Op) Capability {
	switch op {
	case OpFetch:
		return CapNetHTTP
	case OpClone:
		return CapNetGit
	}
	return ""
}

package config

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Admission is one operator re-admission of destinations: a CIDR prefix and
// optionally one port. Only ParseAdmission constructs one; the zero value
// admits nothing.
type Admission struct {
	prefix netip.Prefix
	port   uint16 // 0: every port
}

// ParseAdmission parses one entry of remote.allow. Accepted spellings:
//
//	127.0.0.0/8            every port of the prefix
//	[127.0.0.1/32]:8443    one port of the prefix
//	[::1]/128:8443         the same, bracketing only the address
//
// The prefix must be in canonical form (no host bits set: 10.1.0.0/8 is
// refused as a likely typo), carry no zone, and a port must be 1..65535.
func ParseAdmission(s string) (Admission, error) {
	cidr, portText := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.LastIndex(s, "]")
		if end < 0 {
			return Admission{}, fmt.Errorf("admission %q: unbalanced '['", s)
		}
		inner, rest := s[1:end], s[end+1:]
		// "[::1]/128:8443": the prefix length follows the bracket.
		if strings.HasPrefix(rest, "/") {
			colon := strings.LastIndex(rest, ":")
			if colon < 0 {
				return Admission{}, fmt.Errorf("admission %q: a bracketed entry needs a port", s)
			}
			inner, rest = inner+rest[:colon], rest[colon:]
		}
		if !strings.HasPrefix(rest, ":") || len(rest) == 1 {
			return Admission{}, fmt.Errorf("admission %q: a bracketed entry needs ':port'", s)
		}
		cidr, portText = inner, rest[1:]
	}
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return Admission{}, fmt.Errorf("admission %q: not a CIDR prefix", s)
	}
	if p.Addr().Zone() != "" {
		return Admission{}, fmt.Errorf("admission %q: a zone is not allowed", s)
	}
	if p.Masked() != p {
		return Admission{}, fmt.Errorf("admission %q: host bits set (did you mean %s?)", s, p.Masked())
	}
	var port uint16
	if portText != "" {
		n, err := strconv.ParseUint(portText, 10, 16)
		if err != nil || n == 0 {
			return Admission{}, fmt.Errorf("admission %q: port must be 1..65535", s)
		}
		port = uint16(n)
	}
	return Admission{prefix: p, port: port}, nil
}

// Prefix is the admitted address range.
func (a Admission) Prefix() netip.Prefix { return a.prefix }

// Port is the admitted port, or 0 when every port is admitted.
func (a Admission) Port() uint16 { return a.port }

// Admits reports whether ap lies in the admission. An IPv4-mapped IPv6
// address does not match an IPv4 prefix: admission is by the address as
// dialled, never by a reinterpretation of it.
func (a Admission) Admits(ap netip.AddrPort) bool {
	if !a.prefix.IsValid() {
		return false
	}
	if a.port != 0 && ap.Port() != a.port {
		return false
	}
	return a.prefix.Contains(ap.Addr())
}

// String renders the admission in the first spelling ParseAdmission accepts
// for it; the result parses back to the same Admission.
func (a Admission) String() string {
	if a.port == 0 {
		return a.prefix.String()
	}
	return "[" + a.prefix.String() + "]:" + strconv.Itoa(int(a.port))
}

package remote

import "net/netip"

// special is one entry of the IANA special-purpose address registries (or of
// the multicast and reserved ranges next to them) whose addresses are not
// globally routable destinations.
type special struct {
	prefix netip.Prefix
	name   string
}

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// specials4 follows the IANA IPv4 Special-Purpose Address Registry, plus
// multicast and the reserved 240/4 block. More specific entries come first so
// that an address is named by its narrowest range. Registry entries marked
// globally reachable (AS112 192.31.196.0/24, 192.175.48.0/24, AMT
// 192.52.193.0/24) are deliberately absent; 192.0.0.9 and 192.0.0.10, marked
// reachable inside 192.0.0.0/24, are refused with the whole block because
// they are anycast infrastructure, never a fetch target.
var specials4 = []special{
	{mustPrefix("0.0.0.0/32"), "unspecified"},
	{mustPrefix("0.0.0.0/8"), "this-network"},
	{mustPrefix("10.0.0.0/8"), "private-use"},
	{mustPrefix("100.64.0.0/10"), "shared-address-space (CGNAT)"},
	{mustPrefix("127.0.0.0/8"), "loopback"},
	{mustPrefix("169.254.0.0/16"), "link-local"},
	{mustPrefix("172.16.0.0/12"), "private-use"},
	{mustPrefix("192.0.0.0/24"), "ietf-protocol-assignments"},
	{mustPrefix("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{mustPrefix("192.88.99.0/24"), "6to4-relay-anycast (deprecated)"},
	{mustPrefix("192.168.0.0/16"), "private-use"},
	{mustPrefix("198.18.0.0/15"), "benchmarking"},
	{mustPrefix("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{mustPrefix("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{mustPrefix("224.0.0.0/4"), "multicast"},
	{mustPrefix("255.255.255.255/32"), "limited-broadcast"},
	{mustPrefix("240.0.0.0/4"), "reserved"},
}

// specials6 follows the IANA IPv6 Special-Purpose Address Registry. Every
// address outside 2000::/3 (global unicast) is refused after these, so the
// list names ranges for diagnostics rather than being the whole rule. The
// IETF protocol-assignments block 2001::/23 is refused whole, including its
// few anycast entries marked reachable (PCP, TURN, AMT, AS112, ORCHIDv2):
// none is a content host.
var specials6 = []special{
	{mustPrefix("::/128"), "unspecified"},
	{mustPrefix("::1/128"), "loopback"},
	{mustPrefix("::ffff:0:0/96"), "ipv4-mapped"},
	{mustPrefix("::/96"), "ipv4-compatible (deprecated)"},
	{mustPrefix("64:ff9b::/96"), "nat64 (well-known prefix)"},
	{mustPrefix("64:ff9b:1::/48"), "nat64 (local-use)"},
	{mustPrefix("100::/64"), "discard-only"},
	{mustPrefix("100:0:0:1::/64"), "dummy-prefix"},
	{mustPrefix("2001::/32"), "teredo"},
	{mustPrefix("2001:2::/48"), "benchmarking"},
	{mustPrefix("2001:10::/28"), "orchid (deprecated)"},
	{mustPrefix("2001:20::/28"), "orchid-v2"},
	{mustPrefix("2001::/23"), "ietf-protocol-assignments"},
	{mustPrefix("2001:db8::/32"), "documentation"},
	{mustPrefix("2002::/16"), "6to4"},
	{mustPrefix("3fff::/20"), "documentation"},
	{mustPrefix("5f00::/16"), "srv6-sids"},
	{mustPrefix("fc00::/7"), "unique-local"},
	{mustPrefix("fe80::/10"), "link-local"},
	{mustPrefix("fec0::/10"), "site-local (deprecated)"},
	{mustPrefix("ff00::/8"), "multicast"},
}

var globalUnicast6 = mustPrefix("2000::/3")

// Classify reports whether a is a globally routable unicast address and, when
// it is not, the name of the range that excludes it. It judges the address as
// given: an IPv4-mapped or IPv4-compatible IPv6 address is refused as such,
// never unmapped and judged as IPv4, and an address carrying a zone is
// refused (a zone only means something on a local link). The operator's
// re-admission is not consulted here; Policy applies it.
func Classify(a netip.Addr) (rangeName string, global bool) {
	switch {
	case !a.IsValid():
		return "invalid", false
	case a.Zone() != "":
		return "zoned (link-scoped)", false
	case a.Is4():
		for _, s := range specials4 {
			if s.prefix.Contains(a) {
				return s.name, false
			}
		}
		return "", true
	}
	for _, s := range specials6 {
		if s.prefix.Contains(a) {
			return s.name, false
		}
	}
	if !globalUnicast6.Contains(a) {
		return "not global unicast (outside 2000::/3)", false
	}
	return "", true
}

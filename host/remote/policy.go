package remote

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// Resolver answers the addresses of a host name. *net.Resolver satisfies it;
// tests inject their own to model rebinding. network is "ip".
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// SystemResolver is the host's resolver: net.DefaultResolver, with IPv4
// answers normalised to their 4-byte form (the standard library can return
// A records as IPv4-mapped IPv6 addresses, which Classify refuses as such).
type SystemResolver struct{}

// LookupNetIP resolves host through net.DefaultResolver.
func (SystemResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, network, host)
	for i, a := range addrs {
		addrs[i] = a.Unmap()
	}
	return addrs, err
}

// Policy is the host's destination policy: the IANA classification plus the
// operator's re-admissions and redirect depth. Build it with NewPolicy; the
// zero Policy is not valid.
type Policy struct {
	allow        []config.Admission
	maxRedirects int
}

// NewPolicy builds the policy from the operator's configuration.
func NewPolicy(r config.Remote) (*Policy, error) {
	if r.MaxRedirects() <= 0 {
		return nil, errors.New("remote policy: max_redirects must be positive")
	}
	return &Policy{allow: r.Allow(), maxRedirects: r.MaxRedirects()}, nil
}

// MaxRedirects is the number of redirects one operation may follow.
func (p *Policy) MaxRedirects() int { return p.maxRedirects }

// Destination is the proof that one address was checked against the policy
// for one host name: the only thing the dialers accept. Only Policy
// constructs one.
type Destination struct {
	host string // the name as the URL spelled it; TLS and ssh verify this
	addr netip.AddrPort
}

// Host is the name the destination was checked for.
func (d Destination) Host() string { return d.host }

// Addr is the checked address and port, the one that is dialled.
func (d Destination) Addr() netip.AddrPort { return d.addr }

// IsZero reports whether d was not produced by the policy.
func (d Destination) IsZero() bool { return !d.addr.IsValid() }

// Check judges one address for host: admitted if the operator re-admits it,
// otherwise only if Classify says it is globally routable.
func (p *Policy) Check(host string, ap netip.AddrPort) (Destination, error) {
	for _, a := range p.allow {
		if a.Admits(ap) {
			return Destination{host: host, addr: ap}, nil
		}
	}
	name, global := Classify(ap.Addr())
	if !global {
		return Destination{}, rejection.New(schema.RuleRemoteDestination,
			fmt.Sprintf("%s resolves to %s, which is %s and not globally routable", redactHost(host), ap.Addr(), name))
	}
	return Destination{host: host, addr: ap}, nil
}

// Resolve resolves host and checks every address it answers, returning them
// as destinations on port, in the resolver's order. The name is refused as a
// whole when any address is refused: a name that answers one public and one
// private address is a rebinding vector, not a choice to make quietly. An IP
// literal is checked without resolution.
func (p *Policy) Resolve(ctx context.Context, r Resolver, host string, port uint16) ([]Destination, error) {
	if host == "" {
		return nil, rejection.New(schema.RuleRemoteDestination, "empty host")
	}
	if a, err := netip.ParseAddr(host); err == nil {
		d, err := p.Check(host, netip.AddrPortFrom(a, port))
		if err != nil {
			return nil, err
		}
		return []Destination{d}, nil
	}
	if numericHostForm(host) {
		return nil, rejection.New(schema.RuleRemoteDestination,
			fmt.Sprintf("%s is a numeric address form other than dotted-quad; refused before resolution", redactHost(host)))
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, rejection.New(schema.RuleRemoteDestination, fmt.Sprintf("%s does not resolve", redactHost(host)))
	}
	out := make([]Destination, 0, len(addrs))
	for _, a := range addrs {
		d, err := p.Check(host, netip.AddrPortFrom(a, port))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// numericHostForm reports whether host is spelled as the inet_aton family of
// IPv4 forms (decimal 2130706433, octal 0177.0.0.1, hex 0x7f.1, short 127.1)
// that netip.ParseAddr rejects but a C resolver may still turn into an
// address. Those names are refused outright; the resolved-address check would
// catch a private answer anyway, this closes the gap for resolvers that
// interpret them differently from each other.
func numericHostForm(host string) bool {
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if len(labels) > 4 {
		return false
	}
	for _, l := range labels {
		lower := strings.ToLower(l)
		switch {
		case strings.HasPrefix(lower, "0x"):
			if _, err := strconv.ParseUint(lower[2:], 16, 64); err != nil && lower != "0x" {
				return false
			}
		case lower == "":
			return false
		default:
			if _, err := strconv.ParseUint(lower, 10, 64); err != nil {
				return false
			}
		}
	}
	return true
}

// redactHost quotes a host name for diagnostics (lexical.Quote: escaped,
// and bounded at the longest DNS name, since names come from the plan).
func redactHost(h string) string { return lexical.Quote(h, 253) }

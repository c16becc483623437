package remote

import (
	"context"
	"net/netip"
	"net/url"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// TestClassifySSRFVectors runs the classifier over the address forms public
// SSRF vector lists use, and over globally routable addresses that must stay
// allowed, including the edges of the ranges that are refused.
func TestClassifySSRFVectors(t *testing.T) {
	refused := []string{
		// loopback, unspecified, this-network
		"127.0.0.1", "127.255.255.254", "127.0.1.1", "0.0.0.0", "0.1.2.3", "::1", "::",
		// private, CGNAT, IETF protocol assignments
		"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "100.127.255.255",
		"192.0.0.1", "192.0.0.9", "192.0.0.170",
		// link-local and cloud metadata endpoints
		"169.254.169.254", "169.254.170.2", "fe80::1", "fe80::a9fe:a9fe", "fd00:ec2::254",
		// documentation and benchmarking
		"192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "198.19.255.255",
		"2001:db8::1", "3fff::1", "3fff:fff:ffff::1", "2001:2::1",
		// multicast, reserved, broadcast, 6to4 relay
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255", "192.88.99.1", "ff02::1", "ff05::2",
		// IPv4 embedded in IPv6: mapped, compatible, NAT64, 6to4, Teredo
		"::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:8.8.8.8", "::127.0.0.1", "::8.8.8.8",
		"64:ff9b::7f00:1", "64:ff9b::808:808", "64:ff9b:1::a00:1",
		"2002:7f00:1::", "2002:a9fe:a9fe::1", "2002:808:808::",
		"2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
		// ULA, site-local, discard, ORCHID, SRv6, outside global unicast
		"fc00::1", "fdff:ffff::1", "fec0::1", "100::1", "2001:10::1", "2001:20::1", "5f00::1", "4000::1", "::2",
	}
	for _, s := range refused {
		a := netip.MustParseAddr(s)
		if name, global := Classify(a); global || name == "" {
			t.Errorf("Classify(%s) = %q, %v; want refused with a range name", s, name, global)
		}
	}
	allowed := []string{
		"8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2001:4860:4860::8888",
		"100.63.255.254", "100.128.0.1", // either side of 100.64/10
		"172.15.255.255", "172.32.0.0", // either side of 172.16/12
		"192.0.1.255", "192.0.3.0", "198.17.255.255", "198.20.0.0",
		"223.255.255.255", "11.0.0.0", "9.255.255.255",
		"192.31.196.1", "192.175.48.1", // AS112: globally reachable per the registry
		"2003::1", "3ffe::1", "2001:200::1", // just outside 2002::/16, 3fff::/20, 2001::/23
	}
	for _, s := range allowed {
		a := netip.MustParseAddr(s)
		if name, global := Classify(a); !global {
			t.Errorf("Classify(%s) refused as %q; it is globally routable", s, name)
		}
	}
	if _, global := Classify(netip.MustParseAddr("fe80::1%eth0")); global {
		t.Error("a zoned address was allowed")
	}
	if _, global := Classify(netip.Addr{}); global {
		t.Error("the zero address was allowed")
	}
}

// TestNumericHostForms covers the inet_aton spellings of 127.0.0.1 that SSRF
// lists use. Go's netip.ParseAddr refuses every one of them, so they can only
// reach the policy as host names handed to a resolver; a C resolver could
// turn them into 127.0.0.1. The policy refuses them before resolution.
func TestNumericHostForms(t *testing.T) {
	forms := []string{"2130706433", "0x7f000001", "0177.0.0.1", "0x7f.0.0.1", "127.1", "127.0.1", "0x7f.1", "017700000001", "127.0.0.1.", "0"}
	r := newResolver()
	for _, f := range forms {
		r.set(f, addrs("127.0.0.1"))
	}
	p := policyFor(t, nil, 0)
	for _, f := range forms {
		if _, err := netip.ParseAddr(f); err == nil && f != "127.0.0.1." {
			t.Errorf("netip.ParseAddr(%q) accepted it; the test's premise is wrong", f)
		}
		u, err := url.Parse("https://" + f + "/x")
		if err != nil {
			t.Errorf("url.Parse refused %q (%v); the form cannot reach the resolver", f, err)
			continue
		}
		_, err = p.Resolve(context.Background(), r, u.Hostname(), 443)
		wantRule(t, err, schema.RuleRemoteDestination)
		if r.count(f) != 0 {
			t.Errorf("%q reached the resolver", f)
		}
	}
	// Names that merely look hexadecimal are names.
	for _, name := range []string{"cafe.be", "deadbeef.example", "0x.example", "1.2.3.4.5"} {
		if numericHostForm(name) {
			t.Errorf("%q treated as a numeric form", name)
		}
	}
}

func TestResolveRefusesAnyPrivateAnswer(t *testing.T) {
	r := newResolver()
	r.set("mixed.test", addrs("8.8.8.8", "10.0.0.1"))
	r.set("public.test", addrs("8.8.8.8", "2606:4700:4700::1111"))
	r.set("mapped.test", addrs("::ffff:10.0.0.1"))
	p := policyFor(t, nil, 0)
	ctx := context.Background()
	_, err := p.Resolve(ctx, r, "mixed.test", 443)
	wantRule(t, err, schema.RuleRemoteDestination)
	_, err = p.Resolve(ctx, r, "mapped.test", 443)
	wantRule(t, err, schema.RuleRemoteDestination)
	_, err = p.Resolve(ctx, r, "absent.test", 443)
	wantRule(t, err, schema.RuleRemoteDestination)
	ds, err := p.Resolve(ctx, r, "public.test", 443)
	if err != nil || len(ds) != 2 || ds[0].Addr() != netip.MustParseAddrPort("8.8.8.8:443") || ds[0].Host() != "public.test" {
		t.Fatalf("public.test: %v %v", ds, err)
	}
	// Literal addresses are judged without resolution.
	_, err = p.Resolve(ctx, r, "169.254.169.254", 443)
	wantRule(t, err, schema.RuleRemoteDestination)
	_, err = p.Resolve(ctx, r, "::ffff:127.0.0.1", 443)
	wantRule(t, err, schema.RuleRemoteDestination)
}

func TestAdmissionIsByAddressAndPort(t *testing.T) {
	p := policyFor(t, []string{"[127.0.0.1/32]:8443", "10.0.0.0/8"}, 0)
	for ap, ok := range map[string]bool{
		"127.0.0.1:8443":  true,
		"127.0.0.1:443":   false,
		"127.0.0.2:8443":  false,
		"10.9.9.9:22":     true,
		"[::1]:8443":      false,
		"169.254.1.1:443": false,
	} {
		_, err := p.Check("h.test", netip.MustParseAddrPort(ap))
		if (err == nil) != ok {
			t.Errorf("Check(%s) = %v, want admitted=%v", ap, err, ok)
		}
	}
	if (Destination{}).IsZero() != true {
		t.Error("the zero Destination is not zero")
	}
}

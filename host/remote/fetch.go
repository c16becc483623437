package remote

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// FetchRequest is one fetch intent as the executor hands it over.
type FetchRequest struct {
	Extension string              // the extension's identity; keys the cache
	Intent    rejection.IntentRef // named in every violation
	Fetch     schema.Fetch
	// MaxBytes, when positive and below Limits.FetchBytes, is this fetch's
	// byte bound instead (an intake that can hold less than the client's
	// bound, such as an archive the module bounds must admit, refuses the
	// body at its own bound rather than after downloading it). It can only
	// tighten the client's bound, never widen it.
	MaxBytes int64
}

// maxBytes is the byte bound of req under l.
func (req FetchRequest) maxBytes(l Limits) int64 {
	if req.MaxBytes > 0 && req.MaxBytes < l.FetchBytes() {
		return req.MaxBytes
	}
	return l.FetchBytes()
}

// Hop is one request of a fetch or clone: the URL (no userinfo) and the
// address actually dialled.
type Hop struct {
	URL     string
	Dialled netip.AddrPort
}

// FetchReport describes a completed fetch. It carries no credential and no
// body, only the body's size and hash.
type FetchReport struct {
	Hops      []Hop
	Bytes     int64
	SHA256    string // hex
	FromCache bool   // the server answered 304 and the cached body was used
}

// StatusError is a fetch the server answered with a status other than 200
// (or 304 for a cached entry). It is not a policy violation; the plan still
// fails.
type StatusError struct {
	Intent rejection.IntentRef
	Status int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("fetch: intent #%d: the server answered %d %s", e.Intent.Index, e.Status, http.StatusText(e.Status))
}

// Fetch performs one fetch: GET over https, redirects followed under the
// policy, each hop resolved, checked, pinned and reported to obs; the body is
// written to dst (the executor's staging file, opened by descriptor) from its
// current offset, at most Limits.FetchBytes of it (req.MaxBytes when
// smaller), all within Limits.FetchTimeout. On error dst may hold a partial body; the caller
// discards it with the rest of the staged plan.
func (c *Client) Fetch(ctx context.Context, req FetchRequest, dst *os.File, obs HopObserver) (FetchReport, error) {
	ref := req.Intent
	if m := req.Fetch.Method; m != "" && m != http.MethodGet {
		return FetchReport{}, rejection.New(schema.RuleRemoteMethod, "fetch carries GET only", ref)
	}
	u, err := parseRemoteURL(req.Fetch.URL, []string{"https"}, ref)
	if err != nil {
		return FetchReport{}, err
	}
	base, err := requestHeaders(req.Fetch.Headers, ref)
	if err != nil {
		return FetchReport{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Limits.FetchTimeout())
	defer cancel()

	// The cache key is the URL the intent named, as parsed (scheme
	// lower-cased, fragment dropped), whatever the redirect chain does.
	cacheKey := u.String()
	var cached *cacheEntry
	if c.o.Cache != nil {
		cached = c.o.Cache.lookup(req.Extension, cacheKey, req.maxBytes(c.o.Limits))
	}
	var rep FetchReport
	for n := 0; ; n++ {
		h := base.Clone()
		// Per hop, from the store, for this hop's URL: nothing an earlier
		// hop carried survives into this one.
		if cr, ok := c.o.Credentials.lookup(u); ok {
			cr.applyHTTP(h)
		}
		if cached != nil {
			cached.conditional(h)
		}
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return rep, rejection.New(schema.RuleRemoteURL, "cannot build a request for the URL", ref)
		}
		hreq.Header = h
		resp, dialled, err := c.roundTrip(ctx, u, hreq, ref)
		if dialled.IsValid() {
			rep.Hops = append(rep.Hops, Hop{URL: hopURL(u).String(), Dialled: dialled})
			if obs != nil {
				obs.Hop(n, hopURL(u), dialled)
			}
		}
		if err != nil {
			return rep, c.fetchError(ctx, err, ref)
		}
		switch {
		case isRedirect(resp.StatusCode):
			loc := resp.Header.Get("Location")
			drainAndClose(resp.Body)
			if n+1 > c.o.Policy.MaxRedirects() {
				return rep, rejection.New(schema.RuleRemoteRedirect,
					fmt.Sprintf("more than %d redirects", c.o.Policy.MaxRedirects()), ref)
			}
			if loc == "" {
				return rep, rejection.New(schema.RuleRemoteRedirect, "redirect without a Location", ref)
			}
			next, err := u.Parse(loc)
			if err != nil {
				return rep, rejection.New(schema.RuleRemoteRedirect, "redirect to an unparseable Location", ref)
			}
			if next, err = parseRemoteURL(next.String(), []string{"https"}, ref); err != nil {
				return rep, err
			}
			u = next
			continue
		case resp.StatusCode == http.StatusNotModified && cached != nil:
			resp.Body.Close()
			written, sum, err := cached.copyTo(dst)
			if err != nil {
				return rep, c.fetchError(ctx, err, ref)
			}
			rep.Bytes, rep.SHA256, rep.FromCache = written, sum, true
			return rep, nil
		case resp.StatusCode != http.StatusOK:
			drainAndClose(resp.Body)
			return rep, &StatusError{Intent: ref, Status: resp.StatusCode}
		}
		written, sum, err := c.writeBody(ctx, resp, req.Extension, cacheKey, dst, ref, req.maxBytes(c.o.Limits))
		if err != nil {
			return rep, err
		}
		rep.Bytes, rep.SHA256 = written, sum
		return rep, nil
	}
}

// writeBody copies the body to dst, and to the cache when the response is
// cacheable, refusing the byte past max.
func (c *Client) writeBody(ctx context.Context, resp *http.Response, ext, rawURL string, dst *os.File, ref rejection.IntentRef, max int64) (int64, string, error) {
	defer resp.Body.Close()
	if resp.ContentLength > max {
		return 0, "", rejection.New(schema.RuleRemoteBound, fmt.Sprintf("response declares %d bytes, over the %d-byte bound", resp.ContentLength, max), ref)
	}
	sum := sha256.New()
	var w io.Writer = io.MultiWriter(dst, sum)
	var pending *pendingEntry
	if c.o.Cache != nil {
		pending = c.o.Cache.begin(ext, rawURL, resp.Header)
		if pending != nil {
			defer pending.abort()
			w = io.MultiWriter(dst, sum, pending)
		}
	}
	written, err := io.Copy(w, io.LimitReader(resp.Body, max+1))
	if err == nil && ctx.Err() != nil {
		// The transport can report a clean end of body that raced the
		// deadline (the server finished its response as our cancellation
		// closed the connection); a body completed past the deadline is
		// still over the time bound.
		err = ctx.Err()
	}
	if err != nil {
		return written, "", c.fetchError(ctx, err, ref)
	}
	if written > max {
		return written, "", rejection.New(schema.RuleRemoteBound, fmt.Sprintf("response exceeds the %d-byte bound", max), ref)
	}
	hexSum := hexOf(sum)
	if pending != nil {
		pending.commit(written, hexSum) // a cache failure never fails the fetch
	}
	return written, hexSum, nil
}

// roundTrip sends req, whose URL is u, to a pinned, checked address with TLS
// verifying u's host name. It never follows a redirect and has no cookie jar.
// The address dialled is returned even when the request then fails.
func (c *Client) roundTrip(ctx context.Context, u *url.URL, req *http.Request, ref rejection.IntentRef) (*http.Response, netip.AddrPort, error) {
	port, err := portOf(u, 443)
	if err != nil {
		return nil, netip.AddrPort{}, rejection.New(schema.RuleRemoteURL, "URL port is not a number in 1..65535", ref)
	}
	dests, err := c.o.Policy.Resolve(ctx, c.o.Resolver, u.Hostname(), port)
	if err != nil {
		return nil, netip.AddrPort{}, withRef(err, ref)
	}
	var dialled dialRecord
	tr := c.pinnedTransport(dests, u.Hostname(), &dialled)
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	return resp, dialled.get(), err
}

// dialRecord holds the address a transport connected to; the dial can run on
// another goroutine, so access is locked.
type dialRecord struct {
	mu   sync.Mutex
	addr netip.AddrPort
}

func (r *dialRecord) set(a netip.AddrPort) { r.mu.Lock(); r.addr = a; r.mu.Unlock() }

func (r *dialRecord) get() netip.AddrPort { r.mu.Lock(); defer r.mu.Unlock(); return r.addr }

// pinnedTransport is an http.Transport for one hop: every connection goes to
// one of dests, never to a fresh resolution of the name; no proxy; TLS
// verifies the chain against RootCAs and the certificate against host, the
// name from the URL. dialled receives the address connected to.
func (c *Client) pinnedTransport(dests []Destination, host string, dialled *dialRecord) *http.Transport {
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			conn, d, err := dialPinned(ctx, dests, 30*time.Second)
			if err == nil {
				dialled.set(d.Addr())
			}
			return conn, err
		},
		TLSClientConfig: &tls.Config{
			ServerName: host,
			RootCAs:    c.o.RootCAs,
			MinVersion: tls.VersionTLS12,
		},
		ForceAttemptHTTP2: true,
		DisableKeepAlives: true,
		// The bytes written to dest are the bytes the server sent: no
		// transparent decompression, so the byte bound is on the wire and
		// on disk alike.
		DisableCompression:     true,
		TLSHandshakeTimeout:    30 * time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// drainAndClose reads a little of a discarded body so the server sees an
// orderly close, bounded so a redirect cannot stream at us.
func drainAndClose(rc io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(rc, 64<<10))
	rc.Close()
}

func portOf(u *url.URL, def uint16) (uint16, error) {
	p := u.Port()
	if p == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, errors.New("bad port")
	}
	return uint16(n), nil
}

func hexOf(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

package audit

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// IntentRecord is one intent reduced to what may be logged. Only
// NewIntentRecord and IntentsFromPlan construct one, and neither keeps a
// content body, a header value, URL userinfo or a URL query: there is no
// field to keep them in.
type IntentRecord struct {
	e IntentEntry
}

// Bounds on untrusted text that is logged verbatim once it passes its
// field's vocabulary; anything longer is logged as a Digest.
const (
	maxURL   = 2048
	maxToken = 128
	maxRef   = 256
)

// NewIntentRecord reduces intent in (index i of its plan) to its record.
// Paths are parsed with pathrule.Parse and logged root-relative; a write's
// content is decoded per its encoding and logged as sha256 and size; header
// values are never read. A field that does not fit its vocabulary is logged
// as a Digest, so a rejected plan's intents can be recorded too.
//
// content, when non-nil, is the write's decoded body as the executor will
// place it (e.g. from (*plan.Plan).Body); when nil it is decoded here.
func NewIntentRecord(i int, in schema.Intent, content []byte) (IntentRecord, error) {
	op := in.Op()
	if op == "" {
		return IntentRecord{}, fmt.Errorf("audit: intent %d holds no single op", i)
	}
	if i < 0 {
		return IntentRecord{}, fmt.Errorf("audit: negative intent index %d", i)
	}
	e := IntentEntry{Index: i, Op: op}
	addPath := func(field, p string) {
		if pp, err := pathrule.Parse(p); err == nil {
			e.Paths = append(e.Paths, pp.String())
		} else {
			e.Unparsed = append(e.Unparsed, digest(field, p))
		}
	}
	switch op {
	case schema.OpWrite:
		w := in.Write
		addPath("path", w.Path)
		body := content
		if body == nil {
			var err error
			if body, err = decodeContent(w.Content, w.Encoding); err != nil {
				// Undecodable content (a rejected plan): digest the wire form.
				e.Unparsed = append(e.Unparsed, digest("content", w.Content))
				break
			}
		}
		sum := sha256.Sum256(body)
		e.SHA256 = hex.EncodeToString(sum[:])
		n := int64(len(body))
		e.Size = &n
		e.Executable = w.Executable
		if m, ok := schema.ParseMode(w.Mode); ok && w.Mode != "" {
			e.Mode = fmt.Sprintf("%04o", uint32(m)) // parsed, so never the wire's bytes
		}
	case schema.OpDelete:
		addPath("path", in.Delete.Path)
	case schema.OpRename:
		addPath("from", in.Rename.From)
		addPath("to", in.Rename.To)
	case schema.OpFetch:
		f := in.Fetch
		addPath("dest", f.Dest)
		e.URL = redactURL(f.URL, &e)
		switch {
		case f.Method == "":
			e.Method = "GET" // the protocol's default
		case isToken(f.Method, 16):
			e.Method = f.Method
		default:
			e.Unparsed = append(e.Unparsed, digest("method", f.Method))
		}
		for name := range f.Headers { // names only: values are never read
			if !isToken(name, maxToken) {
				e.Unparsed = append(e.Unparsed, digest("header", name))
			} else if lexical.IsCredentialHeader(name) { // the host never forwards these
				e.DroppedHeaders = append(e.DroppedHeaders, name)
			} else {
				e.Headers = append(e.Headers, name)
			}
		}
		sort.Strings(e.Headers)
		sort.Strings(e.DroppedHeaders)
	case schema.OpClone:
		c := in.Clone
		addPath("dest", c.Dest)
		e.URL = redactURL(c.URL, &e)
		if c.Ref != "" {
			if isRef(c.Ref) {
				e.Ref = c.Ref
			} else {
				e.Unparsed = append(e.Unparsed, digest("ref", c.Ref))
			}
		}
		e.Depth = c.Depth
	}
	sortDigests(e.Unparsed)
	return IntentRecord{e: e}, nil
}

// WithDroppedHeaders returns r with names added to the headers the host
// dropped before the intent reached it (host/plan omits Authorization,
// Cookie and Proxy-Authorization from the decoded plan and reports their
// names). Names that are not tokens are logged as digests.
func (r IntentRecord) WithDroppedHeaders(names ...string) IntentRecord {
	e := r.e
	e.DroppedHeaders = append([]string(nil), e.DroppedHeaders...)
	e.Unparsed = append([]Digest(nil), e.Unparsed...)
	for _, n := range names {
		if isToken(n, maxToken) {
			e.DroppedHeaders = append(e.DroppedHeaders, n)
		} else {
			e.Unparsed = append(e.Unparsed, digest("header", n))
		}
	}
	sort.Strings(e.DroppedHeaders)
	sortDigests(e.Unparsed)
	return IntentRecord{e: e}
}

// Index is the intent's index in its plan as emitted.
func (r IntentRecord) Index() int { return r.e.Index }

// Op is the intent's op.
func (r IntentRecord) Op() schema.Op { return r.e.Op }

// Paths returns the root-relative paths the record logs.
func (r IntentRecord) Paths() []string { return append([]string(nil), r.e.Paths...) }

func (r IntentRecord) entry() IntentEntry { return r.e }

// IntentsFromPlan records every intent of p in emission order: each write's
// content hashed from (*plan.Plan).Body, and the headers the decoder
// dropped (Authorization, Cookie, Proxy-Authorization) recorded by name.
func IntentsFromPlan(p *plan.Plan) ([]IntentRecord, error) {
	if p == nil {
		return nil, errors.New("audit: nil plan")
	}
	dropped := map[int][]string{}
	for _, d := range p.DroppedHeaders() {
		dropped[d.Index] = append(dropped[d.Index], d.Name)
	}
	out := make([]IntentRecord, 0, p.Len())
	for i, in := range p.Intents() {
		var content []byte
		if in.Write != nil {
			b, err := p.Body(i)
			if err != nil {
				return nil, fmt.Errorf("audit: intent %d: content: %w", i, err)
			}
			if b == nil {
				b = []byte{}
			}
			content = b
		}
		r, err := NewIntentRecord(i, in, content)
		if err != nil {
			return nil, err
		}
		if names := dropped[i]; len(names) > 0 {
			r = r.WithDroppedHeaders(names...)
		}
		out = append(out, r)
	}
	return out, nil
}

// WithResolvedPaths returns r with its paths replaced by the ones the
// executor resolved beneath the root (root-relative, one per touched path:
// two for a rename), so the log records where the intent lands rather than
// how the plan spelled it. Each must parse as a plan path and their number
// must match the op's.
func (r IntentRecord) WithResolvedPaths(paths ...string) (IntentRecord, error) {
	want := 1
	if r.e.Op == schema.OpRename {
		want = 2
	}
	if len(paths) != want {
		return IntentRecord{}, fmt.Errorf("audit: intent %d (%s) touches %d paths, %d given", r.e.Index, r.e.Op, want, len(paths))
	}
	e := r.e
	e.Paths = make([]string, 0, len(paths))
	for _, p := range paths {
		pp, err := pathrule.Parse(p)
		if err != nil {
			return IntentRecord{}, fmt.Errorf("audit: intent %d: a resolved path does not parse", r.e.Index)
		}
		e.Paths = append(e.Paths, pp.String())
	}
	// The plan's spelling no longer matters once resolution succeeded.
	var keep []Digest
	for _, d := range e.Unparsed {
		switch d.Field {
		case "path", "from", "to", "dest":
		default:
			keep = append(keep, d)
		}
	}
	e.Unparsed = keep
	return IntentRecord{e: e}, nil
}

// SHA256 is the hex sha256 of a write's decoded content ("" for other ops),
// for an executor to check against the bytes it staged.
func (r IntentRecord) SHA256() string { return r.e.SHA256 }

func decodeContent(s string, enc schema.Encoding) ([]byte, error) {
	switch enc {
	case "", schema.EncodingUTF8:
		return []byte(s), nil
	case schema.EncodingBase64:
		return base64.StdEncoding.Strict().DecodeString(s)
	}
	return nil, fmt.Errorf("unknown encoding")
}

// redactURL returns raw without userinfo, query or fragment, marking a
// removed query with "?REDACTED". A URL that does not parse, or is longer
// than maxURL, is logged as a Digest and "" is returned.
func redactURL(raw string, e *IntentEntry) string {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > maxURL || u.Opaque != "" || !isPrintableASCII(raw) {
		e.Unparsed = append(e.Unparsed, digest("url", raw))
		return ""
	}
	hadQuery := u.RawQuery != "" || u.ForceQuery
	u.User = nil
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	if hadQuery {
		s += "?REDACTED"
	}
	return s
}

// hostOf is the host[:port] a hop record logs: never userinfo, path or query.
func hostOf(u *url.URL) string {
	if u == nil || len(u.Host) > 262 || !isPrintableASCII(u.Host) {
		return ""
	}
	return u.Host
}

func digest(field, s string) Digest {
	sum := sha256.Sum256([]byte(s))
	return Digest{Field: field, SHA256: hex.EncodeToString(sum[:]), Bytes: len(s)}
}

func sortDigests(d []Digest) {
	sort.SliceStable(d, func(i, j int) bool { return d[i].Field < d[j].Field })
}

// isToken reports whether s is an RFC 9110 token of at most max bytes.
func isToken(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isRef reports whether s looks like a git ref or commit: printable ASCII
// without spaces, at most maxRef bytes.
func isRef(s string) bool {
	if len(s) > maxRef {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c >= 0x7f {
			return false
		}
	}
	return true
}

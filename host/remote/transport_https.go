package remote

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

var installOnce sync.Once

// installTransports replaces go-git's process-wide https and ssh transports
// with this package's, once. go-git offers no per-clone transport, so the
// installed ones find their clone through the request context (https) or
// the AuthMethod (ssh) and refuse to move a byte without one: any go-git
// network use in the host that does not come through Client.Clone fails
// closed instead of reaching the network unchecked. The plain http, git://
// and file transports are removed for the same reason.
func installTransports() {
	installOnce.Do(func() {
		client.InstallProtocol("https", githttp.NewClient(&http.Client{Transport: policyRoundTripper{}, CheckRedirect: checkCloneRedirect}))
		client.InstallProtocol("ssh", sshTransport{})
		client.InstallProtocol("http", nil)
		client.InstallProtocol("git", nil)
		client.InstallProtocol("file", nil)
	})
}

// policyRoundTripper performs each of go-git's https requests as one
// checked, pinned hop of the clone session found in the request's context.
type policyRoundTripper struct{}

func (policyRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	s := sessionFrom(req.Context())
	if req.Body != nil {
		defer req.Body.Close()
	}
	if s == nil {
		return nil, errors.New("remote: go-git request outside a policy-checked clone")
	}
	if v := s.violation(); v != nil {
		return nil, v
	}
	u, err := parseRemoteURL(req.URL.String(), []string{"https"}, s.ref)
	if err != nil {
		return nil, s.failErr(err)
	}
	// go-git sends GET .../info/refs?service=git-upload-pack and POST
	// .../git-upload-pack; nothing else (never receive-pack) goes out.
	switch {
	case req.Method == http.MethodGet && req.URL.Query().Get("service") == "git-upload-pack":
	case req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/git-upload-pack"):
	default:
		return nil, s.fail(rejection.New(schema.RuleRemoteMethod, "a clone sends only upload-pack requests"))
	}
	out := req.Clone(req.Context())
	out.Body = req.Body
	out.URL = u
	// Credentials are the host's, per request, for this request's URL; go-git
	// was given none and anything it set is discarded.
	for k := range out.Header {
		if lexical.IsCredentialHeader(k) {
			delete(out.Header, k)
		}
	}
	if cr, ok := s.client.o.Credentials.lookup(u); ok {
		cr.applyHTTP(out.Header)
	}
	resp, dialled, err := s.client.roundTrip(req.Context(), u, out, s.ref)
	if dialled.IsValid() {
		s.hop(u, dialled)
	}
	if err != nil {
		return nil, s.failErr(err)
	}
	resp.Body = &countingReadCloser{countingReader: countingReader{r: resp.Body, s: s}, c: resp.Body}
	return resp, nil
}

// checkCloneRedirect bounds go-git's redirects by the operator's
// max_redirects; each hop is then checked and pinned by RoundTrip.
func checkCloneRedirect(req *http.Request, via []*http.Request) error {
	s := sessionFrom(req.Context())
	if s == nil {
		return errors.New("remote: go-git redirect outside a policy-checked clone")
	}
	if len(via) > s.client.o.Policy.MaxRedirects() {
		return s.fail(rejection.New(schema.RuleRemoteRedirect, "more redirects than max_redirects"))
	}
	return nil
}

var _ transport.Transport = sshTransport{}

package remote

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// gitAuth is what go-git is handed as CloneOptions.Auth.
type gitAuth = transport.AuthMethod

// sshSessionAuth is the AuthMethod an ssh clone hands go-git. It carries no
// secret: it is how sshTransport, which go-git calls without a context,
// finds the clone session (policy, budget, credentials) it serves.
type sshSessionAuth struct{ s *cloneSession }

func (*sshSessionAuth) Name() string   { return "lola-ssh" }
func (*sshSessionAuth) String() string { return "lola-ssh(redacted)" }

// authFor is the go-git AuthMethod for a clone of u: for ssh the session
// carrier, for https none (policyRoundTripper attaches credentials per
// request).
func (s *cloneSession) authFor(u *url.URL) (gitAuth, error) {
	if u.Scheme == "ssh" {
		return &sshSessionAuth{s: s}, nil
	}
	return nil, nil
}

// sshTransport is go-git's ssh transport replaced: it dials the checked
// address itself (go-git's own dials through x/net/proxy, which honours the
// environment's proxy variables), verifies the host key against the
// configured known_hosts under the name the URL gave, and only then offers
// the identity from the credential store.
type sshTransport struct{}

func (sshTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	a, ok := auth.(*sshSessionAuth)
	if !ok || a.s == nil {
		return nil, errors.New("remote: go-git ssh session outside a policy-checked clone")
	}
	return &sshUploadSession{s: a.s, ep: ep}, nil
}

func (sshTransport) NewReceivePackSession(*transport.Endpoint, transport.AuthMethod) (transport.ReceivePackSession, error) {
	return nil, errors.New("remote: the host never pushes")
}

// sshUploadSession is one git-upload-pack exchange over ssh, connected
// lazily on the first call that carries a context.
type sshUploadSession struct {
	s  *cloneSession
	ep *transport.Endpoint

	mu      sync.Mutex
	client  *ssh.Client
	session *ssh.Session
	stdin   io.WriteCloser
	stdout  io.Reader
	advRefs *packp.AdvRefs
	packRun bool
	closed  bool
	stop    func() bool
}

func (u *sshUploadSession) AdvertisedReferences() (*packp.AdvRefs, error) {
	return u.AdvertisedReferencesContext(context.Background())
}

func (u *sshUploadSession) AdvertisedReferencesContext(ctx context.Context) (*packp.AdvRefs, error) {
	if u.advRefs != nil {
		return u.advRefs, nil
	}
	if err := u.connect(ctx); err != nil {
		return nil, err
	}
	ar := packp.NewAdvRefs()
	if err := ar.Decode(u.stdout); err != nil {
		if v := u.s.violation(); v != nil {
			return nil, v
		}
		switch {
		case errors.Is(err, packp.ErrEmptyAdvRefs):
			return nil, transport.ErrEmptyRemoteRepository
		case errors.Is(err, packp.ErrEmptyInput):
			return nil, transport.ErrRepositoryNotFound
		}
		return nil, err
	}
	if ar.IsEmpty() {
		return nil, transport.ErrEmptyRemoteRepository
	}
	transport.FilterUnsupportedCapabilities(ar.Capabilities)
	u.advRefs = ar
	return ar, nil
}

func (u *sshUploadSession) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if req.IsEmpty() {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if _, err := u.AdvertisedReferencesContext(ctx); err != nil {
		return nil, err
	}
	u.packRun = true
	if err := req.UploadRequest.Encode(u.stdin); err != nil {
		return nil, u.sendError(err)
	}
	if err := req.UploadHaves.Encode(u.stdin, true); err != nil {
		return nil, u.sendError(err)
	}
	if err := pktline.NewEncoder(u.stdin).Encodef("done\n"); err != nil {
		return nil, u.sendError(err)
	}
	if err := u.stdin.Close(); err != nil {
		return nil, u.sendError(err)
	}
	res := packp.NewUploadPackResponse(req)
	if err := res.Decode(io.NopCloser(u.stdout)); err != nil {
		if v := u.s.violation(); v != nil {
			return nil, v
		}
		return nil, fmt.Errorf("decoding upload-pack response: %w", err)
	}
	return res, nil
}

func (u *sshUploadSession) sendError(err error) error {
	if v := u.s.violation(); v != nil {
		return v
	}
	return err
}

// Close ends the exchange: a flush when no pack was requested (an orderly
// goodbye to upload-pack), then the ssh session and connection.
func (u *sshUploadSession) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed || u.client == nil {
		return nil
	}
	u.closed = true
	if !u.packRun && u.stdin != nil {
		_, _ = u.stdin.Write(pktline.FlushPkt)
	}
	if u.stop != nil {
		u.stop()
	}
	if u.session != nil {
		_ = u.session.Close()
	}
	return u.client.Close()
}

// connect resolves and checks the endpoint, dials the checked address,
// verifies the host key, authenticates with the stored identity, and starts
// git-upload-pack for the endpoint's path.
func (u *sshUploadSession) connect(ctx context.Context) error {
	s := u.s
	c := s.client
	port := u.ep.Port
	if port <= 0 {
		port = 22
	}
	if port > 65535 {
		return s.fail(rejection.New(schema.RuleRemoteURL, "ssh port out of range"))
	}
	if strings.ContainsAny(u.ep.Path, "\x00\r\n") || u.ep.Path == "" {
		return s.fail(rejection.New(schema.RuleRemoteURL, "ssh repository path is not valid"))
	}
	// The name as the URL spelled it, with the port: known_hosts is
	// consulted for it and the credential store keyed by it, never the IP.
	hostport := net.JoinHostPort(u.ep.Host, strconv.Itoa(port))
	hostKey, algos, err := c.hostKeyCallback(s, hostport)
	if err != nil {
		return err
	}
	dests, err := c.o.Policy.Resolve(ctx, c.o.Resolver, u.ep.Host, uint16(port))
	if err != nil {
		return s.failErr(withRef(err, s.ref))
	}
	conn, d, err := dialPinned(ctx, dests, 30*time.Second)
	if err != nil {
		return s.failErr(err)
	}
	named := &url.URL{Scheme: "ssh", Host: hostport, Path: u.ep.Path}
	s.hop(named, d.Addr())
	// The operation's deadline reaches the socket: a stalled server cannot
	// hold a read past it.
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	u.stop = context.AfterFunc(ctx, func() { conn.Close() })

	user := u.ep.User
	entry, _ := c.o.Credentials.match(named) // the zero entry when none matches
	if user == "" {
		user = entry.key.user
	}
	if user == "" {
		user = "git"
	}
	var auths []ssh.AuthMethod
	if identity := entry.cred.identity; identity != "" {
		// The key is read only when the server asks for user
		// authentication, which ssh performs after key exchange has
		// verified the host key: an unverified host never causes the
		// identity to be loaded, let alone offered.
		auths = append(auths, ssh.PublicKeysCallback(func() ([]ssh.Signer, error) {
			sg, err := loadIdentity(identity)
			if err != nil {
				return nil, err
			}
			return []ssh.Signer{sg}, nil
		}))
	}
	cfg := &ssh.ClientConfig{
		User:              user,
		Auth:              auths,
		HostKeyCallback:   hostKey,
		HostKeyAlgorithms: algos,
		Timeout:           30 * time.Second,
	}
	cc, chans, reqs, err := ssh.NewClientConn(conn, hostport, cfg)
	if err != nil {
		conn.Close()
		if v := s.violation(); v != nil {
			return v
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("ssh: authentication failed (or the connection was refused)")
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.client = ssh.NewClient(cc, chans, reqs)
	sess, err := u.client.NewSession()
	if err != nil {
		return errors.New("ssh: cannot open a session")
	}
	u.session = sess
	if u.stdin, err = sess.StdinPipe(); err != nil {
		return err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return err
	}
	u.stdout = &countingReader{r: out, s: s}
	if err := sess.Start("git-upload-pack " + shellQuote(u.ep.Path)); err != nil {
		return errors.New("ssh: cannot start git-upload-pack")
	}
	return nil
}

// hostKeyCallback verifies against Options.KnownHosts under the host name and
// port. An unknown host and a changed key are both remote.transport-auth,
// recorded in the session before the handshake returns. It also returns the
// host key algorithms of the keys known for the host, so the handshake asks
// the server for a key known_hosts can vouch for rather than refusing a
// server that also holds another key type.
func (c *Client) hostKeyCallback(s *cloneSession, hostport string) (ssh.HostKeyCallback, []string, error) {
	if c.o.KnownHosts == "" {
		return nil, nil, s.fail(rejection.New(schema.RuleRemoteTransportAuth, "no known_hosts file is configured to verify ssh host keys"))
	}
	kh, err := knownhosts.New(c.o.KnownHosts)
	if err != nil {
		return nil, nil, s.fail(rejection.New(schema.RuleRemoteTransportAuth, "the known_hosts file cannot be read"))
	}
	cb := func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := kh(hostname, remote, key)
		if err == nil {
			return nil
		}
		var ke *knownhosts.KeyError
		switch {
		case errors.As(err, &ke) && len(ke.Want) == 0:
			return s.fail(rejection.New(schema.RuleRemoteTransportAuth, "the ssh host key of "+redactHost(hostname)+" is not in known_hosts"))
		case errors.As(err, &ke):
			return s.fail(rejection.New(schema.RuleRemoteTransportAuth, "the ssh host key of "+redactHost(hostname)+" does not match known_hosts"))
		}
		return s.fail(rejection.New(schema.RuleRemoteTransportAuth, "the ssh host key of "+redactHost(hostname)+" was refused"))
	}
	return cb, knownAlgorithms(kh, hostport), nil
}

// probeKey is a key no known_hosts line holds; checking it makes knownhosts
// list the keys it does hold for a host. Made on first use, not at start:
// most runs of lola never dial ssh.
var probeKey = sync.OnceValue(func() ssh.PublicKey {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		panic(err)
	}
	return k
})

// knownAlgorithms lists the host key algorithms matching the keys known for
// hostport, or nil (the library default) when none is known.
func knownAlgorithms(kh ssh.HostKeyCallback, hostport string) []string {
	var ke *knownhosts.KeyError
	if err := kh(hostport, probeAddr(hostport), probeKey()); !errors.As(err, &ke) {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, k := range ke.Want {
		switch t := k.Key.Type(); t {
		case ssh.KeyAlgoRSA:
			add(ssh.KeyAlgoRSASHA512)
			add(ssh.KeyAlgoRSASHA256)
			add(ssh.KeyAlgoRSA)
		default:
			add(t)
		}
	}
	return out
}

// probeAddr is a net.Addr spelling hostport, for the knownhosts probe.
type probeAddr string

func (probeAddr) Network() string  { return "tcp" }
func (a probeAddr) String() string { return string(a) }

// loadIdentity reads an ssh private key named by the credential store,
// refusing one other users could read.
func loadIdentity(path string) (ssh.Signer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errors.New("ssh identity cannot be opened")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("ssh identity is not a regular file")
	}
	if err := checkPrivateMode(fi); err != nil {
		return nil, errors.New("ssh identity is accessible to group or others")
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, errors.New("ssh identity cannot be read")
	}
	sg, err := ssh.ParsePrivateKey(b)
	if err != nil {
		return nil, errors.New("ssh identity is not an unencrypted private key")
	}
	return sg, nil
}

// shellQuote single-quotes s for the remote shell git-upload-pack runs under.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

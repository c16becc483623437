package remote

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/lola-pm/lola/schema"
)

// sshGitServer is an in-test ssh server on 127.0.0.1 that runs the system
// git-upload-pack for "exec" requests, recording every authentication
// attempt a client makes.
type sshGitServer struct {
	addr    netip.AddrPort
	hostKey ssh.PublicKey

	mu       sync.Mutex
	accepted ssh.PublicKey // the client key the server lets in
	attempts []string      // "method:user" for every userauth request seen
	offered  int           // public keys offered
}

func (s *sshGitServer) accept(k ssh.PublicKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accepted = k
}

func (s *sshGitServer) authAttempts() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.attempts...), s.offered
}

func newSSHGitServer(t *testing.T, projectRoot string) *sshGitServer {
	t.Helper()
	_, hostPriv, _ := ed25519.GenerateKey(rand.Reader)
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	s := &sshGitServer{hostKey: hostSigner.PublicKey()}
	cfg := &ssh.ServerConfig{
		AuthLogCallback: func(md ssh.ConnMetadata, method string, err error) {
			s.mu.Lock()
			s.attempts = append(s.attempts, method+":"+md.User())
			s.mu.Unlock()
		},
		PublicKeyCallback: func(md ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.offered++
			if s.accepted != nil && string(key.Marshal()) == string(s.accepted.Marshal()) {
				return &ssh.Permissions{}, nil
			}
			return nil, errDenied
		},
	}
	// A second host key of another type, as real servers hold: the client
	// must ask for the type known_hosts vouches for, not refuse the server
	// because it prefers the other.
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecSigner, _ := ssh.NewSignerFromKey(ecKey)
	cfg.AddHostKey(ecSigner)
	cfg.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s.addr = netip.MustParseAddrPort(ln.Addr().String())
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSSH(conn, cfg, projectRoot)
		}
	}()
	return s
}

type deniedError struct{}

func (deniedError) Error() string { return "denied" }

var errDenied = deniedError{}

func serveSSH(conn net.Conn, cfg *ssh.ServerConfig, projectRoot string) {
	defer conn.Close()
	_, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "no")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			return
		}
		go func() {
			defer ch.Close()
			for req := range creqs {
				if req.Type != "exec" || len(req.Payload) < 4 {
					req.Reply(false, nil)
					continue
				}
				n := binary.BigEndian.Uint32(req.Payload)
				command := string(req.Payload[4 : 4+n])
				path, ok := strings.CutPrefix(command, "git-upload-pack '")
				if !ok || !strings.HasSuffix(path, "'") {
					req.Reply(false, nil)
					return
				}
				req.Reply(true, nil)
				cmd := exec.Command("git-upload-pack", "--strict", filepath.Join(projectRoot, strings.TrimSuffix(path, "'")))
				cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
				status := uint32(0)
				if err := cmd.Run(); err != nil {
					status = 1
				}
				ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, status))
				return
			}
		}()
	}
}

// sshClientFixture writes a client identity (0600) and returns its public
// key and the credential store naming it for the server's remote.
func sshClientFixture(t *testing.T, remote string) (ssh.PublicKey, *Credentials) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	idPath := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(idPath, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, _ := ssh.NewSignerFromKey(priv)
	creds, err := ParseCredentials([]byte("- remote: " + remote + "\n  identity: " + idPath + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return signer.PublicKey(), creds
}

func writeKnownHosts(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func sshClient(t *testing.T, srv *sshGitServer, creds *Credentials, knownHosts string) *Client {
	t.Helper()
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	l, _ := NewLimits(1<<20, 10*time.Second, 64<<20, 20*time.Second)
	return newClient(t, Options{Policy: policyFor(t, []string{admit(srv.addr)}, 0), Limits: l, Resolver: res, Credentials: creds, KnownHosts: knownHosts})
}

// An ssh server whose host key is not in known_hosts is refused before any
// credential is offered: the server sees no user authentication at all.
func TestSSHUnknownHostKeyRefusedBeforeCredentials(t *testing.T) {
	if _, err := exec.LookPath("git-upload-pack"); err != nil {
		t.Skip("the system git-upload-pack is needed for the ssh fixture")
	}
	projectRoot := gitFixture(t, map[string]string{"README.md": "over ssh\n"}, false)
	srv := newSSHGitServer(t, projectRoot)
	port := itoa(int(srv.addr.Port()))
	remote := "ssh://git.test:" + port + "/repo.git"
	// The server accepts the stored identity: were it offered, the clone
	// would succeed.
	pub, creds := sshClientFixture(t, "ssh://git@git.test:"+port+"/")
	srv.accept(pub)

	_, otherHost, _ := ed25519.GenerateKey(rand.Reader)
	otherSigner, _ := ssh.NewSignerFromKey(otherHost)
	hostname := knownhosts.Normalize(net.JoinHostPort("git.test", port))
	cases := map[string]string{
		"unknown host":    writeKnownHosts(t, knownhosts.Line([]string{"elsewhere.test"}, srv.hostKey)),
		"changed key":     writeKnownHosts(t, knownhosts.Line([]string{hostname}, otherSigner.PublicKey())),
		"keyed by the IP": writeKnownHosts(t, knownhosts.Line([]string{knownhosts.Normalize(srv.addr.String())}, srv.hostKey)),
		"no known_hosts":  "",
	}
	for name, kh := range cases {
		t.Run(name, func(t *testing.T) {
			c := sshClient(t, srv, creds, kh)
			dir := filepath.Join(t.TempDir(), "staged")
			_, err := c.Clone(context.Background(), CloneRequest{Extension: "e", Intent: cloneRef, Clone: schema.Clone{URL: remote, Dest: "vendor/r"}}, dir, nil)
			wantRule(t, err, schema.RuleRemoteTransportAuth)
			if attempts, offered := srv.authAttempts(); len(attempts) != 0 || offered != 0 {
				t.Fatalf("credentials were offered to an unverified host: attempts %v, keys offered %d", attempts, offered)
			}
			if _, err := os.Lstat(dir); err == nil {
				t.Fatal("a refused clone left its directory behind")
			}
		})
	}
}

// With the host key in known_hosts under the URL's name, the clone runs over
// the pinned connection and authenticates with the stored identity.
func TestSSHCloneWithKnownHost(t *testing.T) {
	if _, err := exec.LookPath("git-upload-pack"); err != nil {
		t.Skip("the system git-upload-pack is needed for the ssh fixture")
	}
	projectRoot := gitFixture(t, map[string]string{"README.md": "over ssh\n"}, false)
	srv := newSSHGitServer(t, projectRoot)
	port := itoa(int(srv.addr.Port()))
	pub, creds := sshClientFixture(t, "ssh://git@git.test:"+port+"/")
	srv.accept(pub)
	kh := writeKnownHosts(t, knownhosts.Line([]string{knownhosts.Normalize(net.JoinHostPort("git.test", port))}, srv.hostKey))
	c := sshClient(t, srv, creds, kh)
	dir := filepath.Join(t.TempDir(), "staged")
	var obs hopLog
	rep, err := c.Clone(context.Background(), CloneRequest{Extension: "e", Intent: cloneRef,
		Clone: schema.Clone{URL: "ssh://git.test:" + port + "/repo.git", Dest: "vendor/r", Ref: "v2", Depth: 1}}, dir, &obs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || string(b) != "over ssh\n" {
		t.Fatalf("checkout: %q %v", b, err)
	}
	if len(obs.hops) == 0 || obs.hops[0].Dialled != srv.addr || rep.Hops[0].Dialled != srv.addr {
		t.Fatalf("hops %+v / %+v; want dialled %v", obs.hops, rep.Hops, srv.addr)
	}
	attempts, offered := srv.authAttempts()
	if offered == 0 || !strings.Contains(strings.Join(attempts, ","), "publickey:git") {
		t.Fatalf("the stored identity was not used: %v", attempts)
	}
}

// An ssh server that accepts the connection and never speaks is abandoned at
// the clone's deadline; one that sends more than the byte bound is cut off.
func TestSSHBounds(t *testing.T) {
	if _, err := exec.LookPath("git-upload-pack"); err != nil {
		t.Skip("the system git-upload-pack is needed for the ssh fixture")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close() // held open, silent, until the test ends
		}
	}()
	silent := netip.MustParseAddrPort(ln.Addr().String())
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	kh := writeKnownHosts(t, "")
	l, _ := NewLimits(1<<20, time.Second, 1<<20, 300*time.Millisecond)
	c := newClient(t, Options{Policy: policyFor(t, []string{admit(silent)}, 0), Limits: l, Resolver: res, KnownHosts: kh})
	_, err = c.Clone(context.Background(), CloneRequest{Extension: "e", Intent: cloneRef,
		Clone: schema.Clone{URL: "ssh://git.test:" + itoa(int(silent.Port())) + "/repo.git", Dest: "vendor/r"}}, filepath.Join(t.TempDir(), "s"), nil)
	wantRule(t, err, schema.RuleRemoteBound)

	projectRoot := gitFixture(t, map[string]string{"big.bin": strings.Repeat("0123456789abcdef", 64<<10)}, false)
	srv := newSSHGitServer(t, projectRoot)
	port := itoa(int(srv.addr.Port()))
	pub, creds := sshClientFixture(t, "ssh://git@git.test:"+port+"/")
	srv.accept(pub)
	kh = writeKnownHosts(t, knownhosts.Line([]string{knownhosts.Normalize(net.JoinHostPort("git.test", port))}, srv.hostKey))
	l, _ = NewLimits(1<<20, time.Second, 64<<10, 20*time.Second)
	c = newClient(t, Options{Policy: policyFor(t, []string{admit(srv.addr)}, 0), Limits: l, Resolver: res, Credentials: creds, KnownHosts: kh})
	dir := filepath.Join(t.TempDir(), "s")
	_, err = c.Clone(context.Background(), CloneRequest{Extension: "e", Intent: cloneRef,
		Clone: schema.Clone{URL: "ssh://git.test:" + port + "/repo.git", Dest: "vendor/r"}}, dir, nil)
	wantRule(t, err, schema.RuleRemoteBound)
	if _, err := os.Lstat(dir); err == nil {
		t.Fatal("a bounded clone left its directory behind")
	}
}

package remote

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// No environment proxy is silently in the path: with every proxy variable
// pointing at a listener, a fetch and a clone still dial the checked address
// directly and the "proxy" sees no connection.
func TestEnvironmentProxyIsNotUsed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var proxied atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			proxied.Add(1)
			conn.Close()
		}
	}()
	proxy := "http://" + ln.Addr().String()
	for _, v := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(v, proxy)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	ca := newTestCA(t)
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("direct")) }), "direct.test")
	srv := gitFixture(t, map[string]string{"a.txt": "a"}, false)
	gitAP := gitServer(t, ca, srv, "git.test")
	res := newResolver()
	res.set("direct.test", addrs("127.0.0.1"))
	res.set("git.test", addrs("127.0.0.1"))
	c := cloneClient(t, ca, []string{admit(ap), admit(gitAP)}, 64<<20, res)
	dst := stagingFile(t)
	rep, err := c.Fetch(context.Background(), fetchReq("e", urlFor("direct.test", ap, "/"), nil), dst, nil)
	if err != nil || readStaged(t, dst) != "direct" || rep.Hops[0].Dialled != ap {
		t.Fatalf("fetch: %+v %v", rep, err)
	}
	crep, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", gitAP, "/repo.git"), "", 1), filepath.Join(t.TempDir(), "s"), nil)
	if err != nil || crep.Hops[0].Dialled != gitAP {
		t.Fatalf("clone: %+v %v", crep, err)
	}
	if n := proxied.Load(); n != 0 {
		t.Fatalf("%d connections went to the environment's proxy", n)
	}
}

package remote

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The executor hands Clone its staging directory as /proc/self/fd/N (a name
// derived from the descriptor it validated, host/fsroot.Dir.ProcPath); the
// clone must land in that directory.
func TestCloneIntoProcFDPath(t *testing.T) {
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"skills/foo/SKILL.md": "# foo\n"}, false)
	ap := gitServer(t, ca, srv, "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	c := cloneClient(t, ca, []string{admit(ap)}, 64<<20, res)
	staging := filepath.Join(t.TempDir(), "staged")
	if err := os.Mkdir(staging, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(staging)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	procPath := "/proc/self/fd/" + strconv.Itoa(int(d.Fd()))
	if _, err := c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "main", 1), procPath, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(staging, "skills/foo/SKILL.md"))
	if err != nil || string(b) != "# foo\n" {
		t.Fatalf("checkout not in the staging directory: %q %v", b, err)
	}
}

// If the staging directory's path is made to lead elsewhere while the clone
// runs (the pinned directory moved, another put in its place), the clone
// fails instead of reporting success for content that is not in the pinned
// directory.
func TestCloneIntoProcFDPathDetectsSwap(t *testing.T) {
	ca := newTestCA(t)
	srv := gitFixture(t, map[string]string{"a.txt": "a"}, false)
	backend := gitServerHandler(t, srv)
	parent := t.TempDir()
	staging := filepath.Join(parent, "staged")
	if err := os.Mkdir(staging, 0o755); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	_, ap := tlsServer(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			once.Do(func() {
				os.Rename(staging, filepath.Join(parent, "moved"))
				os.Mkdir(staging, 0o755)
			})
		}
		backend.ServeHTTP(w, r)
	}), "git.test")
	res := newResolver()
	res.set("git.test", addrs("127.0.0.1"))
	c := cloneClient(t, ca, []string{admit(ap)}, 64<<20, res)
	d, err := os.Open(staging)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	procPath := "/proc/self/fd/" + strconv.Itoa(int(d.Fd()))
	_, err = c.Clone(context.Background(), cloneReq(urlFor("git.test", ap, "/repo.git"), "", 1), procPath, nil)
	if err == nil || !strings.Contains(err.Error(), "moved") {
		t.Fatalf("a swapped staging directory was not detected: %v", err)
	}
}

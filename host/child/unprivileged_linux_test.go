//go:build linux

package child_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
)

func init() { platformFixtures["unprivileged-host"] = fixtureUnprivilegedHost }

// fixtureUnprivilegedHost is a whole host run as an unprivileged user, for
// whom the machine's cgroup v2 tree is not writable: it reports what
// discovery chose, then runs the double-forking fixture under it unforced
// and reports whether each descendant is gone.
func fixtureUnprivilegedHost() int {
	_, why := child.CgroupSubtree()
	fmt.Printf("containment=%s\ncgroup=%v\n", child.CurrentContainment(), why)
	self, _ := os.Executable()
	pidfile := filepath.Join(filepath.Dir(self), "pids")
	spec, err := child.NewSpec(child.Config{Path: self,
		Env:      []string{fixtureEnv + "=daemon", "LOLA_PIDFILE=" + pidfile, "GORACE=atexit_sleep_ms=0"},
		Deadline: time.Second, Grace: 500 * time.Millisecond, StderrCap: 4096,
		Stdout: child.StdoutPlan, Limits: plan.DefaultLimits()})
	if err != nil {
		fmt.Println("spec:", err)
		return 1
	}
	res := child.Run(context.Background(), spec)
	fmt.Printf("outcome=%s\nrun-containment=%s\n", res.Outcome, res.Containment)
	b, _ := os.ReadFile(pidfile)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			fmt.Printf("dead=%d\n", pid)
		} else {
			fmt.Printf("alive=%d\n", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return 0
}

// TestUnprivilegedHostFallsBackToSubreaper runs this test binary as user
// nobody, for whom the cgroup v2 tree is root's: discovery must refuse the
// cgroup path on its own (no forcing) and pick the subreaper, under which
// the daemonized descendant is still gone after Run.
func TestUnprivilegedHostFallsBackToSubreaper(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to start a process as another user")
	}
	const nobody = 65534
	dir, err := os.MkdirTemp("", "lola-child-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "child.test")
	copyFile(t, selfPath(t), bin)
	cmd := exec.Command(bin)
	cmd.Env = []string{fixtureEnv + "=unprivileged-host", "GORACE=atexit_sleep_ms=0"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("unprivileged host: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("containment=subreaper\n")) {
		t.Fatalf("an unprivileged host did not fall back to the subreaper:\n%s", out)
	}
	for _, want := range []string{"outcome=killed-deadline\n", "run-containment=subreaper\n", "dead="} {
		if !bytes.Contains(out, []byte(want)) {
			t.Fatalf("missing %q in:\n%s", want, out)
		}
	}
	if bytes.Contains(out, []byte("alive=")) {
		t.Fatalf("a descendant survived the unprivileged host's run:\n%s", out)
	}
	t.Logf("%s", out)
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

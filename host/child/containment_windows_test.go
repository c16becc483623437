//go:build windows

package child_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/lola-pm/lola/host/child"
)

func init() {
	platformFixtures["breakaway"] = fixtureBreakaway
}

// fixtureBreakaway tries to start its descendant outside the job
// (CREATE_BREAKAWAY_FROM_JOB, which a job without a breakaway flag refuses),
// then starts it detached, records its pid, and holds stdout.
func fixtureBreakaway() int {
	self, _ := os.Executable()
	const breakaway = 0x01000000 // CREATE_BREAKAWAY_FROM_JOB
	gc := &exec.Cmd{Path: self, Args: []string{self}, Env: []string{fixtureEnv + "=sleeper"},
		Stdout: os.Stdout, Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{CreationFlags: breakaway | syscall.CREATE_NEW_PROCESS_GROUP}}
	if err := gc.Start(); err == nil {
		fmt.Fprintln(os.Stderr, "breakaway allowed")
	} else {
		gc = &exec.Cmd{Path: self, Args: []string{self}, Env: []string{fixtureEnv + "=sleeper"},
			Stdout: os.Stdout, Stderr: os.Stderr, SysProcAttr: detachAttr()}
		if err := gc.Start(); err != nil {
			return 1
		}
	}
	_ = os.WriteFile(os.Getenv("LOLA_PIDFILE"), []byte(strconv.Itoa(gc.Process.Pid)), 0o600)
	time.Sleep(hold)
	return 0
}

// assertExited checks, through a handle, that process pid has exited (or
// no longer exists at all).
func assertExited(t *testing.T, pid int) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return // gone
	}
	defer windows.CloseHandle(h)
	if ev, _ := windows.WaitForSingleObject(h, 0); ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("descendant %d is still running after Run returned", pid)
	}
}

// TestJobObjectContainsDescendants is the specification's Windows case:
// the descendant, detached or trying to break away, is gone after Run.
// It compiles on every build; it runs only on Windows (not on the Linux
// machines this project is developed on).
func TestJobObjectContainsDescendants(t *testing.T) {
	if got := child.CurrentContainment(); got != child.ContainmentJobObject {
		t.Fatalf("containment %s, want job-object", got)
	}
	for _, mode := range []string{"setsid-exit", "setsid-hold", "breakaway"} {
		t.Run(mode, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			t.Cleanup(func() { killPidfile(t, pidfile) })
			res := runTimed(t, fixtureSpec(t, mode, withDeadline(killDeadline), withEnv("LOLA_PIDFILE="+pidfile)))
			wantOutcome(t, res, child.OutcomeKilledDeadline)
			if strings.Contains(string(res.Diagnostics), "breakaway allowed") {
				t.Fatal("the job let a descendant break away")
			}
			b, err := os.ReadFile(pidfile)
			if err != nil {
				t.Fatalf("the fixture never started its descendant: %v", err)
			}
			pid, _ := strconv.Atoi(string(b))
			assertExited(t, pid)
		})
	}
}

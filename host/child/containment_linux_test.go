//go:build linux

package child_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
)

// The descendants these fixtures leave behind report their pids by
// appending a line to LOLA_PIDFILE, so the test can check each is gone.
func init() {
	platformFixtures["daemon"] = fixtureDaemon
	platformFixtures["daemon-mid"] = fixtureDaemonMid
	platformFixtures["report-sleep"] = fixtureReportSleep
	platformFixtures["fanout"] = fixtureFanout
	platformFixtures["cgroup-self"] = fixtureCgroupSelf
	platformFixtures["slow-exit7"] = func() int { time.Sleep(1500 * time.Millisecond); return 7 }
	platformFixtures["spawn-wait"] = fixtureSpawnWait
	platformFixtures["background-job"] = fixtureBackgroundJob
	platformFixtures["late-writer"] = func() int {
		time.Sleep(1500 * time.Millisecond)
		os.Stdout.WriteString("late line\n")
		return 0
	}
}

// fixtureBackgroundJob is a hook like `(sleep 1.5; echo late line) &`: it
// leaves a job in its own process group (no setsid) that outlives it and
// writes to stdout later; the run ends when that job closes stdout.
func fixtureBackgroundJob() int {
	self, _ := os.Executable()
	c := &exec.Cmd{Path: self, Args: []string{self}, Env: fixtureEnvFor("late-writer"), Stdout: os.Stdout, Stderr: os.Stderr}
	if err := c.Start(); err != nil {
		return 1
	}
	return 0
}

// fixtureEnvFor is a descendant fixture's environment. GORACE: under -race
// an intermediate's exit would otherwise sleep a second before its parent
// sees it, past the tests' deadline.
func fixtureEnvFor(mode string) []string {
	return []string{fixtureEnv + "=" + mode, "LOLA_PIDFILE=" + os.Getenv("LOLA_PIDFILE"),
		"LOLA_FANOUT=" + os.Getenv("LOLA_FANOUT"), "GORACE=atexit_sleep_ms=0"}
}

func reportPid(pid int) {
	f, err := os.OpenFile(os.Getenv("LOLA_PIDFILE"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%d\n", pid)
	f.Close()
}

// startSelf starts this binary as fixture mode in a new session, with
// stdout and stderr inherited: a descendant that holds the pipes.
func startSelf(mode string) (*exec.Cmd, error) {
	self, _ := os.Executable()
	c := &exec.Cmd{Path: self, Args: []string{self}, Env: fixtureEnvFor(mode),
		Stdout: os.Stdout, Stderr: os.Stderr, SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	return c, c.Start()
}

// fixtureDaemon daemonizes a descendant the classic way: the intermediate
// calls setsid, forks the daemon (which calls setsid again) and exits, so
// the daemon is an orphan before the host kills anything. The child then
// holds stdout itself, or exits at once with LOLA_THEN_EXIT.
func fixtureDaemon() int {
	mid, err := startSelf("daemon-mid")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mid:", err)
		return 1
	}
	_ = mid.Wait()
	if os.Getenv("LOLA_THEN_EXIT") != "" {
		return 0
	}
	time.Sleep(hold)
	return 0
}

func fixtureDaemonMid() int {
	d, err := startSelf("report-sleep")
	if err != nil {
		return 1
	}
	// Wait until the daemon has reported itself, so the test knows its
	// pid whatever happens next; then orphan it.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(os.Getenv("LOLA_PIDFILE"))
		if bytes.Contains(b, []byte(strconv.Itoa(d.Process.Pid)+"\n")) {
			return 0
		}
		time.Sleep(time.Millisecond)
	}
	return 1
}

func fixtureReportSleep() int {
	reportPid(os.Getpid())
	time.Sleep(hold)
	return 0
}

// fixtureFanout leaves many descendants: LOLA_FANOUT sleep(1) processes in
// sessions of their own, half started by the child and half by two
// intermediates that then exit (orphaning theirs), then holds stdout.
func fixtureFanout() int {
	n, _ := strconv.Atoi(os.Getenv("LOLA_FANOUT"))
	if os.Getenv("LOLA_FANOUT_ROLE") == "mid" {
		startSleeps(n)
		return 0
	}
	self, _ := os.Executable()
	for i := 0; i < 2; i++ {
		c := &exec.Cmd{Path: self, Args: []string{self},
			Env:    append(fixtureEnvFor("fanout"), "LOLA_FANOUT="+strconv.Itoa(n/4), "LOLA_FANOUT_ROLE=mid"),
			Stdout: os.Stdout, Stderr: os.Stderr, SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
		if err := c.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "mid:", err)
			return 1
		}
	}
	startSleeps(n - 2*(n/4))
	time.Sleep(hold)
	return 0
}

func startSleeps(n int) {
	for i := 0; i < n; i++ {
		c := &exec.Cmd{Path: "/bin/sleep", Args: []string{"sleep", "60"},
			Stdout: os.Stdout, Stderr: os.Stderr, SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "sleep:", err)
			continue
		}
		reportPid(c.Process.Pid)
	}
}

// fixtureCgroupSelf reports the cgroup it runs in, read before it does
// anything else.
func fixtureCgroupSelf() int {
	b, _ := os.ReadFile("/proc/self/cgroup")
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			fmt.Fprintln(os.Stderr, line)
			if b, err := os.ReadFile(filepath.Join("/sys/fs/cgroup", p, "memory.max")); err == nil {
				fmt.Fprintf(os.Stderr, "memory.max=%s\n", bytes.TrimSpace(b))
			}
		}
	}
	os.Stdout.WriteString(`{"protocol":1,"intents":[]}`)
	return 0
}

// fixtureSpawnWait is a well-behaved extension with a helper: it runs a
// child of its own to completion and checks the helper's status reached it.
func fixtureSpawnWait() int {
	c := exec.Command("/bin/sh", "-c", "sleep 0.1; exit 6")
	c.Env = []string{}
	err := c.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 6 {
		fmt.Fprintln(os.Stderr, "helper status lost:", err)
		return 1
	}
	os.Stdout.WriteString(`{"protocol":1,"intents":[]}`)
	return 0
}

// containmentPaths are the Linux containments the tests force in turn,
// skipping one only when this machine cannot provide it.
func containmentPaths(t *testing.T) []child.Containment {
	t.Helper()
	return []child.Containment{child.ContainmentCgroup, child.ContainmentSubreaper}
}

// forcePath forces c for the rest of t, or skips t with the evidence when
// the machine cannot provide it.
func forcePath(t *testing.T, c child.Containment) {
	t.Helper()
	if c == child.ContainmentCgroup {
		if _, err := child.CgroupSubtree(); err != nil {
			t.Skipf("no usable delegated cgroup v2 subtree on this machine: %v", err)
		}
	}
	t.Cleanup(child.ForceContainment(c))
}

// readPids returns the pids a fixture's descendants reported, failing the
// test if fewer than want were.
func readPids(t *testing.T, pidfile string, want int) []int {
	t.Helper()
	b, _ := os.ReadFile(pidfile)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	if len(pids) < want {
		t.Fatalf("%d descendants reported, want %d: the fixture did not reach its hostile act", len(pids), want)
	}
	return pids
}

// assertDead checks that pid is not running. On the subreaper path the host
// reaped it, so it must not exist at all (kill 0 says ESRCH). On the cgroup
// path a killed orphan belongs to init; this VM's init does not reap, so a
// zombie (state Z: it runs nothing and holds no file, hence no pipe) is
// dead too.
func assertDead(t *testing.T, pid int, reapedByHost bool) {
	t.Helper()
	err := syscall.Kill(pid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return
	}
	st := procState(pid)
	if reapedByHost {
		t.Errorf("descendant %d still exists (kill 0: %v, state %q): not reaped by the host", pid, err, st)
		return
	}
	if st != "Z" && st != "X" {
		t.Errorf("descendant %d is still running (state %q) after Run returned", pid, st)
	}
}

// assertAlive checks that pid is running: the negative control.
func assertAlive(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); err != nil || procState(pid) == "Z" {
		t.Errorf("descendant %d is gone (kill 0: %v); the control expected it to survive", pid, err)
	}
}

func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+3 > len(b) {
		return ""
	}
	return string(b[i+2 : i+3])
}

// leftoverCgroups lists the cgroups this test process created that still exist.
func leftoverCgroups(t *testing.T) []string {
	t.Helper()
	dir, err := child.CgroupSubtree()
	if err != nil {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("lola-%d-*", os.Getpid())))
	return m
}

func killPids(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func TestContainmentDiscovered(t *testing.T) {
	got := child.CurrentContainment()
	_, cgErr := child.CgroupSubtree()
	switch {
	case cgErr == nil && got != child.ContainmentCgroup:
		t.Fatalf("a usable cgroup v2 subtree exists but containment is %s", got)
	case cgErr != nil && got != child.ContainmentSubreaper:
		t.Fatalf("no cgroup subtree (%v) and containment is %s, want subreaper", cgErr, got)
	}
	t.Logf("containment in effect: %s (cgroup subtree: %v)", got, cgErr)
}

// TestDescendantContained is the specification's descendant case on both
// Linux paths: a tier-2 extension forks a descendant that calls setsid()
// and holds stdout open. The host returns within deadline + grace, and the
// descendant is gone afterwards.
func TestDescendantContained(t *testing.T) {
	cases := []struct {
		name, mode string
		env        []string
		want       int // descendants the fixture reports
	}{
		{"setsid-child-exits", "setsid-exit", nil, 1},
		{"setsid-child-holds", "setsid-hold", nil, 1},
		{"double-fork-child-holds", "daemon", nil, 1},
		{"double-fork-child-exits", "daemon", []string{"LOLA_THEN_EXIT=1"}, 1},
		{"forty-descendants", "fanout", []string{"LOLA_FANOUT=40"}, 40},
	}
	for _, path := range containmentPaths(t) {
		t.Run(path.String(), func(t *testing.T) {
			forcePath(t, path)
			// Runs in parallel see each other's cgroups; once all are
			// done (cleanups run after parallel subtests), none may be left.
			t.Cleanup(func() {
				if left := leftoverCgroups(t); len(left) > 0 {
					t.Errorf("cgroups left behind: %v", left)
				}
			})
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					if path == child.ContainmentCgroup {
						// Each run has its own cgroup. Subreaper runs stay
						// sequential: a sweep kills every orphan of the
						// host, a concurrent run's too (see reaper).
						t.Parallel()
					}
					pidfile := filepath.Join(t.TempDir(), "pids")
					t.Cleanup(func() { killPids(readPidsQuiet(pidfile)) })
					env := append([]string{"LOLA_PIDFILE=" + pidfile}, tc.env...)
					res := runTimed(t, fixtureSpec(t, tc.mode, withDeadline(killDeadline), withEnv(env...)))
					wantOutcome(t, res, child.OutcomeKilledDeadline)
					if !res.Reaped {
						t.Fatal("the direct child was not reaped")
					}
					if res.Containment != path {
						t.Fatalf("result says containment %s, forced %s", res.Containment, path)
					}
					for _, pid := range readPids(t, pidfile, tc.want) {
						assertDead(t, pid, path == child.ContainmentSubreaper)
					}
				})
			}
		})
	}
}

// TestDescendantSurvivesProcessGroupOnly is the control: with the bare
// process group (macOS's trust model) the same descendant outlives Run,
// which shows the assertions above can fail.
func TestDescendantSurvivesProcessGroupOnly(t *testing.T) {
	t.Cleanup(child.ForceContainment(child.ContainmentProcessGroup))
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Cleanup(func() { killPids(readPidsQuiet(pidfile)) })
	res := runTimed(t, fixtureSpec(t, "daemon", withDeadline(killDeadline), withEnv("LOLA_PIDFILE="+pidfile)))
	wantOutcome(t, res, child.OutcomeKilledDeadline)
	for _, pid := range readPids(t, pidfile, 1) {
		assertAlive(t, pid)
	}
}

func readPidsQuiet(pidfile string) []int {
	b, _ := os.ReadFile(pidfile)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestWellBehavedChildUnaffected: containment changes nothing for a child
// that does its job: its plan, its exit status, its own helper's status.
func TestWellBehavedChildUnaffected(t *testing.T) {
	for _, path := range containmentPaths(t) {
		t.Run(path.String(), func(t *testing.T) {
			forcePath(t, path)
			res := runTimed(t, fixtureSpec(t, "plan", withStdin([]byte("{}"))))
			wantOutcome(t, res, child.OutcomePlanReceived)
			if res.ExitStatus != 0 || !res.Reaped || res.Plan.Len() != 1 {
				t.Fatalf("status %d reaped %v intents %d", res.ExitStatus, res.Reaped, res.Plan.Len())
			}
			res = runTimed(t, fixtureSpec(t, "exit3"))
			wantOutcome(t, res, child.OutcomeExitNonZero)
			if res.ExitStatus != 3 {
				t.Fatalf("exit status %d, want 3", res.ExitStatus)
			}
			res = runTimed(t, fixtureSpec(t, "spawn-wait"))
			wantOutcome(t, res, child.OutcomePlanReceived)
			res = runTimed(t, fixtureSpec(t, "hook", withHookMode(1024), withEnv("LOLA_HOOK_FAIL=1")))
			wantOutcome(t, res, child.OutcomeExitNonZero)
			if res.ExitStatus != 1 {
				t.Fatalf("hook exit status %d, want 1", res.ExitStatus)
			}
			if left := leftoverCgroups(t); len(left) > 0 {
				t.Fatalf("cgroups left behind: %v", left)
			}
		})
	}
}

// TestCgroupChildStartsInside: the child reads its cgroup first thing and
// finds itself in the fresh one (CLONE_INTO_CGROUP), not in the host's.
func TestCgroupChildStartsInside(t *testing.T) {
	forcePath(t, child.ContainmentCgroup)
	res := runTimed(t, fixtureSpec(t, "cgroup-self"))
	wantOutcome(t, res, child.OutcomePlanReceived)
	want := fmt.Sprintf("/lola-%d-", os.Getpid())
	if !bytes.Contains(res.Diagnostics, []byte(want)) {
		t.Fatalf("child's cgroup %q, want one named %s*", res.Diagnostics, want)
	}
	if left := leftoverCgroups(t); len(left) > 0 {
		t.Fatalf("cgroups left behind: %v", left)
	}
}

// TestSubreaperSparesOtherChildren: while one run's cleanup sweeps forty
// orphans, a concurrent run's direct child, another run's background job
// (an orphan still in its run's process group), and a child the host
// started by other means (plain os/exec, in the host's process group) keep
// running, and their exit statuses and output reach their own waiters.
func TestSubreaperSparesOtherChildren(t *testing.T) {
	forcePath(t, child.ContainmentSubreaper)
	if !child.IsSubreaper() {
		// Becoming one happens on the first run; do one.
		runTimed(t, fixtureSpec(t, "empty"))
		if !child.IsSubreaper() {
			t.Fatal("the subreaper path did not make the host a child subreaper")
		}
	}
	other := exec.Command("/bin/sh", "-c", "sleep 2; exit 5")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	concurrent := make(chan child.Result, 1)
	go func() { concurrent <- child.Run(t.Context(), fixtureSpec(t, "slow-exit7")) }()
	background := make(chan child.Result, 1)
	go func() { background <- child.Run(t.Context(), fixtureSpec(t, "background-job", withHookMode(1024))) }()

	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Cleanup(func() { killPids(readPidsQuiet(pidfile)) })
	res := runTimed(t, fixtureSpec(t, "fanout", withDeadline(killDeadline),
		withEnv("LOLA_PIDFILE="+pidfile, "LOLA_FANOUT=40")))
	wantOutcome(t, res, child.OutcomeKilledDeadline)
	for _, pid := range readPids(t, pidfile, 40) {
		assertDead(t, pid, true)
	}

	c := <-concurrent
	wantOutcome(t, c, child.OutcomeExitNonZero)
	if c.ExitStatus != 7 || !c.Reaped {
		t.Fatalf("concurrent run: status %d reaped %v, want 7: the sweep took its child", c.ExitStatus, c.Reaped)
	}
	bg := <-background
	wantOutcome(t, bg, child.OutcomeCompleted)
	if !bytes.Contains(bg.Output, []byte("late line")) {
		t.Fatalf("the background job's output %q is missing: another run's sweep ended it", bg.Output)
	}
	err := other.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 5 {
		t.Fatalf("the host's other child: %v, want exit status 5", err)
	}
}

func TestContainmentUnavailableIsAStartFailure(t *testing.T) {
	if _, err := child.CgroupSubtree(); err == nil {
		t.Skip("this machine has a cgroup subtree; the failure cannot be provoked here")
	}
	t.Cleanup(child.ForceContainment(child.ContainmentCgroup))
	res := child.Run(t.Context(), fixtureSpec(t, "empty"))
	wantOutcome(t, res, child.OutcomeStartFailed)
}

// 16, "tests that do not guard": the process-group kill on its own. With
// containment forced to the bare process group (macOS's only layer), a
// descendant that stays in the child's group and holds stdout must be dead
// when Run returns, whether the child holds on too or exits at once. The
// cgroup and subreaper layers would hide a missing group kill, so they are
// off here.
func TestProcessGroupKillReachesDescendantInGroup(t *testing.T) {
	t.Cleanup(child.ForceContainment(child.ContainmentProcessGroup))
	for _, mode := range []string{"ingroup-hold", "ingroup-exit"} {
		t.Run(mode, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pids")
			t.Cleanup(func() { killPids(readPidsQuiet(pidfile)) })
			res := runTimed(t, fixtureSpec(t, mode, withDeadline(killDeadline), withEnv("LOLA_PIDFILE="+pidfile)))
			wantOutcome(t, res, child.OutcomeKilledDeadline)
			if res.Containment != child.ContainmentProcessGroup {
				t.Fatalf("containment %s", res.Containment)
			}
			for _, pid := range readPids(t, pidfile, 1) {
				assertKilled(t, pid)
			}
		})
	}
}

// assertKilled checks that pid is gone, a zombie, or has SIGKILL pending:
// an orphan nobody waits for may not have been scheduled to die yet when
// Run returns, but with SIGKILL pending it never runs user code again.
func assertKilled(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return
	}
	if st := procState(pid); st == "Z" || st == "X" || st == "" {
		return
	}
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "SigPnd" && k != "ShdPnd") {
			continue
		}
		if mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64); err == nil && mask&(1<<(uint(syscall.SIGKILL)-1)) != 0 {
			return
		}
	}
	t.Errorf("descendant %d is still running (state %q) with no SIGKILL pending after Run returned", pid, procState(pid))
}

// Config.MemoryMax reaches the child's cgroup before it runs: the child
// reads its own memory.max. Needs a delegated cgroup v2 subtree with the
// memory controller enabled (this is what bounds a tier-1 shim and all it
// could start, beyond its own RLIMIT_DATA).
func TestCgroupMemoryMaxSetBeforeStart(t *testing.T) {
	forcePath(t, child.ContainmentCgroup)
	dir, _ := child.CgroupSubtree()
	if b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control")); err != nil || !bytes.Contains(b, []byte("memory")) {
		t.Skipf("the delegated subtree does not enable the memory controller (%q, %v)", b, err)
	}
	const max = 96 << 20
	res := runTimed(t, fixtureSpec(t, "cgroup-self", withMemoryMax(max)))
	wantOutcome(t, res, child.OutcomePlanReceived)
	if res.MemoryMax != max || !bytes.Contains(res.Diagnostics, []byte("memory.max="+strconv.Itoa(max))) {
		t.Fatalf("memory max %d, child saw %q", res.MemoryMax, res.Diagnostics)
	}
}

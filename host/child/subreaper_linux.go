//go:build linux

package child

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The subreaper is process-wide: once the host calls
// prctl(PR_SET_CHILD_SUBREAPER), every orphan among the descendants of any
// of its children is reparented to it, not to init. These rules keep that
// from breaking children the host runs by other means, and runs from
// breaking each other:
//
//   - Orphans are reaped only by waitid on a pidfd of one specific process,
//     never by wait(-1), so no exit status another goroutine waits for is
//     ever consumed.
//   - A direct child started by this package is never an orphan: its pid is
//     registered while starts hold direct.gate for reading, and a sweep lists
//     the host's children holding it for writing, so no sweep sees a child
//     of this package before it is registered; it is unregistered only
//     after its own Wait reaped it.
//   - A child still in the host's own process group is never an orphan: a
//     child some other code started with plain os/exec stays there, while
//     every child of this package leads a group of its own, and descendants
//     either stay in that group or leave for a new one. The residual gap:
//     a hostile descendant that, without setsid(), joins the host's own
//     process group escapes the sweep. The cgroup path has no such gap.
//   - An orphan still in the process group of another run that has not
//     finished (a shell's background job that outlived the script, say)
//     is left to that run's own cleanup. The group's number cannot be
//     reused while it has a member, so the attribution is exact. An orphan
//     that left its run's group (setsid) cannot be attributed, and whichever
//     run sweeps first ends it: runs meant to overlap want the cgroup path.
var reaper struct {
	once sync.Once
	err  error

	direct struct {
		gate   sync.RWMutex // starts: read; sweeps listing children: write
		mu     sync.Mutex   // guards pids and groups
		pids   map[int]struct{}
		groups map[int]struct{} // process groups of runs not yet released
	}
	sweep sync.Mutex // one sweep at a time
}

// becomeSubreaper marks the host a child subreaper, once per process.
func becomeSubreaper() error {
	reaper.once.Do(func() {
		reaper.err = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
	return reaper.err
}

// subreaperAvailable reports whether the kernel knows the subreaper
// attribute (Linux 3.4), without setting it.
func subreaperAvailable() bool {
	var v int32
	return unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0) == nil
}

// startRegistered runs start (which spawns a direct child leading its own
// process group) so that no sweep can observe the child before its pid is
// registered: the gate is held for reading from before the fork until the
// pid is in the set. The pid is also registered as a run's process group,
// until endGroup.
func startRegistered(start func() (pid int, err error)) error {
	reaper.direct.gate.RLock()
	defer reaper.direct.gate.RUnlock()
	pid, err := start()
	if err != nil {
		return err
	}
	reaper.direct.mu.Lock()
	if reaper.direct.pids == nil {
		reaper.direct.pids = map[int]struct{}{}
		reaper.direct.groups = map[int]struct{}{}
	}
	reaper.direct.pids[pid] = struct{}{}
	reaper.direct.groups[pid] = struct{}{}
	reaper.direct.mu.Unlock()
	return nil
}

// unregister forgets a direct child once its Wait has reaped it.
func unregister(pid int) {
	reaper.direct.mu.Lock()
	delete(reaper.direct.pids, pid)
	reaper.direct.mu.Unlock()
}

// endGroup forgets a run's process group once the run is released.
func endGroup(pgid int) {
	reaper.direct.mu.Lock()
	delete(reaper.direct.groups, pgid)
	reaper.direct.mu.Unlock()
}

// spared reports whether a sweep by the run whose group is own must leave
// pid (in process group pgrp) alone.
func spared(pid, pgrp, own int) bool {
	reaper.direct.mu.Lock()
	defer reaper.direct.mu.Unlock()
	if _, ok := reaper.direct.pids[pid]; ok {
		return true
	}
	_, other := reaper.direct.groups[pgrp]
	return other && pgrp != own
}

// sweepOrphans kills and reaps the host's orphans until none remain or stop
// is closed, on behalf of the run whose process group is own. Killing an
// orphan reparents its own children to the host, so each round reaches one
// level further down a tree.
func sweepOrphans(stop <-chan struct{}, own int) {
	reaper.sweep.Lock()
	defer reaper.sweep.Unlock()
	delay := 200 * time.Microsecond
	for {
		fds := openOrphans(own)
		if len(fds) == 0 {
			return
		}
		for _, fd := range fds {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		for _, fd := range fds {
			// WNOHANG: a process stuck in the kernel must not hold up
			// the sweep past stop; it is retried next round.
			_ = unix.Waitid(unix.P_PIDFD, fd, nil, unix.WEXITED|unix.WNOHANG, nil)
			_ = unix.Close(fd)
		}
		select {
		case <-stop:
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, 10*time.Millisecond)
	}
}

// openOrphans returns a pidfd for each orphan of the host the run whose
// group is own may end: a child that is not a registered direct child, not
// in the host's own process group, and not in another live run's group.
// The pidfd pins the process, so the checks made after opening it and the
// signal sent through it concern the same one even if its pid is reused.
func openOrphans(own int) []int {
	reaper.direct.gate.Lock()
	defer reaper.direct.gate.Unlock()
	self, hostPgrp := os.Getpid(), syscall.Getpgrp()
	var fds []int
	for _, pid := range hostChildren(self) {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // already reaped by whoever started it
		}
		st, ok := readStat(pid)
		if !ok || st.ppid != self || st.pgrp == hostPgrp || spared(pid, st.pgrp, own) {
			unix.Close(fd)
			continue
		}
		fds = append(fds, fd)
	}
	return fds
}

// hostChildren lists the children of every thread of the host, from
// /proc/self/task/*/children (an orphan is reparented to one thread of the
// subreaper, not necessarily the main one), or by scanning /proc for
// processes whose parent is the host where that file is not compiled in.
func hostChildren(self int) []int {
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	if len(tasks) == 0 {
		return scanChildren(self)
	}
	var pids []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil && pid > 0 {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

func scanChildren(self int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if st, ok := readStat(pid); ok && st.ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procStat is what a sweep needs of /proc/<pid>/stat.
type procStat struct {
	state byte
	ppid  int
	pgrp  int
}

// readStat parses /proc/<pid>/stat. The command name, field 2, may hold
// spaces and parentheses, so fields are counted from its last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(b)
}

func parseStat(b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	if err := errors.Join(err1, err2); err != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgrp: pgrp}, true
}

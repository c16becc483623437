//go:build linux

package child

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The delegated cgroup v2 subtree is the host's own cgroup: the directory
// of the cgroup v2 mount that /proc/self/cgroup's "0::" line names. It is
// usable when the host may create a child cgroup in it, that child has
// cgroup.kill (Linux 5.14), both cgroup.procs files are writable (moving a
// process needs write access to the common ancestor's), and a clone3 with
// CLONE_INTO_CGROUP into it succeeds (seccomp profiles in containers often
// refuse clone3).
var subtree struct {
	once sync.Once
	dir  string // absolute; never put in a diagnostic
	err  error  // why there is none; names host paths, for tests and logs only
}

// cgroupSubtree returns the host's delegated cgroup v2 directory, probed
// once per process.
func cgroupSubtree() (string, error) {
	subtree.once.Do(func() {
		subtree.dir, subtree.err = probeCgroupSubtree()
	})
	return subtree.dir, subtree.err
}

func probeCgroupSubtree() (string, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("reading /proc/self/cgroup: %w", err)
	}
	own, ok := unifiedCgroupPath(self)
	if !ok {
		return "", errors.New(`/proc/self/cgroup has no "0::" line: the process is in no cgroup v2 hierarchy`)
	}
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", fmt.Errorf("reading /proc/self/mountinfo: %w", err)
	}
	dir, ok := cgroup2Dir(info, own)
	if !ok {
		return "", fmt.Errorf("no cgroup2 mount shows the process's cgroup %q", own)
	}
	if err := unix.Access(filepath.Join(dir, "cgroup.procs"), unix.W_OK); err != nil {
		return "", fmt.Errorf("%s/cgroup.procs is not writable: %w", dir, err)
	}
	probe := filepath.Join(dir, fmt.Sprintf("lola-probe-%d-%d", os.Getpid(), time.Now().UnixNano()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return "", fmt.Errorf("cannot create a child cgroup in %s: %w", dir, err)
	}
	defer removeEmptyCgroup(probe)
	if err := unix.Access(filepath.Join(probe, "cgroup.kill"), unix.W_OK); err != nil {
		return "", fmt.Errorf("a child cgroup of %s has no writable cgroup.kill (Linux 5.14+): %w", dir, err)
	}
	if err := unix.Access(filepath.Join(probe, "cgroup.procs"), unix.W_OK); err != nil {
		return "", fmt.Errorf("a child cgroup of %s has no writable cgroup.procs: %w", dir, err)
	}
	if err := probeCloneIntoCgroup(probe); err != nil {
		return "", fmt.Errorf("clone3 with CLONE_INTO_CGROUP into a child of %s failed: %w", dir, err)
	}
	return dir, nil
}

// removeEmptyCgroup removes a cgroup that holds no process, retrying for a
// moment: a process that has just been reaped may still be leaving it.
func removeEmptyCgroup(dir string) {
	for i := 0; i < 50; i++ {
		if err := unix.Rmdir(dir); err == nil || !errors.Is(err, unix.EBUSY) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// probeCloneIntoCgroup starts a process in cg that fails at once in exec:
// ENOENT from exec proves the clone into the cgroup itself worked, and
// nothing but the forked host image ever ran (and it is reaped by ForkExec).
func probeCloneIntoCgroup(cg string) error {
	fd, err := unix.Open(cg, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	const missing = "/proc/self/lola-clone-into-cgroup-probe-does-not-exist"
	_, err = syscall.ForkExec(missing, []string{missing}, &syscall.ProcAttr{
		Env: []string{},
		Sys: &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd},
	})
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	if err == nil {
		return errors.New("the probe executable exists")
	}
	return err
}

// unifiedCgroupPath returns the path of the "0::" line of a
// /proc/<pid>/cgroup file: the process's cgroup in the v2 hierarchy.
func unifiedCgroupPath(b []byte) (string, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok && strings.HasPrefix(p, "/") {
			return p, true
		}
	}
	return "", false
}

// cgroup2Dir finds, in a mountinfo file, the cgroup2 mount through which
// the cgroup own is visible and returns its directory there. A mount's
// root field says which cgroup it shows at its mount point (not always the
// hierarchy's root, in containers and bind mounts). /sys/fs/cgroup wins
// over other mounts of the same hierarchy.
func cgroup2Dir(mountinfo []byte, own string) (string, bool) {
	best, found := "", false
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		if f := strings.Fields(post); len(f) == 0 || f[0] != "cgroup2" {
			continue
		}
		f := strings.Fields(pre)
		if len(f) < 5 {
			continue
		}
		root, point := unescapeMountinfo(f[3]), unescapeMountinfo(f[4])
		rel, ok := beneath(own, root)
		if !ok {
			continue
		}
		dir := filepath.Join(point, rel)
		if !found || point == "/sys/fs/cgroup" {
			best, found = dir, true
		}
	}
	return best, found
}

// beneath returns p relative to root when p is root or lies beneath it.
func beneath(p, root string) (string, bool) {
	if root == "/" {
		return p, true
	}
	if p == root {
		return "/", true
	}
	if rest, ok := strings.CutPrefix(p, root+"/"); ok {
		return "/" + rest, true
	}
	return "", false
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupSeq numbers the cgroups this process creates.
var cgroupSeq atomic.Uint64

// cgroupMember is the fresh cgroup one child starts in.
type cgroupMember struct {
	dir  string   // absolute; never put in a diagnostic
	dirF *os.File // the directory, for CLONE_INTO_CGROUP; closed after start

	mu   sync.Mutex // guards kill: a kill may race the cleanup closing it
	kill *os.File   // cgroup.kill, open for writing so a kill is one write
}

// newCgroupMember creates a child cgroup of parent, named after the host's
// pid and a sequence number so concurrent runs and hosts never share one.
func newCgroupMember(parent string) (*cgroupMember, error) {
	dir := filepath.Join(parent, fmt.Sprintf("lola-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("descendant containment: creating the child's cgroup: %w", unwrapPath(err))
	}
	m := &cgroupMember{dir: dir}
	var err error
	if m.dirF, err = os.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY, 0); err == nil {
		m.kill, err = os.OpenFile(filepath.Join(dir, "cgroup.kill"), os.O_WRONLY, 0)
	}
	if err != nil {
		m.closeFiles()
		_ = os.Remove(dir)
		return nil, fmt.Errorf("descendant containment: opening the child's cgroup: %w", unwrapPath(err))
	}
	return m, nil
}

// setMemoryMax writes memory.max before the child starts (it is cloned
// straight into the cgroup), so the bound holds from its first
// instruction. It fails where the parent does not delegate the memory
// controller (no memory.max file).
func (m *cgroupMember) setMemoryMax(n int64) error {
	return os.WriteFile(filepath.Join(m.dir, "memory.max"), []byte(strconv.FormatInt(n, 10)), 0)
}

// killAll writes 1 to cgroup.kill: SIGKILL to every process in the cgroup
// and its descendants, including ones forking at that moment.
func (m *cgroupMember) killAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kill != nil {
		_, _ = m.kill.Write([]byte("1"))
	}
}

func (m *cgroupMember) closeDir() {
	if m.dirF != nil {
		_ = m.dirF.Close()
		m.dirF = nil
	}
}

func (m *cgroupMember) closeFiles() {
	m.closeDir()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.kill != nil {
		_ = m.kill.Close()
		m.kill = nil
	}
}

// remove deletes the cgroup once it is empty, killing what is left of it
// again while it is not, until stop is closed. A killed process leaves the
// cgroup as it exits (a zombie is no member), so this normally takes one
// scheduler tick. A cgroup still populated when stop closes (a process stuck
// in the kernel) is left behind: rmdir cannot remove it.
func (m *cgroupMember) remove(stop <-chan struct{}) error {
	defer m.closeFiles()
	delay := 200 * time.Microsecond
	for {
		err := unix.Rmdir(m.dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) {
			return fmt.Errorf("removing the child's cgroup: %w", err)
		}
		m.killAll()
		select {
		case <-stop:
			return errors.New("the child's cgroup did not empty within the grace period")
		case <-time.After(delay):
		}
		delay = min(2*delay, 10*time.Millisecond)
	}
}

//go:build linux

package child

import (
	"errors"
	"os/exec"
	"sync"
	"syscall"
)

// discoverContainment picks Linux's containment: a fresh cgroup v2 child per
// run where the host has a usable delegated subtree, the child subreaper
// otherwise, and the bare process group only on a kernel older than both.
func discoverContainment() Containment {
	if _, err := cgroupSubtree(); err == nil {
		return ContainmentCgroup
	}
	if subreaperAvailable() {
		return ContainmentSubreaper
	}
	return ContainmentProcessGroup
}

// group on Linux is the child's own process group plus the containment in
// effect: its fresh cgroup, or the host's subreaper sweep.
type group struct {
	mu   sync.Mutex
	mode Containment
	cmd  *exec.Cmd
	pgid int
	cg   *cgroupMember // ContainmentCgroup only
	// memMax is the memory.max written to cg, 0 for none.
	memMax int64
}

func (g *group) memoryMax() int64 { return g.memMax }

func newGroup(memoryMax int64) (*group, error) {
	g := &group{mode: CurrentContainment()}
	switch g.mode {
	case ContainmentCgroup:
		parent, err := cgroupSubtree()
		if err != nil {
			// Only a test can force a containment the machine lacks.
			return nil, errors.New("descendant containment: no usable cgroup v2 subtree")
		}
		if g.cg, err = newCgroupMember(parent); err != nil {
			return nil, err
		}
		if memoryMax > 0 && g.cg.setMemoryMax(memoryMax) == nil {
			g.memMax = memoryMax
		}
	case ContainmentSubreaper:
		if err := becomeSubreaper(); err != nil {
			return nil, errors.New("descendant containment: prctl(PR_SET_CHILD_SUBREAPER) failed: " + err.Error())
		}
	}
	return g, nil
}

// start spawns cmd as the leader of a new process group and, on the
// cgroup path, directly inside its fresh cgroup: clone3 with
// CLONE_INTO_CGROUP, so the child is a member before it runs any code and
// cannot fork a descendant outside it.
func (g *group) start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	if g.cg != nil {
		cmd.SysProcAttr.UseCgroupFD = true
		cmd.SysProcAttr.CgroupFD = int(g.cg.dirF.Fd())
	}
	err := startRegistered(func() (int, error) {
		if err := cmd.Start(); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
	if g.cg != nil {
		g.cg.closeDir()
	}
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.cmd, g.pgid = cmd, cmd.Process.Pid
	g.mu.Unlock()
	return nil
}

func (g *group) containment() Containment { return g.mode }

// waited is called once cmd.Wait has reaped the direct child.
func (g *group) waited() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd != nil {
		unregister(g.pgid)
	}
}

// kill writes cgroup.kill on the cgroup path, then sends SIGKILL to the
// process group and to the child itself (through its pidfd, so never to a
// recycled pid). Each is one system call; the subreaper's sweep of orphans
// happens in release, bounded by the grace.
//
// The group signal is by number. Linux does not recycle a number while a
// process group of that id has a member, so the only window for hitting a
// stranger is an empty group whose number was then reused as a new group
// leader's pid within this run: accepted, and closed by cgroup.kill where
// the cgroup path is in effect.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd == nil {
		return
	}
	if g.cg != nil {
		g.cg.killAll()
	}
	_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	_ = g.cmd.Process.Kill()
}

// release frees the run's containment within stop: on the cgroup path it
// removes the cgroup once it is empty; on the subreaper path it kills and
// reaps orphans until none remain. A nil stop means nothing was started.
func (g *group) release(stop <-chan struct{}) {
	switch {
	case g.cg != nil:
		if stop == nil {
			c := make(chan struct{})
			close(c)
			stop = c
		}
		_ = g.cg.remove(stop)
	case g.mode == ContainmentSubreaper && stop != nil:
		sweepOrphans(stop, g.startedGroup())
	}
	if pgid := g.startedGroup(); pgid != 0 {
		endGroup(pgid)
	}
}

// startedGroup is the child's process group, 0 before it started.
func (g *group) startedGroup() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pgid
}

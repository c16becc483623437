//go:build unix && !linux

package child

import (
	"os/exec"
	"sync"
	"syscall"
)

// discoverContainment: macOS and the BSDs offer no unprivileged way to
// contain descendants that leave the process group, so the group kill and
// the bounded cleanup are all there is (the tier-2 trust model).
func discoverContainment() Containment { return ContainmentProcessGroup }

// group on Unix other than Linux is a fresh process group led by the child.
type group struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	pgid int
}

func newGroup(int64) (*group, error) { return &group{}, nil }

// memoryMax: no per-run memory bound exists off Linux's cgroup path.
func (g *group) memoryMax() int64 { return 0 }

// start spawns cmd as the leader of a new process group, so that one
// kill(-pgid) reaches every descendant that has not left the group.
func (g *group) start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	if err := cmd.Start(); err != nil {
		return err
	}
	g.mu.Lock()
	g.cmd, g.pgid = cmd, cmd.Process.Pid
	g.mu.Unlock()
	return nil
}

// kill sends SIGKILL to the group and to the child itself: the child may
// have left its group, and os.Process.Kill reaches it through its pidfd
// without any risk of hitting a recycled pid.
//
// The group signal is by number. A number is not recycled while a process
// group of that id has a member, so the only window for hitting a stranger
// is an empty group whose number was then reused as a new group leader's
// pid within this run: accepted.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd == nil {
		return
	}
	_ = syscall.Kill(-g.pgid, syscall.SIGKILL)
	_ = g.cmd.Process.Kill()
}

func (g *group) containment() Containment { return ContainmentProcessGroup }

// waited is called once cmd.Wait has reaped the direct child.
func (g *group) waited() {}

// release has nothing to free: a process group needs no resources, and a
// descendant that left it is out of reach (see discoverContainment).
func (g *group) release(stop <-chan struct{}) {}

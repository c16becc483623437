//go:build windows

package child

import (
	"os/exec"
	"sync"
	"syscall"
)

// group on Windows is, for now, the child process alone, started in its
// own console process group. A job object (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
// child created suspended and assigned before it runs) replaces it here.
type group struct {
	mu  sync.Mutex
	cmd *exec.Cmd
}

func newGroup() (*group, error) { return &group{}, nil }

func (g *group) start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
	if err := cmd.Start(); err != nil {
		return err
	}
	g.mu.Lock()
	g.cmd = cmd
	g.mu.Unlock()
	return nil
}

// kill terminates the child. Its descendants are not reached until the job
// object lands.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd != nil {
		_ = g.cmd.Process.Kill()
	}
}

func (g *group) release(stop <-chan struct{}) {}

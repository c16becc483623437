//go:build !unix && !windows

package child

import (
	"os/exec"
	"sync"
)

// discoverContainment: elsewhere a kill reaches the child alone.
func discoverContainment() Containment { return ContainmentNone }

// group elsewhere is the child process alone.
type group struct {
	mu  sync.Mutex
	cmd *exec.Cmd
}

func newGroup(int64) (*group, error) { return &group{}, nil }

func (g *group) memoryMax() int64 { return 0 }

func (g *group) start(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	g.mu.Lock()
	g.cmd = cmd
	g.mu.Unlock()
	return nil
}

func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd != nil {
		_ = g.cmd.Process.Kill()
	}
}

func (g *group) containment() Containment { return ContainmentNone }

func (g *group) waited() {}

func (g *group) release(stop <-chan struct{}) {}

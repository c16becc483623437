package apply

import (
	"errors"
	"runtime"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
)

// ErrNotInterrupted: Interrupt's apply ended before reaching the point.
var ErrNotInterrupted = errors.New("apply: the apply ended before the crash point")

// Interrupt applies v as Apply does, but stops dead at the first crash
// point named at (for example "after aside", "program", "commit"): the
// goroutine running the apply exits there, so only descriptors are
// closed and the lock released; the tree, staging and journal are left
// exactly as a process killed at that instant leaves them. It exists for
// tests of callers' recovery paths (the CLI's 'lola recover'), which
// cannot reach the unexported crash hooks; it never runs in a normal
// apply.
func Interrupt(root *fsroot.Root, v *pathrule.Validated, bodies Bodies, opts Options, at string) error {
	opts.hooks = &hooks{point: func(_ int, what string) {
		if what == at {
			runtime.Goexit()
		}
	}}
	done := make(chan error, 1)
	stopped := true
	go func() {
		defer func() {
			if stopped {
				done <- nil
			}
		}()
		_, err := Apply(root, v, bodies, opts)
		stopped = false
		if err == nil {
			err = ErrNotInterrupted
		}
		done <- err
	}()
	return <-done
}

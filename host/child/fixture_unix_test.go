//go:build unix

package child_test

import "syscall"

// detachAttr starts a process in a new session, out of its parent's
// process group: the descendant that survives a group kill.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

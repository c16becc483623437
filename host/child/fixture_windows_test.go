//go:build windows

package child_test

import "syscall"

// detachAttr starts a process detached, in its own process group.
func detachAttr() *syscall.SysProcAttr {
	const detachedProcess = 0x00000008
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

package shim

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	checkX32  = true // x32 syscalls share the architecture value; refuse them
)

var archDeniedSyscalls = []uintptr{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB, unix.SYS_FORK, unix.SYS_VFORK}

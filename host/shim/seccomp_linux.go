//go:build linux && (amd64 || arm64)

package shim

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter is a deny list, not an allow list: the Go runtime and
// wazero's compiler use a wide, version-dependent set of calls (mmap with
// PROT_EXEC, futex, signals, tgkill, getrandom, ...) and an allow list that
// missed one would kill a correct shim. What it refuses, with EPERM, is
// every way out a wazero escape could use that Landlock does not cover:
// creating sockets (Landlock's TCP rules miss UDP, MPTCP and unix sockets
// below ABI 9), exec, tracing or reading another process, namespaces and
// mounts, kernel keyrings, eBPF, io_uring (whose operations bypass seccomp),
// module loading, handle-based opens that skip path checks, and new
// processes (clone without CLONE_THREAD, or with a namespace flag; clone3,
// whose flags live in memory a filter cannot read, gets ENOSYS so callers
// fall back to clone). A foreign architecture or the x32 ABI is killed.
var deniedSyscalls = append([]uintptr{
	unix.SYS_SOCKET, unix.SYS_SOCKETPAIR,
	unix.SYS_EXECVE, unix.SYS_EXECVEAT,
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_KCMP, unix.SYS_PIDFD_GETFD,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT,
	unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOVE_MOUNT,
	unix.SYS_OPEN_TREE, unix.SYS_MOUNT_SETATTR,
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
	unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_REBOOT, unix.SYS_ACCT, unix.SYS_QUOTACTL, unix.SYS_VHANGUP,
	unix.SYS_LOOKUP_DCOOKIE,
}, archDeniedSyscalls...)

// cloneNamespaceFlags are clone flags that create namespaces.
const cloneNamespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC | unix.CLONE_NEWUSER |
	unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWCGROUP | unix.CLONE_NEWTIME

// Offsets in struct seccomp_data.
const (
	offNr    = 0
	offArch  = 4
	offArg0  = 16 // low 32 bits on little-endian amd64 and arm64
	x32Bit   = 0x40000000
	retErrno = unix.SECCOMP_RET_ERRNO
)

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// seccompProgram assembles the filter. Every jump is short (no more than
// five instructions), so no offset can overflow its 8 bits.
func seccompProgram() []unix.SockFilter {
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	eperm := uint32(retErrno | uint32(unix.EPERM))
	p := []unix.SockFilter{
		stmt(ld, offArch),
		jump(jeq, auditArch, 1, 0),
		stmt(ret, unix.SECCOMP_RET_KILL_PROCESS),
		stmt(ld, offNr),
	}
	if checkX32 {
		p = append(p, jump(jge, x32Bit, 0, 1), stmt(ret, unix.SECCOMP_RET_KILL_PROCESS))
	}
	for _, nr := range deniedSyscalls {
		p = append(p, jump(jeq, uint32(nr), 0, 1), stmt(ret, eperm))
	}
	p = append(p,
		jump(jeq, unix.SYS_CLONE3, 0, 1), stmt(ret, retErrno|uint32(unix.ENOSYS)),
		// clone: a thread (CLONE_THREAD, no namespace flag) is allowed.
		jump(jeq, unix.SYS_CLONE, 0, 6),
		stmt(ld, offArg0),
		jump(jset, cloneNamespaceFlags, 0, 1), stmt(ret, eperm),
		jump(jset, unix.CLONE_THREAD, 0, 1), stmt(ret, unix.SECCOMP_RET_ALLOW),
		stmt(ret, eperm),
		stmt(ret, unix.SECCOMP_RET_ALLOW),
	)
	return p
}

// installSeccomp installs the filter on every thread of the process
// (SECCOMP_FILTER_FLAG_TSYNC), after setting no_new_privs as the kernel
// requires of an unprivileged filter. Threads the runtime creates later
// inherit it.
func installSeccomp() (bool, error) {
	prog := seccompProgram()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return false, fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return false, fmt.Errorf("seccomp(SET_MODE_FILTER, TSYNC): %w", errno)
	}
	if r != 0 {
		return false, fmt.Errorf("seccomp: thread %d could not be synchronized", r)
	}
	return true, nil
}

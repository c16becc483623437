//go:build windows

package child

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// discoverContainment: every Windows the host supports has job objects
// (nested jobs since Windows 8, so a host that is itself in a job works).
func discoverContainment() Containment { return ContainmentJobObject }

// group on Windows is a job object created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and no breakaway flag
// (JOB_OBJECT_LIMIT_BREAKAWAY_OK and _SILENT_BREAKAWAY_OK unset), so every
// descendant inherits it and neither CREATE_BREAKAWAY_FROM_JOB nor anything
// else takes one out. The child is created suspended, assigned, and only
// then resumed: it is in the job before it runs its first instruction.
type group struct {
	mu  sync.Mutex
	job windows.Handle // closed (terminating every member) by release
	cmd *exec.Cmd
	// memMax is the job's memory limit, 0 for none.
	memMax int64
}

func (g *group) memoryMax() int64 { return g.memMax }

// newGroup creates the job; a positive memoryMax becomes its job-wide
// memory limit (JOB_OBJECT_LIMIT_JOB_MEMORY: committed memory of every
// process in the job together).
func newGroup(memoryMax int64) (*group, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("descendant containment: CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if memoryMax > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_JOB_MEMORY
		info.JobMemoryLimit = uintptr(memoryMax)
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return nil, fmt.Errorf("descendant containment: SetInformationJobObject: %w", err)
	}
	return &group{job: job, memMax: memoryMax}, nil
}

// start creates cmd suspended in its own console process group, assigns it
// to the job, and resumes its primary thread. A child whose assignment (or
// resumption) fails is terminated while still suspended and reaped, and
// start returns the error: it never ran a single instruction.
func (g *group) start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED
	if err := cmd.Start(); err != nil {
		return err
	}
	if err := g.adopt(uint32(cmd.Process.Pid)); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	g.mu.Lock()
	g.cmd = cmd
	g.mu.Unlock()
	return nil
}

// adopt assigns the suspended process pid to the job and resumes it. The
// pid cannot be reused meanwhile: os/exec holds a handle to the process.
func (g *group) adopt(pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return fmt.Errorf("descendant containment: OpenProcess: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(g.job, h); err != nil {
		return fmt.Errorf("descendant containment: AssignProcessToJobObject: %w", err)
	}
	if err := resumeThreads(pid); err != nil {
		return fmt.Errorf("descendant containment: resuming the child: %w", err)
	}
	return nil
}

// resumeThreads resumes the threads of the suspended process pid. os/exec
// closes the primary thread's handle CreateProcess returned, so the thread
// is found again through a Toolhelp snapshot; a process created suspended
// has exactly that one thread.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, oerr := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if oerr != nil {
			return oerr
		}
		_, rerr := windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if rerr != nil {
			return rerr
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return err
	}
	if resumed == 0 {
		return errors.New("no thread of the child found")
	}
	return nil
}

// kill terminates every process in the job, then the child itself (a
// no-op once the job kill reached it). Each is one system call.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
	}
	if g.cmd != nil {
		_ = g.cmd.Process.Kill()
	}
}

func (g *group) containment() Containment { return ContainmentJobObject }

func (g *group) waited() {}

// release closes the job's handle: with KILL_ON_JOB_CLOSE that terminates
// whatever is still in it, so nothing the child started outlives Run.
func (g *group) release(stop <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.job != 0 {
		_ = windows.CloseHandle(g.job)
		g.job = 0
	}
}

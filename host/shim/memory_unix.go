//go:build unix

package shim

import (
	"math"
	"os"

	"github.com/lola-pm/lola/host/hugeheap"
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// reservedMemory is linear memory in one anonymous mapping the size of the
// ceiling, reserved inaccessible (PROT_NONE) up front and made readable
// and writable as the module grows. A growth never moves or copies the
// memory, so a module that grows in many steps (a Go guest grows its heap
// page by page) costs no copies, no garbage for the Go collector, and no
// second set of page faults; untouched pages cost nothing but address
// space. Pages beyond the current size stay inaccessible, so the slice
// handed to wazero never reaches memory the module does not have.
//
// Accounting: RLIMIT_DATA counts the writable part only, as it counted the
// slice it replaces (one copy instead of the old and new buffers during a
// growth, so the limit holds with room to spare).
type reservedMemory struct {
	a    *ceilingAllocator
	mem  []byte // the whole reservation, ceiling bytes
	size uint64 // bytes accessible
}

// reserveMemory reserves the ceiling's address space, or returns nil (the
// caller falls back to heapMemory) when the reservation fails, as it may
// where address space is scarce (a 32-bit process).
func reserveMemory(a *ceilingAllocator) experimental.LinearMemory {
	if a.ceiling == 0 || a.ceiling > math.MaxInt {
		return nil
	}
	mem, err := unix.Mmap(-1, 0, int(a.ceiling), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	hugeheap.Advise(mem)
	return &reservedMemory{a: a, mem: mem}
}

// Reallocate makes the first size bytes accessible, or refuses (nil) a
// size over the ceiling or one the kernel will not commit (RLIMIT_DATA,
// the bound of the whole shim): the module sees a failed memory.grow
// either way, and the refusal is recorded for the memory-limit report.
func (m *reservedMemory) Reallocate(size uint64) []byte {
	if size > m.a.ceiling {
		m.a.refuse(size)
		return nil
	}
	if size > m.size {
		from := m.size &^ uint64(os.Getpagesize()-1)
		if err := unix.Mprotect(m.mem[from:size], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			m.a.deny(size)
			return nil
		}
		m.size = size
	}
	return m.mem[:size:size]
}

// Free implements experimental.LinearMemory: it unmaps the reservation.
// wazero calls it once, when the module is closed; nothing reads the
// memory after.
func (m *reservedMemory) Free() {
	if m.mem != nil {
		unix.Munmap(m.mem)
		m.mem, m.size = nil, 0
	}
}

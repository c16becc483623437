package shim

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// ceilingAllocator backs the module's linear memory and enforces the
// memory ceiling itself. wazero's own ceiling (WithMemoryLimitPages)
// refuses a memory.grow by returning -1 to the guest and tells the host
// nothing, so a module that then traps looked like any other trap. Here
// wazero's limit is the wasm32 maximum and every growth reaches Reallocate,
// which refuses a size over the ceiling and records it: the shim reports
// memory-limit exactly when a growth was refused, never by guessing from
// how close to the ceiling the module died.
type ceilingAllocator struct {
	ceiling uint64        // bytes
	refused atomic.Uint64 // the largest size refused, in bytes; 0: none
	denied  atomic.Uint64 // the largest size under the ceiling the process could not commit (RLIMIT_DATA), in bytes; 0: none
}

// Allocate implements experimental.MemoryAllocator.
func (a *ceilingAllocator) Allocate(_, _ uint64) experimental.LinearMemory {
	if m := reserveMemory(a); m != nil {
		return m
	}
	return &heapMemory{a: a}
}

// refusedPages is the largest growth refused, in pages (0: none).
func (a *ceilingAllocator) refusedPages() uint64 { return a.refused.Load() / 65536 }

// deniedPages is the largest growth under the ceiling that the process's
// data limit refused, in pages (0: none).
func (a *ceilingAllocator) deniedPages() uint64 { return a.denied.Load() / 65536 }

// refuse records a growth to size bytes that the ceiling refused.
func (a *ceilingAllocator) refuse(size uint64) { recordMax(&a.refused, size) }

// deny records a growth to size bytes, under the ceiling, that the process
// could not commit.
func (a *ceilingAllocator) deny(size uint64) { recordMax(&a.denied, size) }

func recordMax(v *atomic.Uint64, size uint64) {
	for {
		old := v.Load()
		if size <= old || v.CompareAndSwap(old, size) {
			return
		}
	}
}

// heapMemory is linear memory in a Go slice: the backing where the
// platform has no reservation (reservedMemory), or where reserving the
// ceiling's address space failed.
type heapMemory struct {
	a   *ceilingAllocator
	buf []byte
}

// Reallocate grows the memory to size bytes, or refuses (nil) a size over
// the ceiling. Capacity grows by a quarter beyond the request, never past
// the ceiling, so repeated small grows copy O(log) times.
func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > m.a.ceiling {
		m.a.refuse(size)
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	c := min(size+size/4, m.a.ceiling)
	nb := make([]byte, size, c)
	copy(nb, m.buf)
	m.buf = nb
	return nb
}

// Free implements experimental.LinearMemory.
func (m *heapMemory) Free() { m.buf = nil }

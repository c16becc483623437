package shim

import (
	"bytes"
	"runtime"
	"testing"
	"unsafe"
)

// Every linear-memory backing keeps what the module wrote across a growth,
// refuses a size over the ceiling, and records the refusal for the
// memory-limit report.
func TestLinearMemoryGrowsKeepsContentsAndRefusesOverCeiling(t *testing.T) {
	const page = 65536
	for name, alloc := range map[string]func(a *ceilingAllocator) interface {
		Reallocate(uint64) []byte
		Free()
	}{
		"allocated": func(a *ceilingAllocator) interface {
			Reallocate(uint64) []byte
			Free()
		} {
			return a.Allocate(page, 16*page)
		},
		"heap": func(a *ceilingAllocator) interface {
			Reallocate(uint64) []byte
			Free()
		} {
			return &heapMemory{a: a}
		},
	} {
		t.Run(name, func(t *testing.T) {
			a := &ceilingAllocator{ceiling: 16 * page}
			m := alloc(a)
			defer m.Free()
			b := m.Reallocate(page)
			if len(b) != page {
				t.Fatalf("len %d", len(b))
			}
			copy(b[page-4:], "tail")
			b = m.Reallocate(4 * page)
			if len(b) != 4*page || !bytes.Equal(b[page-4:page], []byte("tail")) {
				t.Fatalf("after growth: len %d, %q", len(b), b[page-4:page])
			}
			b[len(b)-1] = 1 // the whole new size is writable
			if b := m.Reallocate(17 * page); b != nil {
				t.Fatalf("a growth past the ceiling was granted (%d bytes)", len(b))
			}
			if got := a.refusedPages(); got != 17 {
				t.Fatalf("refused %d pages recorded, want 17", got)
			}
			if b := m.Reallocate(16 * page); len(b) != 16*page {
				t.Fatalf("growth to the ceiling itself refused: %d", len(b))
			}
		})
	}
}

// Where the platform reserves the ceiling's address space, a growth never
// moves the memory (no copy, nothing left for the collector), and the
// slice ends where the module's memory ends.
func TestReservedMemoryGrowsInPlace(t *testing.T) {
	const page = 65536
	a := &ceilingAllocator{ceiling: 64 * page}
	m := reserveMemory(a)
	if m == nil {
		if runtime.GOOS == "windows" {
			t.Skip("no address-space reservation on Windows (linear memory is a Go slice)")
		}
		t.Fatal("reserving the ceiling's address space failed")
	}
	defer m.Free()
	first := m.Reallocate(2 * page)
	base := unsafe.SliceData(first)
	for _, n := range []uint64{3, 17, 64} {
		b := m.Reallocate(n * page)
		if unsafe.SliceData(b) != base {
			t.Fatalf("growth to %d pages moved the memory", n)
		}
		if uint64(cap(b)) != n*page {
			t.Fatalf("cap %d beyond the module's %d pages", cap(b), n)
		}
	}
}

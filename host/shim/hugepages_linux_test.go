//go:build linux

package shim

import (
	"testing"

	"github.com/lola-pm/lola/host/hugeheap"
)

func skipWithoutTHP(t *testing.T) {
	if m := hugeheap.Mode(); m != "always" && m != "madvise" {
		t.Skipf("transparent huge pages are %q here: advice has no effect to observe", m)
	}
}

// The module's linear memory is advised for huge pages: a Go guest touches
// tens of megabytes, a few dozen faults in 2 MiB pages instead of
// thousands in 4 KiB ones.
func TestReservedMemoryIsAdvisedHuge(t *testing.T) {
	skipWithoutTHP(t)
	const page = 65536
	before := hugeAdvised(t)
	m := reserveMemory(&ceilingAllocator{ceiling: 256 * page})
	defer m.Free()
	m.Reallocate(64 * page)
	if got := hugeAdvised(t); got < before+256*page {
		t.Fatalf("%d bytes advised for huge pages after reserving linear memory (was %d): its %d bytes are not (MADV_HUGEPAGE)", got, before, 256*page)
	}
}

// prepareHeap leaves heapReserve bytes of Go heap mapped and advised for
// huge pages, for the allocations that follow (the page allocator takes the
// lowest free address, and the reservation is the heap's first large free
// run), and does nothing for a small module.
func TestPrepareHeapAdvisesTheHeapAhead(t *testing.T) {
	skipWithoutTHP(t)
	before := hugeAdvised(t)
	prepareHeap(prepareHeapFrom - 1)
	if got := hugeAdvised(t); got != before {
		t.Fatalf("a small module's run advised %d bytes (was %d)", got, before)
	}
	prepareHeap(prepareHeapFrom)
	if got := hugeAdvised(t); got < before+heapReserve/2 {
		t.Fatalf("after prepareHeap %d bytes are advised for huge pages, want at least %d more than %d", got, heapReserve/2, before)
	}
}

// hugeAdvised sums the sizes of this process's mappings advised for huge
// pages.
func hugeAdvised(t *testing.T) uint64 {
	t.Helper()
	n, err := hugeheap.AdvisedBytes()
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	return n
}

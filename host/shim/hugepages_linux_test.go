//go:build linux

package shim

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/lola-pm/lola/host/hugeheap"
)

// advisedHuge reports the size of the mapping of this process containing
// addr and whether its VmFlags carry "hg" (MADV_HUGEPAGE).
func advisedHuge(t *testing.T, addr uintptr) (size uint64, hg bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')], "-") {
			in = addr >= lo && addr < hi
			if in {
				size = uint64(hi - lo)
			}
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return size, strings.Contains(line, " hg")
		}
	}
	t.Fatalf("no mapping of this process contains %#x", addr)
	return 0, false
}

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
	m := reserveMemory(&ceilingAllocator{ceiling: 256 * page})
	defer m.Free()
	b := m.Reallocate(64 * page)
	if _, hg := advisedHuge(t, uintptr(unsafe.Pointer(unsafe.SliceData(b)))); !hg {
		t.Fatal("linear memory is not advised for huge pages (MADV_HUGEPAGE)")
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

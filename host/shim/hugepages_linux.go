//go:build linux

package shim

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back b with transparent huge pages
// where its mode allows (MADV_HUGEPAGE; a no-op when THP is "never").
// Best effort: an error changes nothing but speed.
func adviseHugePages(b []byte) {
	if len(b) == 0 {
		return
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
}

// heapReserve is how much Go heap prepareHeap maps ahead, advised for
// huge pages: more than a warm run of the largest module the SDKs build
// uses (a 5 MiB Go module: about 40 MiB of heap).
const heapReserve = 64 << 20

// prepareHeapFrom is the module size below which prepareHeap does nothing:
// a small module's run touches a few megabytes, less than the collection
// that frees the reservation costs.
const prepareHeapFrom = 1 << 20

// prepareHeap maps heapReserve bytes of Go heap in one piece, advises
// huge pages for it, and frees it for the allocations that follow. The Go
// runtime maps its heap in 4 MiB steps, each a mapping of its own that no
// earlier advice reaches, so the range must exist before it is advised.
// A run touches tens of megabytes it never had before; in 2 MiB pages
// that is a few dozen faults instead of thousands, and a page freed by the
// previous run is reused warm. Nothing is touched here: a fresh span is
// known to be zero, so the allocation maps address space only.
func prepareHeap(moduleSize int64) {
	if moduleSize < prepareHeapFrom {
		return
	}
	b := make([]byte, heapReserve)
	adviseHugePages(unsafe.Slice(unsafe.SliceData(b), len(b)))
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

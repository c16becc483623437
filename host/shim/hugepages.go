package shim

import "github.com/lola-pm/lola/host/hugeheap"

// heapReserve is how much Go heap prepareHeap maps ahead, advised for
// huge pages: more than a warm run of the largest module the SDKs build
// uses (a 5 MiB Go module: about 40 MiB of heap).
const heapReserve = 64 << 20

// prepareHeapFrom is the module size below which prepareHeap does nothing:
// a small module's run touches a few megabytes, less than the collection
// that frees the reservation costs.
const prepareHeapFrom = 1 << 20

// prepareHeap reserves heapReserve bytes of Go heap in huge pages
// (hugeheap.Reserve) for a module of prepareHeapFrom bytes or more: a run
// touches tens of megabytes it never had before, a few dozen faults in
// 2 MiB pages instead of thousands. Outside Linux it does nothing (as
// hugeheap does).
func prepareHeap(moduleSize int64) {
	if moduleSize < prepareHeapFrom {
		return
	}
	hugeheap.Reserve(heapReserve)
}

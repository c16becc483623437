//go:build wasip1 && !extism

package lola

import (
	"os"
	"unsafe"

	"github.com/lola-pm/lola/schema"
)

// The Lola tier-1 ABI. Both buffers live in this module's linear memory and
// are owned by it: reqBuf from lola_alloc until lola_run returns, planBuf
// from a successful lola_run until the next one or until the instance is
// discarded. Package variables keep them reachable, so the (non-moving) Go
// collector cannot reclaim them while the host holds their addresses.
var (
	reqBuf  []byte
	planBuf []byte
)

//go:wasmexport lola_abi_version
func lolaABIVersion() int32 { return schema.ABIVersion }

// lolaAlloc returns a buffer of size bytes for the request, replacing any
// earlier one. A size below 1 returns 0 (no buffer).
//
//go:wasmexport lola_alloc
func lolaAlloc(size int32) uint32 {
	if size < 1 {
		reqBuf = nil
		return 0
	}
	reqBuf = make([]byte, size)
	return uint32(uintptr(unsafe.Pointer(&reqBuf[0])))
}

// lolaRun runs the handler on the request at [ptr, ptr+n), which must lie at
// the start of the buffer lola_alloc returned.
//
//go:wasmexport lola_run
func lolaRun(ptr uint32, n int32) int32 {
	planBuf = nil
	req := reqBuf
	reqBuf = nil // valid for this call only
	if len(req) == 0 || n < 0 || int(n) > len(req) || ptr != uint32(uintptr(unsafe.Pointer(&req[0]))) {
		os.Stderr.WriteString("lola: lola_run was not given the buffer lola_alloc returned\n")
		return int32(StatusBadRequest)
	}
	plan, status, err := Process(req[:n])
	if status != StatusOK {
		os.Stderr.WriteString(err.Error() + "\n")
		return int32(status)
	}
	planBuf = plan
	return int32(StatusOK)
}

//go:wasmexport lola_plan_ptr
func lolaPlanPtr() uint32 {
	if len(planBuf) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&planBuf[0])))
}

//go:wasmexport lola_plan_len
func lolaPlanLen() int32 { return int32(len(planBuf)) }

//go:build wasip1

package main

import "unsafe"

var (
	reqBuf []byte
	last   outcome
)

//go:wasmexport lola_abi_version
func lolaABIVersion() int32 { return abiVersion }

//go:wasmexport lola_alloc
func lolaAlloc(size int32) int32 {
	reqBuf = make([]byte, size+1) // +1 so a zero-size request still has an address
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(reqBuf))))
}

//go:wasmexport lola_run
func lolaRun(ptr, n int32) int32 {
	req := unsafe.Slice((*byte)(unsafe.Pointer(uintptr(ptr))), n)
	last = handle(append([]byte(nil), req...))
	return last.status
}

//go:wasmexport lola_plan_ptr
func lolaPlanPtr() int32 {
	if last.overridePtr {
		return int32(last.ptr)
	}
	if len(last.plan) == 0 {
		return 0
	}
	return int32(uintptr(unsafe.Pointer(unsafe.SliceData(last.plan))))
}

func main() {}

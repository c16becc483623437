//go:build wasip1 && extism

package lola

import "github.com/extism/go-pdk"

// run is Extism's conventional entry point: the plugin input is the
// request, the output the plan. A failure sets the Extism error (the message
// the native and Lola builds write to stderr) and returns the Status.
//
//go:wasmexport run
func extismRun() int32 {
	plan, status, err := Process(pdk.Input())
	if status != StatusOK {
		pdk.SetError(err)
		return int32(status)
	}
	pdk.Output(plan)
	return int32(StatusOK)
}

//go:build wasip1 && !noplanlen

package main

// Built with -tags noplanlen, the module lacks this export (missing-export).

//go:wasmexport lola_plan_len
func lolaPlanLen() int32 {
	if last.overrideLen {
		return int32(last.length)
	}
	return int32(len(last.plan))
}

package shim

import "runtime/debug"

// gcMemoryLimit is the Go heap size at which the collector starts to run
// in the shim (see tuneGC): half of DataOverhead, the part of RLIMIT_DATA
// that is not linear memory.
const gcMemoryLimit = DataOverhead / 2

// tuneGC turns the collector off below gcMemoryLimit. The shim runs one
// module and exits; almost everything it allocates (the decoded module,
// wazero's metadata) lives until then, so a collection finds little to free
// and costs its own work and page faults. Past the limit the collector runs
// as usual (a soft limit), and RLIMIT_DATA stays the hard bound.
func tuneGC() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcMemoryLimit)
}

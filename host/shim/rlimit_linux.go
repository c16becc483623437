//go:build linux

package shim

import "golang.org/x/sys/unix"

// limitData sets RLIMIT_DATA, soft and hard, to n bytes (never raising a
// lower limit already in place). Since Linux 4.7 RLIMIT_DATA counts every
// private writable mapping, so it bounds the Go heap, wazero's compiler and
// the module's linear memory and tables together. RLIMIT_AS would be the
// wrong tool: it also counts address space the Go runtime reserves
// PROT_NONE and never touches (and a race-detector build's terabytes of
// shadow), so any value tight enough to matter breaks ordinary runs.
// An allocation refused by it ends the process with the Go runtime's
// "out of memory" fatal error; the parent reports that as memory-limit
// (RunModule).
func limitData(n uint64) (bool, error) {
	var cur unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_DATA, &cur); err != nil {
		return false, err
	}
	lim := unix.Rlimit{Cur: min(n, cur.Cur), Max: min(n, cur.Max)}
	if err := unix.Setrlimit(unix.RLIMIT_DATA, &lim); err != nil {
		return false, err
	}
	return true, nil
}

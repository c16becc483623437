//go:build !linux

package shim

// limitData is a no-op off Linux: RLIMIT_DATA there (macOS, the BSDs) does
// not count mmap'd memory, which is where the Go heap lives, so it would
// claim a bound it does not give. The report says "data_limit": 0.
func limitData(uint64) (bool, error) { return false, nil }

//go:build !linux

package shim

// adviseHugePages is Linux's transparent huge pages; elsewhere a no-op.
func adviseHugePages([]byte) {}

// prepareHeap is Linux-only (see hugepages_linux.go).
func prepareHeap(int64) {}

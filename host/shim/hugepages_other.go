//go:build !linux

package shim

// prepareHeap is Linux-only (see hugepages_linux.go).
func prepareHeap(int64) {}

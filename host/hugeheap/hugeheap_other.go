//go:build !linux

package hugeheap

// Advise is Linux's transparent huge pages; elsewhere a no-op.
func Advise([]byte) {}

// Reserve is Linux-only; elsewhere a no-op.
func Reserve(int) {}

// Mode is "" where there are no transparent huge pages.
func Mode() string { return "" }

// AdvisedBytes is 0 where there are no transparent huge pages.
func AdvisedBytes() (uint64, error) { return 0, nil }

//go:build linux

package hugeheap

import "testing"

func skipWithoutTHP(t *testing.T) {
	t.Helper()
	if m := Mode(); m != "always" && m != "madvise" {
		t.Skipf("transparent huge pages are %q here: advice has no effect to observe", m)
	}
}

// Reserve leaves at least most of the reserved bytes mapped and advised
// for huge pages, for the allocations that follow.
func TestReserveAdvisesTheHeapAhead(t *testing.T) {
	skipWithoutTHP(t)
	before, err := AdvisedBytes()
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	const n = 32 << 20
	Reserve(n)
	after, err := AdvisedBytes()
	if err != nil {
		t.Fatal(err)
	}
	if after < before+n/2 {
		t.Fatalf("after Reserve(%d) %d bytes are advised for huge pages, want at least %d more than %d", n, after, n/2, before)
	}
}

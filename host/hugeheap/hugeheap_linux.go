//go:build linux

package hugeheap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// Advise asks the kernel to back b with transparent huge pages where its
// mode allows (MADV_HUGEPAGE).
func Advise(b []byte) {
	if len(b) == 0 {
		return
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
}

// Reserve maps n bytes of Go heap in one piece, advises huge pages for
// it, and frees it for the allocations that follow. Nothing is touched:
// a fresh span is known to be zero, so the allocation maps address space
// only. It costs one collection, so call it once, before the growth.
func Reserve(n int) {
	if n <= 0 {
		return
	}
	b := make([]byte, n)
	Advise(b)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
}

// Mode is the system's transparent huge page mode ("always", "madvise" or
// "never"), or "" when the kernel has none.
func Mode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	if i, j := bytes.IndexByte(b, '['), bytes.IndexByte(b, ']'); i >= 0 && j > i {
		return string(b[i+1 : j])
	}
	return ""
}

// AdvisedBytes is the total size of this process's mappings that carry
// huge-page advice (VmFlags "hg" in /proc/self/smaps).
func AdvisedBytes() (uint64, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var sum, size uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		if sp := bytes.IndexByte(line, ' '); sp > 0 && bytes.IndexByte(line[:sp], '-') > 0 {
			var lo, hi uint64
			if n, _ := fmt.Sscanf(string(line[:sp]), "%x-%x", &lo, &hi); n == 2 {
				size = hi - lo
			}
			continue
		}
		if bytes.HasPrefix(line, []byte("VmFlags:")) && bytes.Contains(line, []byte(" hg")) {
			sum += size
		}
	}
	return sum, sc.Err()
}

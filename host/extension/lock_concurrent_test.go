package extension

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// Concurrent adds, links and removes each read the lock file, change one
// entry and write it back: without mutual exclusion a writer that read
// before another's write drops that entry (a pinned extension silently
// unpinned, then refused at run). Every one must survive.
func TestConcurrentLockChangesLoseNoEntry(t *testing.T) {
	home := t.TempDir()
	const n = 12
	srcs := make([]string, n)
	for i := range srcs {
		m := fmt.Sprintf("name: demo%d\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/x.wasm\ncapabilities: []\npaths: [out/]\n", i)
		srcs[i] = mkext(t, filepath.Join(t.TempDir(), fmt.Sprintf("demo%d", i)), m, map[string]string{"dist/x.wasm": "wasm-bytes"})
	}
	if _, err := Add(home, srcs[0], AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var err error
			if i%3 == 0 {
				_, err = Link(home, srcs[i], AddOptions{Trust: trusted})
			} else {
				_, err = Add(home, srcs[i], AddOptions{Trust: trusted})
			}
			errs <- err
		}(i)
	}
	wg.Add(1)
	go func() { defer wg.Done(); errs <- Remove(home, "demo0") }()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	lock, err := ReadLock(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := lock.Extensions["demo0"]; ok {
		t.Error("the removed demo0 is still pinned")
	}
	for i := 1; i < n; i++ {
		if _, ok := lock.Extensions[fmt.Sprintf("demo%d", i)]; !ok {
			t.Errorf("demo%d lost its pin (%d of %d pinned)", i, len(lock.Extensions), n-1)
		}
	}
}

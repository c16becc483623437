package fsroottest

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// InPrivateMounts runs fn on a goroutine of its own, locked to an OS
// thread that has left the process's mount namespace for a private one
// (unshare(CLONE_NEWNS), then / made private, recursively): what fn mounts
// is seen by no other thread, and goes away with the thread, which is
// never unlocked and so dies with the goroutine. fn returns a reason to
// skip the test (a mount the machine does not permit), or "".
//
// InPrivateMounts returns once fn has. It skips tb when the namespace
// cannot be made or fn asked to, and stops tb when fn did not return
// (it called tb.Fatal). Elsewhere than on Linux it skips tb.
func InPrivateMounts(tb testing.TB, fn func() (skip string)) {
	tb.Helper()
	type result struct {
		skip     string
		returned bool
	}
	ch := make(chan result, 1)
	go func() {
		var res result
		defer func() { ch <- res }()
		runtime.LockOSThread() // never unlocked: the thread dies with its namespace
		if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
			res = result{skip: "unshare(CLONE_NEWNS) not permitted: " + err.Error(), returned: true}
			return
		}
		if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
			res = result{skip: "private mounts not permitted: " + err.Error(), returned: true}
			return
		}
		res.skip = fn()
		res.returned = true
	}()
	res := <-ch
	if !res.returned {
		tb.FailNow()
	}
	if res.skip != "" {
		tb.Skip(res.skip)
	}
}

package fsroot

import (
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// mkdirRaceRounds bounds the Mkdir race by a count, not a time: on the
// by-name fchmodat this test guards against, under ten rounds on two
// cores were enough to chmod the outside file.
const mkdirRaceRounds = 1000

// A racer exchanging a directory Mkdir just made with a symlink to a file
// outside the root must never make Mkdir change that file's mode: the mode
// is set through a descriptor opened without following anything.
func TestMkdirRaceCannotChmodOutside(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
	base := t.TempDir()
	rootDir := filepath.Join(base, "root")
	must(t, os.Mkdir(rootDir, 0o755))
	outside := filepath.Join(base, "secret")
	must(t, os.WriteFile(outside, []byte("s"), 0o600))
	must(t, os.Chmod(outside, 0o600))
	link := filepath.Join(rootDir, "l")
	must(t, os.Symlink(outside, link))
	r, err := Open(rootDir)
	must(t, err)
	defer r.Close()

	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			unix.Renameat2(unix.AT_FDCWD, filepath.Join(rootDir, "d"), unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
		}
	}()
	for i := 0; i < mkdirRaceRounds; i++ {
		r.Dir().Mkdir("d", 0o755)
		// Put things back: "d" removed whichever name it ended up under,
		// the symlink back at "l".
		os.Remove(filepath.Join(rootDir, "d"))
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			os.Remove(link)
			os.Symlink(outside, link)
		}
		if fi, err := os.Stat(outside); err == nil && fi.Mode().Perm() != 0o600 {
			stop.Store(true)
			<-done
			t.Fatalf("round %d: Mkdir changed the mode of a file outside the root to %v", i, fi.Mode().Perm())
		}
	}
	stop.Store(true)
	<-done
}

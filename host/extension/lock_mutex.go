package extension

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/filelock"
)

// lockMutexFile serialises the read-modify-write cycles of LockFile (Add,
// Update, Link, Remove, Adopt) across lola processes. Runs only read the
// lock file, which WriteLock replaces by rename, so they never wait on it.
const lockMutexFile = "." + LockFile + ".lock"

// holdLockMutex takes the exclusive lock of home's lock file until the
// returned func is called. It is held for a whole change, fetch and
// verification included, so a change always starts from the lock file the
// previous one wrote; concurrent changes run one after the other.
func holdLockMutex(home string) (func(), error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create $LOLA_HOME")
	}
	return filelock.Acquire(filepath.Join(home, lockMutexFile))
}

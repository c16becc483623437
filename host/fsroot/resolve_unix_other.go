//go:build unix && !linux

package fsroot

// openDirPath walks comps beneath d one component at a time.
func (d *Dir) openDirPath(comps []string) (*Dir, error) { return d.walkDirPath(comps) }

func (d *Dir) checkNotRedirect(name string, comps []string, _ uint64) error {
	return d.walkCheckNotRedirect(name, comps)
}

// SyncFS is unavailable here; callers fsync each file.
func (r *Root) SyncFS() error { return ErrUnsupported }

// HasSyncFS reports whether SyncFS is available: not here.
func (r *Root) HasSyncFS() bool { return false }

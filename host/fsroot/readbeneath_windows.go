package fsroot

import "os"

// OpenFileBeneath opens the existing file name in d for reading, refusing
// a reparse point of any kind (Windows has no bind mounts to refuse
// beyond those).
func (d *Dir) OpenFileBeneath(name string) (*os.File, error) { return d.OpenFile(name) }

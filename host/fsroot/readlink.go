package fsroot

import "errors"

// MaxLinkTarget is the longest symbolic link target Readlink reads
// (Linux's PATH_MAX): a longer one is refused, never truncated.
const MaxLinkTarget = 4096

// ErrLinkTargetTooLong is Readlink's refusal of a target longer than
// MaxLinkTarget bytes.
var ErrLinkTargetTooLong = errors.New("fsroot: symbolic link target too long")

// OpenDirPath opens the existing directory comps (one name per element,
// at least one) beneath d under the resolution rules of every plan path:
// no component may be a symbolic link, a mount point or (on Windows) any
// reparse point, and none may change device.
func (d *Dir) OpenDirPath(comps []string) (*Dir, error) {
	if len(comps) == 0 {
		return nil, errors.New("fsroot: empty directory path")
	}
	return d.openDirPath(comps)
}

package fsroot

import (
	"errors"

	"github.com/lola-pm/lola/host/rejection"
)

// narrowRefusal re-resolves comps beneath d one prefix at a time after
// the whole of comps was refused in one resolution (openat2 reports only
// that some component is a link, a mount or a non-directory), so that the
// refusal names the component at fault: "d is a symbolic link", not
// "d/sub0 is a symbolic link". It runs on the refusal path only. It
// changes the diagnostic, never the verdict: when no shorter prefix is
// refused (the tree changed meanwhile), or err is not a refusal, err is
// returned as it was.
func (d *Dir) narrowRefusal(comps []string, err error) error {
	if len(comps) < 2 || !errors.As(err, new(*rejection.Violation)) {
		return err
	}
	for i := 1; i < len(comps); i++ {
		sub, perr := d.openDirPath(comps[:i])
		if perr != nil {
			if errors.As(perr, new(*rejection.Violation)) {
				return perr
			}
			return err
		}
		sub.Close()
	}
	return err
}

//go:build unix && !linux && !darwin

package fsroot

import "golang.org/x/sys/unix"

func statTimes(st *unix.Stat_t) (atime, mtime unix.Timespec) { return st.Atim, st.Mtim }

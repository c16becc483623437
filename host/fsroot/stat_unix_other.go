//go:build unix && !linux && !darwin

package fsroot

func statAt(dirfd int, name string) (Entry, error) { return statAtPortable(dirfd, name) }

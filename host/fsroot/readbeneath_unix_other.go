//go:build unix && !linux

package fsroot

func openBeneath(d *Dir, name string) (int, error) { return openByWalk(d, name) }

//go:build unix && !linux

package fsroot

// Elsewhere a mount point shows as a device change, which the walk checks.
func sameMount(a, b int) bool { return true }

func sameMountAt(dirfd int, name string) (bool, error) { return true, nil }

// ProcPath: no descriptor-derived path exists here.
func (d *Dir) ProcPath() (string, bool) { return "", false }

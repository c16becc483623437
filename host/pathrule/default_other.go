//go:build !darwin && !windows

package pathrule

// Platform is the relation "auto" means before a probe refines it: on Linux
// and the other Unix systems names are compared by their bytes.
func Platform() Equality { return Bytes }

//go:build !linux

package fsroot

// casefoldFlag: the per-directory casefold attribute is a Linux notion.
func casefoldFlag(*Dir) bool { return false }

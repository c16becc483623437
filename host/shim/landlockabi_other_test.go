//go:build !linux

package shim

func landlockABIPortable() (int, error) { return 0, nil }

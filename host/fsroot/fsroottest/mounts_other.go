//go:build !linux

package fsroottest

import "testing"

// InPrivateMounts skips tb: a private mount namespace of one thread is
// Linux's (see mounts_linux.go).
func InPrivateMounts(tb testing.TB, fn func() (skip string)) {
	tb.Helper()
	tb.Skip("private mount namespaces are a Linux test; this system has no per-thread mount namespace")
}

//go:build darwin

package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// changeTime is p's status change time (see changetime_linux_test.go).
func changeTime(t *testing.T, p string) time.Time {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Sys().(*syscall.Stat_t)
	return time.Unix(int64(s.Ctimespec.Sec), int64(s.Ctimespec.Nsec))
}

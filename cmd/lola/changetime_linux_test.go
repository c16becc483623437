//go:build linux

package main

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// changeTime is p's status change time (ctime), which no tool can set
// back: a directory whose entries were created and removed shows it even
// when its modification time was restored.
func changeTime(t *testing.T, p string) time.Time {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Sys().(*syscall.Stat_t)
	return time.Unix(int64(s.Ctim.Sec), int64(s.Ctim.Nsec))
}

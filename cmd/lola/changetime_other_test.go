//go:build !linux && !darwin

package main

import (
	"os"
	"testing"
	"time"
)

// changeTime on Windows is the modification time: NTFS keeps a change
// time, but os.FileInfo does not expose it.
func changeTime(t *testing.T, p string) time.Time {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.ModTime()
}

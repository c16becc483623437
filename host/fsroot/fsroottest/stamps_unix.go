//go:build unix

package fsroottest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Stamps renders every entry beneath root, root included, one line each,
// sorted: its relative path, inode, mode, size, modification time and
// change time. Two equal renderings mean nothing under root was created,
// removed, replaced, written or had its attributes changed in between.
func Stamps(tb testing.TB, root string) string {
	tb.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, fmt.Sprintf("%s ino=%d mode=%o size=%d mtime=%d.%09d ctime=%d.%09d",
			rel, st.Ino, st.Mode, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

//go:build unix

package fsroottest

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// stamp is p's inode, mode, size, modification time and change time.
func stamp(p string, _ os.FileInfo) (string, error) {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return "", err
	}
	return fmt.Sprintf("ino=%d mode=%o size=%d mtime=%d.%09d ctime=%d.%09d",
		st.Ino, st.Mode, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), nil
}

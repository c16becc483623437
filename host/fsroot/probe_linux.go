package fsroot

import "golang.org/x/sys/unix"

// fsCasefoldFL is FS_CASEFOLD_FL from linux/fs.h (not in x/sys/unix).
const fsCasefoldFL = 0x40000000

// casefoldFlag reports whether the directory carries the casefold attribute.
func casefoldFlag(d *Dir) bool {
	v, err := unix.IoctlGetUint32(d.fd, unix.FS_IOC_GETFLAGS)
	return err == nil && v&fsCasefoldFL != 0
}

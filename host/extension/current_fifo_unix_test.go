//go:build unix

package extension

import "golang.org/x/sys/unix"

func mkfifoImpl(p string) error { return unix.Mkfifo(p, 0o644) }

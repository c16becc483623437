package durable

import "golang.org/x/sys/unix"

// FS flushes the whole filesystem holding fd (syncfs(2)): every file on it
// whose writes were issued before the call, by any process.
func FS(fd int) error {
	calls.Add(1)
	return unix.Syncfs(fd)
}

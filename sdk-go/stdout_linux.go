//go:build linux

package lola

import "syscall"

// dupOnto makes newfd a copy of oldfd (dup3: linux/arm64 has no dup2).
func dupOnto(oldfd, newfd int) error { return syscall.Dup3(oldfd, newfd, 0) }

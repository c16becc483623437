//go:build !unix

package shim

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this platform") }

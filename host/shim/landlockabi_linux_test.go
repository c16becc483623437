//go:build linux

package shim

import llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"

func landlockABI() (int, error) { return llsyscall.LandlockGetABIVersion() }

func landlockABIPortable() (int, error) { return landlockABI() }

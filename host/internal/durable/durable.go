// Package durable is the host's one way to stable storage: every fsync and
// syncfs the host issues (the executor's staging and tree flushes, its
// journal, the audit log, the host's keys and records) goes through it, so
// that one counter sees what an applied plan costs in flushes whichever
// package asked for them.
//
// Guarantees: Calls counts every flush requested through this package by
// the process, successful or not, from the moment it is requested (a
// flush that blocks for seconds is already counted). Device identifies the
// filesystem a file lies on, so that a caller can tell whether a flush of
// one whole filesystem (syncfs) covers a file.
//
// Non-guarantees: flushes made outside the host (a library's own fsync,
// git's during a clone) are not counted; Calls is process-wide, so a test
// that reads it must not run beside another that flushes.
package durable

import (
	"os"
	"sync/atomic"
)

var calls atomic.Uint64

// Calls is how many flushes (fsync, syncfs) the process has requested
// through this package.
func Calls() uint64 { return calls.Load() }

// File flushes f's data and metadata to stable storage (fsync; on
// Windows, FlushFileBuffers).
func File(f *os.File) error {
	calls.Add(1)
	return f.Sync()
}

// Device is the identity of the filesystem a file lies on: its device
// number, where the platform reports one. The zero Device is unknown and
// is the same as nothing.
type Device struct {
	dev   uint64
	known bool
}

// Same reports whether d and o are the same known filesystem. On Linux a
// device number names one mounted filesystem (its superblock), so a
// syncfs of a descriptor on d flushes every file whose device is d; a
// filesystem that reports several device numbers (btrfs subvolumes) only
// makes Same report false where it could have reported true.
func (d Device) Same(o Device) bool { return d.known && o.known && d.dev == o.dev }

// Known reports whether the platform reported a device.
func (d Device) Known() bool { return d.known }

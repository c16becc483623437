// Package errpath takes host paths out of filesystem errors, so that a
// diagnostic built from one never carries a host absolute path (DESIGN.md
// section 6, redacted diagnostics).
//
// Guarantees: Strip keeps the operation and the cause of an
// *fs.PathError or *os.LinkError found in err's chain, and errors.Is and
// errors.As still reach the cause (fs.ErrNotExist, a syscall.Errno).
// Non-guarantees: what else err's message holds is not inspected; a
// caller that wraps a path into its own message keeps it there.
package errpath

import (
	"errors"
	"io/fs"
	"os"
)

// Strip returns err without the path of the first *fs.PathError or
// *os.LinkError in its chain: "OP: CAUSE", unwrapping to the cause. Text
// wrapped around that error is dropped with the path, since it may repeat
// it. Any other error, nil included, is returned as it is.
func Strip(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &opError{op: pe.Op, err: pe.Err}
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return &opError{op: le.Op, err: le.Err}
	}
	return err
}

type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return e.op + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

//go:build !linux && !darwin && !wasip1

package lola

import "os"

// moveStdout does nothing here: only os.Stdout is pointed at stderr.
func moveStdout() *os.File { return nil }

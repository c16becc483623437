//go:build wasip1

package lola

import "os"

// Main does nothing useful in tier 1: a reactor module (-buildmode=c-shared)
// never runs main, the host calls the exports instead. If Main does run, the
// module was built as a WASI command, whose exports trap once _start has
// exited; Main says so on stderr and exits 1.
func Main() {
	os.Stderr.WriteString("lola: this module was built as a WASI command; build it with -buildmode=c-shared (a reactor) so the host can call lola_run\n")
	os.Exit(1)
}

//go:build !wasip1

package lola

import (
	"io"
	"os"
)

// Main is the tier-2 entry point: it reads the request from stdin, runs the
// registered handler, writes the plan to stdout and any error to stderr,
// and exits with the run's Status as the exit code. It does not return.
//
// First, on Linux and macOS, it moves the plan's stdout to a private
// descriptor (a dup of fd 1) and points fd 1, and os.Stdout, at stderr, so
// a stray fmt.Println in a handler (or in C code it calls) lands in the
// diagnostics instead of corrupting the plan, as it does in tier 1. Not
// guaranteed: output written before Main runs (in an init function) still
// reaches the real stdout; on other systems only os.Stdout is redirected.
func Main() {
	plan := privateStdout()
	os.Exit(int(mainIO(os.Stdin, plan, os.Stderr)))
}

// privateStdout returns the plan's writer and leaves fd 1 and os.Stdout
// pointing at stderr. When the descriptors cannot be moved it still points
// os.Stdout at stderr and writes the plan to the original stdout.
func privateStdout() *os.File {
	orig := os.Stdout
	os.Stdout = os.Stderr
	if f := moveStdout(); f != nil {
		return f
	}
	return orig
}

func mainIO(stdin io.Reader, stdout, stderr io.Writer) Status {
	req, err := io.ReadAll(stdin)
	if err != nil {
		io.WriteString(stderr, "lola: reading the request: "+err.Error()+"\n")
		return StatusBadRequest
	}
	plan, status, err := Process(req)
	if status != StatusOK {
		io.WriteString(stderr, err.Error()+"\n")
		return status
	}
	if _, err := stdout.Write(plan); err != nil {
		io.WriteString(stderr, "lola: writing the plan: "+err.Error()+"\n")
		return StatusPlanEncoding
	}
	return StatusOK
}

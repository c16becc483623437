//go:build !wasip1

package lola

import (
	"io"
	"os"
)

// Main is the tier-2 entry point: it reads the request from stdin, runs the
// registered handler, writes the plan to stdout and any error to stderr,
// and exits with the run's Status as the exit code. It does not return.
func Main() {
	os.Exit(int(mainIO(os.Stdin, os.Stdout, os.Stderr)))
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

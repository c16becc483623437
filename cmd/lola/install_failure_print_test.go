package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
)

// A failed target's stderr is shown without -v as its first 5 and last 10
// lines with a count of what is left out, escaped; with -v all of it.
func TestInstallFailureShowsStderrExcerpt(t *testing.T) {
	var log strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&log, "line %02d\n", i)
	}
	log.WriteString("\x1b[31mred\n")
	l := pipeline.Launched{Child: child.Result{Outcome: child.OutcomeExitNonZero, ExitStatus: 1, Diagnostics: []byte(log.String())}}
	rep := install.Report{Target: "gemini-cli", Launched: &l}
	print := func(verbose bool) string {
		var out, errOut bytes.Buffer
		printInstallReport(&out, &errOut, rep, install.Summarize(rep, install.ErrTargetFailed), verbose)
		return errOut.String()
	}
	short := print(false)
	for _, want := range []string{"  | line 01\n", "  | line 05\n", "  | ... 16 lines left out (-v shows them)\n", "  | line 22\n", "  | line 30\n", "  | \\x1b[31mred\n"} {
		if !strings.Contains(short, want) {
			t.Errorf("without -v the stderr lacks %q:\n%s", want, short)
		}
	}
	for _, not := range []string{"line 06", "line 21", "\x1b"} {
		if strings.Contains(short, not) {
			t.Errorf("without -v the stderr shows %q:\n%s", not, short)
		}
	}
	full := print(true)
	for i := 1; i <= 30; i++ {
		if want := fmt.Sprintf("  | line %02d\n", i); !strings.Contains(full, want) {
			t.Errorf("with -v the stderr lacks %q", want)
		}
	}
}

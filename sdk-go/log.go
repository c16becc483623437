package lola

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// Level is a log line's severity.
type Level int

const (
	LevelDebug Level = iota
	LevelInfo
	LevelWarn
	LevelError
)

var levelNames = [...]string{"debug", "info", "warn", "error"}

func (l Level) String() string {
	if l < LevelDebug || l > LevelError {
		return "info"
	}
	return levelNames[l]
}

// Log bounds: a line is cut at MaxLogLine bytes, and after MaxLogBytes in
// one process (one run in either tier) further lines are dropped, with one
// line saying so. The host keeps 64 KiB of a guest's stderr; the SDK's own
// bound is lower so an error reported after a noisy log still fits.
const (
	MaxLogLine  = 4 << 10
	MaxLogBytes = 48 << 10
)

var logState struct {
	sync.Mutex
	w       io.Writer // nil: os.Stderr
	written int
	dropped bool
}

// Log writes one diagnostic line, "lola: LEVEL: msg", to stderr, in both
// tiers: the host shows it with the run's diagnostics (always when the run
// fails, with -v when it succeeds). It never touches the plan: in tier 2
// the plan travels on a private descriptor (see Main), in tier 1 through
// the ABI. Newlines in msg are kept as "\n" escapes, so one call is one
// line; a line longer than MaxLogLine is cut, and past MaxLogBytes lines
// are dropped. Log is safe for concurrent use.
func Log(level Level, msg string) {
	msg = strings.ReplaceAll(strings.ReplaceAll(msg, "\r", `\r`), "\n", `\n`)
	line := "lola: " + level.String() + ": " + msg
	if len(line) > MaxLogLine {
		line = line[:MaxLogLine-len(" [cut]")] + " [cut]"
	}
	line += "\n"
	logState.Lock()
	defer logState.Unlock()
	w := logState.w
	if w == nil {
		w = os.Stderr
	}
	if logState.written+len(line) > MaxLogBytes {
		if !logState.dropped {
			logState.dropped = true
			io.WriteString(w, "lola: warn: log limit reached; further log lines are dropped\n")
		}
		return
	}
	logState.written += len(line)
	io.WriteString(w, line)
}

// Debugf, Infof, Warnf and Errorf are Log with fmt.Sprintf formatting.
func Debugf(format string, a ...any) { Log(LevelDebug, sprintf(format, a...)) }
func Infof(format string, a ...any)  { Log(LevelInfo, sprintf(format, a...)) }
func Warnf(format string, a ...any)  { Log(LevelWarn, sprintf(format, a...)) }
func Errorf(format string, a ...any) { Log(LevelError, sprintf(format, a...)) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

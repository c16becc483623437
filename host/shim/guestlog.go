package shim

import (
	"bytes"
	"io"
	"sync"
)

// guestLog is the guest's WASI stdout and stderr. Every line it forwards is
// prefixed with GuestPrefix, so nothing a guest writes can pass for a shim
// diagnostic, and it forwards at most GuestLogCap bytes, then one marker,
// so the host's stderr cap never truncates the shim's own outcome line.
type guestLog struct {
	mu        sync.Mutex
	w         io.Writer
	left      int
	midLine   bool
	truncated bool
	closed    bool // the outcome line is written: nothing follows it
}

func newGuestLog(w io.Writer) *guestLog { return &guestLog{w: w, left: GuestLogCap} }

func (g *guestLog) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := len(p)
	if g.truncated || g.closed {
		return n, nil
	}
	var out bytes.Buffer
	for len(p) > 0 && g.left > 0 {
		if !g.midLine {
			out.WriteString(GuestPrefix)
			g.midLine = true
		}
		line := p
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			line = p[:i+1]
		}
		if len(line) > g.left {
			line = line[:g.left]
		}
		out.Write(line)
		g.left -= len(line)
		p = p[len(line):]
		if line[len(line)-1] == '\n' {
			g.midLine = false
		}
	}
	if len(p) > 0 {
		if g.midLine {
			out.WriteByte('\n')
			g.midLine = false
		}
		out.WriteString(GuestPrefix + "[guest output truncated by the shim]\n")
		g.truncated = true
	}
	g.w.Write(out.Bytes()) // a failing stderr must not fail the guest
	return n, nil
}

// finish ends a partial last line so the shim's next line starts clean.
func (g *guestLog) finish() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.endLine()
}

func (g *guestLog) endLine() {
	if g.midLine {
		g.w.Write([]byte{'\n'})
		g.midLine = false
	}
}

// shimLine writes one of the shim's own lines, after ending a partial
// guest line so it starts clean. It reports false, writing nothing, once
// the outcome is written.
func (g *guestLog) shimLine(line []byte) bool { return g.write(line, false) }

// outcome writes the outcome line, exactly once: the first caller (the
// end of Main, or the watchdog) wins and every later line, the guest's
// included, is dropped. It reports whether this call wrote it.
func (g *guestLog) outcome(d Diagnostic) bool { return g.write(formatOutcome(d), true) }

func (g *guestLog) write(line []byte, last bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.endLine()
	g.w.Write(line)
	g.closed = last
	return true
}

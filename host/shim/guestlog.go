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
}

func newGuestLog(w io.Writer) *guestLog { return &guestLog{w: w, left: GuestLogCap} }

func (g *guestLog) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := len(p)
	if g.truncated {
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
	if g.midLine {
		g.w.Write([]byte{'\n'})
		g.midLine = false
	}
}

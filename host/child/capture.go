package child

import (
	"io"
	"strconv"
	"sync"
)

// TruncationMarker opens the line appended to captured output that went past
// its cap. What follows it on that line says how many bytes were discarded.
const TruncationMarker = "[lola: output truncated]"

// readChunk is the size of every pipe read: the whole per-stream buffer the
// host holds beyond the kept bytes.
const readChunk = 32 << 10

// capture keeps the first limit bytes written to it and counts the rest.
// It is the bound on attacker-controlled diagnostics: memory is limit plus
// one read buffer, whatever the child writes.
type capture struct {
	mu      sync.Mutex
	limit   int
	kept    []byte
	dropped int64
}

func newCapture(limit int) *capture {
	return &capture{limit: limit, kept: make([]byte, 0, min(limit, 4096))}
}

// Write keeps what fits under the cap and counts the rest. It never fails,
// so a drain loop over it never stops reading.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - len(c.kept)
	if room > 0 {
		take := min(room, len(p))
		c.kept = append(c.kept, p[:take]...)
		c.dropped += int64(len(p) - take)
	} else {
		c.dropped += int64(len(p))
	}
	return len(p), nil
}

// drain reads r until EOF or an error (the host closing its end) into c.
// It keeps reading past the cap, because a reader that stops reading is what
// makes a child block on a full pipe.
func (c *capture) drain(r io.Reader) {
	buf := make([]byte, readChunk)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// snapshot returns a copy of the kept bytes, with the truncation line
// appended when anything was discarded, and whether it was.
func (c *capture) snapshot() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.kept...)
	if c.dropped == 0 {
		return out, false
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, TruncationMarker...)
	out = append(out, ' ')
	out = strconv.AppendInt(out, c.dropped, 10)
	out = append(out, " further bytes discarded\n"...)
	return out, true
}

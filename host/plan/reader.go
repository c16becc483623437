package plan

import (
	"errors"
	"io"
	"strconv"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// chunkSize is how much the decoder asks of the underlying reader at once.
// It bounds how far past a violation the decoder can have read: never more
// than one chunk, and never past the byte bound plus one.
const chunkSize = 32 << 10

// maxEmptyReads is how many consecutive (0, nil) reads the source tolerates
// before giving up with io.ErrNoProgress, as bufio does: such a reader would
// otherwise spin the decoder forever.
const maxEmptyReads = 100

// source is a byte-capped buffered reader over untrusted input. It never asks
// the underlying reader for more than max+1 bytes in total, and it hands the
// parser at most max of them: the parser asking for byte max+1 is the
// plan.too-large violation, raised at the same stream offset however the
// input was chunked.
type source struct {
	r        io.Reader
	max      int64
	buf      []byte
	pos, end int   // unread bytes are buf[pos:end]
	base     int64 // stream offset of buf[0]
	read     int64 // bytes obtained from r
	overflow bool  // r produced byte max+1
	err      error // sticky: io.EOF or the reader's error
}

func newSource(r io.Reader, max int64) *source {
	n := int64(chunkSize)
	if max+1 < n {
		n = max + 1
	}
	return &source{r: r, max: max, buf: make([]byte, n)}
}

// offset is the stream offset of the next unread byte.
func (s *source) offset() int64 { return s.base + int64(s.pos) }

// fill refills an exhausted buffer. It returns nil when at least one byte is
// available, the too-large violation when the next byte would be byte
// max+1, io.EOF at the end of input, or the underlying reader's error.
func (s *source) fill() error {
	if s.pos < s.end {
		return nil
	}
	if s.overflow {
		return s.tooLarge()
	}
	if s.err != nil {
		return s.err
	}
	s.base += int64(s.end)
	s.pos, s.end = 0, 0
	want := s.max + 1 - s.read
	if want > int64(len(s.buf)) {
		want = int64(len(s.buf))
	}
	for empty := 0; s.end == 0; empty++ {
		if empty == maxEmptyReads {
			s.err = io.ErrNoProgress
			break
		}
		k, err := s.r.Read(s.buf[:want])
		if k < 0 || int64(k) > want {
			s.err = errors.New("plan: reader returned an impossible count")
			break
		}
		s.read += int64(k)
		s.end = k
		if s.read > s.max {
			s.end -= int(s.read - s.max)
			s.overflow = true
		}
		if err != nil {
			s.err = err
			break
		}
		if s.overflow {
			break
		}
	}
	if s.pos < s.end {
		return nil
	}
	if s.overflow {
		return s.tooLarge()
	}
	return s.err
}

func (s *source) tooLarge() error {
	return rejection.New(schema.RulePlanTooLarge, "plan exceeds "+strconv.FormatInt(s.max, 10)+" bytes")
}

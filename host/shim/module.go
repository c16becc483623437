package shim

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// readModule is step 1: open the artifact, refuse it when the open file's
// size exceeds max, then read through a reader capped at max+1 and refuse it
// when the extra byte arrives. The stat alone would miss a file that grows
// between the check and the read (or a FIFO, whose size is 0); the cap alone
// would still allocate for a pathological size. Nothing refused here ever
// reaches wazero.
func readModule(path string, max int64) ([]byte, *Diagnostic) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Diagnostic{Kind: KindModuleUnreadable, Detail: errText(err)}
	}
	defer f.Close()
	return readOpen(f, max)
}

// openFile is what readOpen needs of an open artifact (an *os.File; a test
// substitutes one that counts what is read).
type openFile interface {
	io.Reader
	Stat() (os.FileInfo, error)
}

// readOpen is the size check and the capped read of an open artifact. The
// two are independent: the buffer is sized from min(stat, limit), so with the
// size check gone a huge file would still be refused, but only after limit+1
// bytes were read; the size check refuses it without reading a byte.
func readOpen(f openFile, limit int64) ([]byte, *Diagnostic) {
	st, err := f.Stat()
	if err != nil {
		return nil, &Diagnostic{Kind: KindModuleUnreadable, Detail: errText(err)}
	}
	if st.Size() > limit {
		return nil, &Diagnostic{Kind: KindModuleTooLarge, Limit: limit,
			Detail: fmt.Sprintf("the artifact is %d bytes, over the %d-byte maximum", st.Size(), limit)}
	}
	// Allocate for what stat promised, never for more than limit.
	b := make([]byte, 0, min(max(st.Size(), 0), limit)+1+TableHeadroom)
	b, err = readAllInto(b, io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &Diagnostic{Kind: KindModuleUnreadable, Detail: errText(err)}
	}
	if int64(len(b)) > limit {
		return nil, &Diagnostic{Kind: KindModuleTooLarge, Limit: limit,
			Detail: fmt.Sprintf("the artifact grew past the %d-byte maximum while being read", limit)}
	}
	return b, nil
}

func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// errText renders an error without the path it may carry: a *PathError's
// operation and cause, never the host path.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

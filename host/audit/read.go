package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/lola-pm/lola/host/internal/errpath"
)

// Filter selects records. The zero Filter selects every record.
type Filter struct {
	Correlation Correlation // when set, only records under this id
	Kinds       []Kind      // when set, only records of these kinds
}

func (f Filter) match(e *Entry) bool {
	if !f.Correlation.IsZero() && e.Correlation != f.Correlation {
		return false
	}
	if len(f.Kinds) > 0 && !member(e.Kind, f.Kinds) {
		return false
	}
	return true
}

// Scan calls fn with every record of the log at path that f selects, in
// file order, stopping at fn's first error. It does not check the chain
// (Verify does); a line that is not a record, or a torn last line, stops
// the scan with an error after the records before it were delivered. The
// file is read under a shared lock, so fn must not append to the same log
// (that would wait for the lock forever).
func Scan(path string, f Filter, fn func(Entry) error) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("audit: open log: %w", errpath.Strip(err))
	}
	defer file.Close()
	// A shared lock: appenders wait, so the last line is never seen half
	// written. fn runs under it; it must not append to this log.
	if err := lockFileShared(file); err != nil {
		return fmt.Errorf("audit: lock log: %w", errpath.Strip(err))
	}
	defer unlockFile(file)
	br := bufio.NewReaderSize(file, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, complete, err := readLine(br)
		if err != nil {
			return fmt.Errorf("audit: line %d: %w", lineNo, err)
		}
		if line == nil {
			return nil
		}
		if !complete {
			return fmt.Errorf("audit: line %d: %w", lineNo, ErrTornTail)
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("audit: line %d is not a record", lineNo)
		}
		if f.match(&e) {
			if err := fn(e); err != nil {
				return err
			}
		}
	}
}

// Read returns the records of the log at path that f selects (see Scan).
// On error it returns the records read before it.
func Read(path string, f Filter) ([]Entry, error) {
	var out []Entry
	err := Scan(path, f, func(e Entry) error { out = append(out, e); return nil })
	return out, err
}

package apply

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	"github.com/lola-pm/lola/host/fsroot"
)

// Journal phases, in the order they are written. Each record is one JSON
// line, flushed (fsync) before the phase it announces begins.
const (
	phaseBegin   = "begin"   // staging exists; the tree is untouched
	phaseProgram = "program" // every change about to be made, with its evidence
	phaseCommit  = "commit"  // every change made and flushed: the commit point
)

const journalName = "journal"

type record struct {
	Phase   string   `json:"phase"`
	Tag     string   `json:"tag,omitempty"`
	Actions []action `json:"actions,omitempty"`
}

type journal struct{ f *os.File }

func createJournal(staging *fsroot.Dir) (*journal, error) {
	f, err := staging.CreateFile(journalName, 0o600)
	if err != nil {
		return nil, err
	}
	return &journal{f: f}, nil
}

// append writes rec and flushes it to stable storage.
func (j *journal) append(rec record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

func (j *journal) close() error { return j.f.Close() }

// readJournal returns the records of a journal; a torn last line (a crash
// mid-write) is ignored, since the phase it announced never began.
func readJournal(staging *fsroot.Dir) ([]record, error) {
	f, err := staging.OpenFile(journalName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			break
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

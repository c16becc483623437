package apply

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/internal/durable"
)

// Journal phases, in the order they are written. Each record is one line:
// the hex HMAC-SHA256 of the record under the host key, a space, and the
// record's JSON. The MAC chains (each covers the previous MAC) and is
// bound to the identity of the root and of the staging directory
// (device, inode, birth time) and the staging name, so a journal is
// accepted only in the staging directory this host created for it: a
// journal shipped in a repository, copied from another root, spliced or
// truncated in the middle does not verify and is never executed.
//
// The commit record is the commit point: every change was made before it
// was written. Where the apply flushes with syncfs, the record and the
// changes are made durable by one flush, so after a power loss the record
// may be on disk while a change is not; recovery therefore completes a
// committed journal by redoing, from the program, each change whose
// effect is missing (Recover).
const (
	phaseBegin   = "begin"   // staging exists; the tree is untouched
	phaseTag     = "tag"     // the apply's tag, when staging was made before it was known (Probe)
	phaseProgram = "program" // every change about to be made, with its evidence
	phaseCommit  = "commit"  // every change made: the commit point
)

const journalName = "journal"

type record struct {
	Phase   string   `json:"phase"`
	Tag     string   `json:"tag,omitempty"`
	Actions []action `json:"actions,omitempty"`
}

// ErrJournalUnverified is the reason an untrusted staging directory is
// left alone: its journal is missing, torn before its first record, or
// does not verify under the host key for this root and directory.
var ErrJournalUnverified = errors.New("apply: the staging journal does not verify under this host's key")

type journal struct {
	f    *os.File
	mac  []byte // the last record's MAC
	base []byte // the binding (key context) every MAC starts from
	key  []byte
}

// journalBinding names what a journal is valid for: this root and this
// staging directory, by identity and name.
func journalBinding(root, staging fsroot.Entry, name string) []byte {
	var b bytes.Buffer
	b.WriteString("lola apply journal v1\x00")
	for _, e := range []fsroot.Entry{root, staging} {
		binary.Write(&b, binary.BigEndian, [3]uint64{e.Dev, e.Ino, uint64(e.Btime)})
	}
	b.WriteString(name)
	return b.Bytes()
}

func (j *journal) sum(line []byte) []byte {
	m := hmac.New(sha256.New, j.key)
	m.Write(j.base)
	m.Write(j.mac)
	m.Write(line)
	return m.Sum(nil)
}

func createJournal(staging *fsroot.Dir, key, binding []byte) (*journal, error) {
	f, err := staging.CreateFile(journalName, 0o600)
	if err != nil {
		return nil, err
	}
	return &journal{f: f, key: key, base: binding}, nil
}

// write appends rec without flushing it: the apply flushes the journal
// with everything else it stages (one syncfs), or with sync.
func (j *journal) write(rec record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	mac := j.sum(b)
	line := make([]byte, 0, 2*len(mac)+len(b)+2)
	line = hex.AppendEncode(line, mac)
	line = append(line, ' ')
	line = append(append(line, b...), '\n')
	if _, err := j.f.Write(line); err != nil {
		return err
	}
	j.mac = mac
	return nil
}

// sync flushes the journal to stable storage (fsync), where the apply
// does not flush the whole filesystem instead.
func (j *journal) sync() error { return durable.File(j.f) }

func (j *journal) close() error { return j.f.Close() }

// readJournal returns the records of a journal that verify, in order. A
// torn last line (a crash mid-write) ends the journal, since the phase it
// announced never began. A line that is whole but does not verify, or a
// journal whose first record does not, is ErrJournalUnverified.
func readJournal(staging *fsroot.Dir, key, binding []byte) ([]record, error) {
	f, err := staging.OpenFile(journalName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (no journal)", ErrJournalUnverified)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (not a regular file)", ErrJournalUnverified)
	}
	j := &journal{key: key, base: binding}
	var out []record
	// The first record (begin) is short: one that is not, or does not
	// verify, ends the read before anything large is buffered, so a
	// planted journal costs at most this much to refuse.
	br := bufio.NewReaderSize(f, 4096)
	first, err := br.ReadSlice('\n')
	if err != nil {
		return nil, fmt.Errorf("%w (no whole first record)", ErrJournalUnverified)
	}
	sc := bufio.NewScanner(io.MultiReader(bytes.NewReader(append([]byte(nil), first...)), br))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var torn bool
	for sc.Scan() {
		line := sc.Bytes()
		macHex, body, ok := bytes.Cut(line, []byte{' '})
		mac, herr := hex.DecodeString(string(macHex))
		if !ok || herr != nil || !hmac.Equal(mac, j.sum(body)) {
			torn = true
			break
		}
		var r record
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, fmt.Errorf("%w (a verified record does not decode: %v)", ErrJournalUnverified, err)
		}
		j.mac = mac
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 || out[0].Phase != phaseBegin {
		return nil, ErrJournalUnverified
	}
	if torn {
		// Only a final line may be torn: a bad line followed by more is
		// tampering, not a crash.
		if sc.Scan() {
			return nil, fmt.Errorf("%w (a record in the middle does not verify)", ErrJournalUnverified)
		}
	}
	return out, nil
}

package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/internal/errpath"
)

// GenesisHash is the "prev" of the first record: the sha256 of the string
// "lola.audit.v1", fixed so that a log cannot start mid-chain unnoticed.
var GenesisHash = func() string {
	s := sha256.Sum256([]byte("lola.audit.v1"))
	return hex.EncodeToString(s[:])
}()

// MaxRecordBytes bounds one record line, on write and on read, so that a
// log this package wrote can always be read back within memory bounds.
const MaxRecordBytes = 256 << 20

// ErrTornTail is what Scan reports for a log whose last line has no
// newline: an append that never completed (or an edit). Verify reports it as
// ProblemTorn; the next append repairs it with a KindRepair record.
var ErrTornTail = errors.New("audit: the log's last record is torn (no final newline)")

// Log appends records to one audit file. Its methods are safe for
// concurrent use, and appenders in other processes holding the same file
// serialise with it through the file lock.
type Log struct {
	mu   sync.Mutex
	f    *os.File
	path string // of the log; the anchor and its key live beside it
	key  []byte // the anchor's MAC key
	now  func() time.Time
	head cachedHead // the tail as this Log last wrote it
	// syncs counts the fsyncs this Log issued (Syncs).
	syncs atomic.Uint64
	// dev is the filesystem the log lies on (BeginFlushedBy).
	dev durable.Device
	// shared, when set (Correlate), is the correlation id every record
	// that would otherwise draw a fresh one is written under.
	shared Correlation
}

// cachedHead saves re-reading the tail when nobody appended since our last
// record: the file's size is checked under the lock each time.
type cachedHead struct {
	valid bool
	size  int64
	seq   uint64
	hash  string
}

// Open opens (creating if needed) the audit log at path for appending. The
// directory is created 0700 and the file 0600.
func Open(path string) (*Log, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: create log directory: %w", errpath.Strip(err))
	}
	// Create exclusively first, so that only the Open that made the file
	// pays for making its directory entry durable.
	created := true
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		created = false
		f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("audit: open log: %w", errpath.Strip(err))
	}
	if err := tightenMode(f); err != nil {
		f.Close()
		return nil, err
	}
	key, err := loadOrCreateKey(path)
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &Log{f: f, path: path, key: key, now: time.Now, dev: durable.DeviceOf(f)}
	if created {
		syncDir(filepath.Dir(path))
		l.syncs.Add(1)
	}
	return l, nil
}

// Syncs is how many fsyncs this Log has issued since Open, counting Open's
// directory sync when Open created the file: the durability cost of the
// records written through it. Tests and benchmarks use it to hold the log
// to O(1) syncs per plan.
func (l *Log) Syncs() uint64 { return l.syncs.Load() }

// Close releases the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Correlate makes every later record of l that would draw a fresh
// correlation id (Begin, Rejected without its own, Run without one) use c
// instead, so that the records of one user action — an install's hook runs
// and its plan — read as one correlation. The zero c restores fresh ids.
// Correlate affects this Log value only, not other handles on the file.
func (l *Log) Correlate(c Correlation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.shared = c
}

// correlation returns the shared id (Correlate) or a fresh one.
func (l *Log) correlation() (Correlation, error) {
	l.mu.Lock()
	c := l.shared
	l.mu.Unlock()
	if !c.IsZero() {
		return c, nil
	}
	return NewCorrelation()
}

// Begin writes the pre-apply record of a plan under a fresh correlation id
// (or the one set by Correlate) and returns that id. The caller must not
// apply the plan unless Begin returned nil.
func (l *Log) Begin(r PlanRecord) (Correlation, error) {
	return l.BeginFlushedBy(r, durable.Device{})
}

// BeginFlushedBy is Begin for a caller that flushes the whole filesystem
// flushedBy (syncfs) after it returns and before it acts on the plan
// (host/apply's Session.FlushDevice). When the log lies on that
// filesystem the record is written without its own fsync: the caller's
// flush makes it durable before the first change, with everything else
// the caller flushes. Such a record is not anchored (audit.head is not
// rewritten for it), so that the head never names a record that may not
// be durable; the next record appended with its fsync (the plan's
// outcome, a remote hop) makes both durable and anchors them. On another
// filesystem, or with the zero Device, it is Begin: fsynced and anchored.
func (l *Log) BeginFlushedBy(r PlanRecord, flushedBy durable.Device) (Correlation, error) {
	pe, err := r.entry()
	if err != nil {
		return Correlation{}, err
	}
	c, err := l.correlation()
	if err != nil {
		return Correlation{}, err
	}
	if err := l.appendSync(Entry{Kind: KindPlan, Correlation: c, Plan: pe}, !flushedBy.Same(l.dev)); err != nil {
		return Correlation{}, err
	}
	return c, nil
}

// Event appends ev under the plan c.
func (l *Log) Event(c Correlation, ev Event) error {
	if c.IsZero() {
		return errors.New("audit: event without a correlation id")
	}
	ee, err := ev.entry()
	if err != nil {
		return err
	}
	return l.append(Entry{Kind: KindEvent, Correlation: c, Event: ee})
}

// Outcome appends the distinct outcome record of the plan c.
func (l *Log) Outcome(c Correlation, o Outcome) error {
	if c.IsZero() {
		return errors.New("audit: outcome without a correlation id")
	}
	oe, err := o.entry()
	if err != nil {
		return err
	}
	return l.append(Entry{Kind: KindOutcome, Correlation: c, Outcome: oe})
}

// Rejected appends the record of a refused plan and returns its correlation
// id (r.Correlation when set, otherwise the one set by Correlate, otherwise
// a fresh one).
func (l *Log) Rejected(r Rejection) (Correlation, error) {
	re, err := r.entry()
	if err != nil {
		return Correlation{}, err
	}
	c := r.Correlation
	if c.IsZero() {
		if c, err = l.correlation(); err != nil {
			return Correlation{}, err
		}
	}
	if err := l.append(Entry{Kind: KindRejected, Correlation: c, Rejected: re}); err != nil {
		return Correlation{}, err
	}
	return c, nil
}

// append chains e to the tail and writes it as one line, under the process
// mutex and the cross-process file lock, then fsyncs.
func (l *Log) append(e Entry) error { return l.appendSync(e, true) }

// appendSync is append, with the fsync (and the anchor) only when sync is
// set (BeginFlushedBy).
func (l *Log) appendSync(e Entry, sync bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("audit: log is closed")
	}
	if err := lockFile(l.f); err != nil {
		return fmt.Errorf("audit: lock log: %w", errpath.Strip(err))
	}
	defer unlockFile(l.f)

	fi, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("audit: stat log: %w", errpath.Strip(err))
	}
	size := fi.Size()
	var seq uint64
	var prev string
	if l.head.valid && l.head.size == size {
		seq, prev = l.head.seq, l.head.hash
	} else {
		l.head.valid = false
		var torn *tornTail
		seq, prev, err = readTail(l.f, size)
		if errors.As(err, &torn) {
			if size, seq, prev, err = l.repair(torn); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
	_, err = l.writeLocked(&e, size, seq, prev, sync)
	return err
}

// writeLocked writes e as record seq+1 chained to prev at the end of a
// file of the given size, fsyncs and anchors it when sync is set, and
// caches the new head. The lock is held.
func (l *Log) writeLocked(e *Entry, size int64, seq uint64, prev string, sync bool) (int64, error) {
	e.Seq, e.Prev, e.Time = seq+1, prev, l.now().UTC()
	line, err := json.Marshal(e)
	if err != nil {
		return 0, fmt.Errorf("audit: encode record: %w", err)
	}
	if len(line)+1 > MaxRecordBytes {
		return 0, fmt.Errorf("audit: record of %d bytes exceeds the %d-byte bound", len(line), MaxRecordBytes)
	}
	// One write of the whole line: with O_APPEND and the lock held, no other
	// appender can interleave with it.
	buf := append(line, '\n')
	if _, err := l.f.Write(buf); err != nil {
		// Do not leave a torn line behind (the next append would repair it,
		// but there is no reason to make it).
		_ = l.f.Truncate(size)
		return 0, fmt.Errorf("audit: write record: %w", errpath.Strip(err))
	}
	sum := sha256.Sum256(line)
	hash := hex.EncodeToString(sum[:])
	newSize := size + int64(len(buf))
	if !sync {
		// Made durable by the caller's flush; anchored by the next
		// record that is fsynced. The first record of a log has no head
		// before it: the head names the empty log (genesis), so that
		// Verify reports this record as unanchored, not the anchor as
		// missing.
		l.head = cachedHead{valid: true, size: newSize, seq: e.Seq, hash: hash}
		if e.Seq == 1 {
			if _, err := readHead(l.path); errors.Is(err, fs.ErrNotExist) {
				if err := writeHead(l.path, l.key, 0, GenesisHash); err != nil {
					return 0, err
				}
			}
		}
		return newSize, nil
	}
	l.syncs.Add(1)
	if err := durable.File(l.f); err != nil {
		return 0, fmt.Errorf("audit: fsync record: %w", errpath.Strip(err))
	}
	l.head = cachedHead{valid: true, size: newSize, seq: e.Seq, hash: hash}
	// Anchor the new head. A record that is durable but not anchored is
	// still reported as a failure: the caller must not act on a log whose
	// tail an unnoticed truncation could remove.
	if err := writeHead(l.path, l.key, e.Seq, hash); err != nil {
		return 0, err
	}
	return newSize, nil
}

// repair handles a torn tail: the bytes after the last newline are a record
// whose append never returned (a process killed mid-write, a power loss
// before fsync), so nobody acted on it. They are cut off and a "repair"
// record takes their place, carrying their length and sha256, so the cut is
// itself on the chain and `lola audit show` reports it. The lock is held.
// It returns the new size and head.
func (l *Log) repair(t *tornTail) (int64, uint64, string, error) {
	frag := io.NewSectionReader(l.f, t.start, t.size-t.start)
	h := sha256.New()
	if _, err := io.Copy(h, frag); err != nil {
		return 0, 0, "", fmt.Errorf("audit: read torn tail: %w", errpath.Strip(err))
	}
	if err := l.f.Truncate(t.start); err != nil {
		return 0, 0, "", fmt.Errorf("audit: cut torn tail: %w", errpath.Strip(err))
	}
	seq, prev, err := readTail(l.f, t.start)
	if err != nil {
		return 0, 0, "", err
	}
	c, err := NewCorrelation()
	if err != nil {
		return 0, 0, "", err
	}
	rep := Entry{Kind: KindRepair, Correlation: c, Repair: &RepairEntry{
		DiscardedBytes: t.size - t.start,
		SHA256:         hex.EncodeToString(h.Sum(nil)),
	}}
	size, err := l.writeLocked(&rep, t.start, seq, prev, true)
	if err != nil {
		return 0, 0, "", err
	}
	return size, rep.Seq, l.head.hash, nil
}

// tornTail is readTail's report of bytes after the last newline.
type tornTail struct{ start, size int64 }

func (t *tornTail) Error() string { return ErrTornTail.Error() }
func (t *tornTail) Unwrap() error { return ErrTornTail }

// readTail returns the last record's sequence number and the hash of its
// line, reading backwards from size; (0, GenesisHash) for an empty file, and
// a *tornTail when the file does not end in a newline.
func readTail(f *os.File, size int64) (uint64, string, error) {
	if size == 0 {
		return 0, GenesisHash, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return 0, "", fmt.Errorf("audit: read log tail: %w", errpath.Strip(err))
	}
	end := size
	if last[0] == '\n' {
		end = size - 1
	}
	// Find the start of the last line: scan back from before its newline.
	start := int64(0)
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for pos := end; pos > 0; {
		n := int64(chunk)
		if pos < n {
			n = pos
		}
		if _, err := f.ReadAt(buf[:n], pos-n); err != nil && err != io.EOF {
			return 0, "", fmt.Errorf("audit: read log tail: %w", errpath.Strip(err))
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			start = pos - n + int64(i) + 1
			break
		}
		pos -= n
		if end-pos > MaxRecordBytes && last[0] == '\n' {
			return 0, "", errors.New("audit: the log's last record exceeds the record bound")
		}
	}
	if last[0] != '\n' {
		return 0, "", &tornTail{start: start, size: size}
	}
	if end-start > MaxRecordBytes {
		return 0, "", errors.New("audit: the log's last record exceeds the record bound")
	}
	line := make([]byte, end-start)
	if _, err := f.ReadAt(line, start); err != nil {
		return 0, "", fmt.Errorf("audit: read log tail: %w", errpath.Strip(err))
	}
	var head struct {
		Seq *uint64 `json:"seq"`
	}
	if err := json.Unmarshal(line, &head); err != nil || head.Seq == nil || *head.Seq == 0 {
		return 0, "", errors.New("audit: the log's last line is not a record; refusing to append (run `lola audit verify`)")
	}
	sum := sha256.Sum256(line)
	return *head.Seq, hex.EncodeToString(sum[:]), nil
}

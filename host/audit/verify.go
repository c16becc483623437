package audit

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/lola-pm/lola/host/internal/errpath"
)

// Problem is why a chain check failed. Closed.
type Problem string

// Problems Verify reports.
const (
	ProblemTorn      Problem = "torn"        // the last line has no newline: cut short
	ProblemNotRecord Problem = "not-record"  // a line that is not a record
	ProblemSequence  Problem = "sequence"    // a sequence number out of place: dropped, inserted or reordered
	ProblemPrevHash  Problem = "prev-hash"   // a record's bytes differ from what its successor committed to
	ProblemTooLong   Problem = "record-size" // a line over MaxRecordBytes
	ProblemGenesis   Problem = "genesis"     // the first record does not chain from GenesisHash

	// Anchor problems: the chain is intact but does not end where the
	// anchor (audit.head) says it does.
	ProblemTruncated      Problem = "truncated"       // the anchor names a record the log no longer holds
	ProblemAnchorMismatch Problem = "anchor-mismatch" // the record at the anchor's seq is not the one it names: edited and re-chained
	ProblemAnchorMissing  Problem = "anchor-missing"  // a non-empty log without an anchor
	ProblemAnchorForged   Problem = "anchor-forged"   // the anchor is malformed or its MAC does not verify under the key
	ProblemAnchorKey      Problem = "anchor-key"      // the key is missing or unreadable: the anchor cannot be checked
)

// Problems lists every problem.
func Problems() []Problem {
	return []Problem{ProblemTorn, ProblemNotRecord, ProblemSequence, ProblemPrevHash, ProblemTooLong, ProblemGenesis,
		ProblemTruncated, ProblemAnchorMismatch, ProblemAnchorMissing, ProblemAnchorForged, ProblemAnchorKey}
}

// String returns the problem's spelling.
func (p Problem) String() string { return string(p) }

// MarshalText refuses a value outside the vocabulary.
func (p Problem) MarshalText() ([]byte, error) { return marshal("chain problem", p, Problems()) }

// UnmarshalText refuses a spelling outside the vocabulary.
func (p *Problem) UnmarshalText(b []byte) (err error) {
	*p, err = parse("chain problem", string(b), Problems())
	return
}

// ChainError says where and why a log's chain is broken. Seq is the first
// sequence number that can no longer be trusted: the record that was
// edited (ProblemPrevHash), the number expected where another was found
// (ProblemSequence), or the number the broken line would have had. For the
// anchor problems Seq is the anchor's seq (ProblemTruncated,
// ProblemAnchorMismatch) or the log's last seq (the others), and Line is 0.
type ChainError struct {
	Seq     uint64
	Line    int // 1-based line of the file where the break was seen
	Problem Problem
	// Found is, for ProblemSequence, the sequence number found instead; for
	// ProblemTruncated, the last sequence number the log still holds.
	Found uint64
}

func (e *ChainError) Error() string {
	line := strconv.Itoa(e.Line)
	switch e.Problem {
	case ProblemTorn:
		return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + "): the last record is truncated"
	case ProblemNotRecord:
		return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + "): the line is not a record"
	case ProblemSequence:
		return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + "): expected seq " + u64(e.Seq) +
			", found seq " + u64(e.Found) + ": a record was dropped, inserted or reordered"
	case ProblemPrevHash:
		return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + "): record " + u64(e.Seq) +
			" does not match the hash record " + u64(e.Seq+1) + " carries: it was edited, or a record was inserted"
	case ProblemGenesis:
		return "audit log chain broken at seq 1 (line 1): the first record does not chain from the genesis value: the log does not start where it began"
	case ProblemTruncated:
		return "audit log truncated: the anchor names seq " + u64(e.Seq) + " but the log ends at seq " + u64(e.Found) +
			": records " + u64(e.Found+1) + " to " + u64(e.Seq) + " were removed"
	case ProblemAnchorMismatch:
		return "audit log chain broken at seq " + u64(e.Seq) + ": record " + u64(e.Seq) +
			" is not the record the anchor names: the log was edited and re-chained, or replaced"
	case ProblemAnchorMissing:
		return "audit log not anchored at seq " + u64(e.Seq) + ": the anchor file (" + HeadFileName +
			") is missing: it was removed, or the log predates anchoring (the next append anchors it)"
	case ProblemAnchorForged:
		return "audit log anchor does not verify at seq " + u64(e.Seq) + ": " + HeadFileName +
			" is malformed or was not written with this home's key (" + KeyFileName + "): forged, or the key was replaced"
	case ProblemAnchorKey:
		return "audit log anchor cannot be checked at seq " + u64(e.Seq) + ": the key (" + KeyFileName + ") is missing or unreadable"
	case ProblemTooLong:
		return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + "): the line exceeds the record bound"
	}
	return "audit log chain broken at seq " + u64(e.Seq) + " (line " + line + ")"
}

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

// Head is the state of an intact log: how many records it holds and the
// hash of the last one (GenesisHash when empty). Anchoring a Head outside
// the log (writing it down, committing it elsewhere) is what detects a later
// truncation or an edit of the last record, which no chain can.
type Head struct {
	Records uint64
	Hash    string
	Repairs uint64 // KindRepair records: torn tails cut off by a later append
	// Anchored: an anchor (audit.head, MACed with audit.key) was found, it
	// verifies, and it names record AnchorSeq of this chain.
	Anchored  bool
	AnchorSeq uint64
	// Unanchored counts the records after AnchorSeq: appended after the
	// anchor was last written. Only a crash between a record's fsync and
	// its anchor's rename leaves any (the next append re-anchors them);
	// the chain covers them, the anchor does not.
	Unanchored uint64
}

// Verify checks the whole chain of the log at path: every line a record,
// sequence numbers 1, 2, 3, ... and every "prev" the sha256 of the line
// before it (GenesisHash for the first). Then it checks the anchor beside
// the log: its MAC under the key, and that the record at its seq is the one
// it names. It returns a *ChainError naming the sequence number where the
// chain breaks or the anchor disagrees, or the Head of an intact log. A
// missing file with no anchor is an error from os (errors.Is(err,
// fs.ErrNotExist)); a missing file the anchor says held records is
// ProblemTruncated.
func Verify(path string) (Head, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		if a, aerr := readHead(path); !errors.Is(aerr, fs.ErrNotExist) {
			return checkAnchor(path, a, aerr, Head{Hash: GenesisHash}, "")
		}
	}
	if err != nil {
		return Head{}, fmt.Errorf("audit: open log: %w", errpath.Strip(err))
	}
	defer f.Close()
	// A shared lock: appenders wait, so the last line is never seen half
	// written, and the anchor is the one written after the last record.
	if err := lockFileShared(f); err != nil {
		return Head{}, fmt.Errorf("audit: lock log: %w", errpath.Strip(err))
	}
	defer unlockFile(f)
	a, aerr := readHead(path) // its errors are checkAnchor's to report
	h, hashAt, err := verifyReader(f, a.Seq)
	if err != nil {
		return Head{}, err
	}
	return checkAnchor(path, a, aerr, h, hashAt)
}

// checkAnchor compares an intact chain's head h with the anchor a read
// beside the log (err: readHead's error); hashAt is the hash of the record
// at the anchor's seq ("" when the log does not reach it).
func checkAnchor(path string, a anchorFile, err error, h Head, hashAt string) (Head, error) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if h.Records == 0 {
			return h, nil // a fresh log: nothing to anchor yet
		}
		return Head{}, &ChainError{Seq: h.Records, Problem: ProblemAnchorMissing}
	case errors.Is(err, errHeadMalformed):
		return Head{}, &ChainError{Seq: h.Records, Problem: ProblemAnchorForged}
	case err != nil:
		return Head{}, fmt.Errorf("audit: read anchor: %w", errpath.Strip(err))
	}
	key, err := readKey(keyPath(path))
	if err != nil {
		return Head{}, &ChainError{Seq: h.Records, Problem: ProblemAnchorKey}
	}
	if !hmac.Equal([]byte(headMAC(key, a.Seq, a.Hash)), []byte(a.MAC)) {
		return Head{}, &ChainError{Seq: h.Records, Problem: ProblemAnchorForged}
	}
	if a.Seq > h.Records {
		return Head{}, &ChainError{Seq: a.Seq, Problem: ProblemTruncated, Found: h.Records}
	}
	if a.Seq == 0 && a.Hash != GenesisHash || a.Seq > 0 && a.Hash != hashAt {
		return Head{}, &ChainError{Seq: a.Seq, Problem: ProblemAnchorMismatch}
	}
	h.Anchored, h.AnchorSeq, h.Unanchored = true, a.Seq, h.Records-a.Seq
	return h, nil
}

// verifyReader walks the chain; it also returns the hash of record at
// ("" when the log ends before it).
func verifyReader(r io.Reader, at uint64) (Head, string, error) {
	h, hashAt, err := walkChain(r, at)
	return h, hashAt, err
}

func walkChain(r io.Reader, at uint64) (Head, string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prev := GenesisHash
	var seq, repairs uint64
	var hashAt string
	for lineNo := 1; ; lineNo++ {
		line, complete, err := readLine(br)
		if err != nil {
			var cerr *ChainError
			if errors.As(err, &cerr) {
				cerr.Seq, cerr.Line = seq+1, lineNo
				return Head{}, "", cerr
			}
			return Head{}, "", err
		}
		if line == nil {
			return Head{Records: seq, Hash: prev, Repairs: repairs}, hashAt, nil
		}
		if !complete {
			return Head{}, "", &ChainError{Seq: seq + 1, Line: lineNo, Problem: ProblemTorn}
		}
		// One decode: the whole record (every field in its vocabulary), with
		// seq and prev as pointers so that a missing one is told from zero
		// (the outer fields shadow Entry's).
		var env struct {
			Entry
			Seq  *uint64 `json:"seq"`
			Prev *string `json:"prev"`
		}
		if json.Unmarshal(line, &env) != nil || env.Seq == nil || env.Prev == nil {
			return Head{}, "", &ChainError{Seq: seq + 1, Line: lineNo, Problem: ProblemNotRecord}
		}
		if *env.Seq != seq+1 {
			return Head{}, "", &ChainError{Seq: seq + 1, Line: lineNo, Problem: ProblemSequence, Found: *env.Seq}
		}
		if *env.Prev != prev {
			if seq == 0 {
				return Head{}, "", &ChainError{Seq: 1, Line: 1, Problem: ProblemGenesis}
			}
			return Head{}, "", &ChainError{Seq: seq, Line: lineNo - 1, Problem: ProblemPrevHash}
		}
		if env.Kind == KindRepair {
			repairs++
		}
		sum := sha256.Sum256(line)
		prev, seq = hex.EncodeToString(sum[:]), seq+1
		if seq == at {
			hashAt = prev
		}
	}
}

// readLine returns the next line without its newline, and whether it had
// one. It returns (nil, false, nil) at the end of input, and a *ChainError
// with ProblemTooLong for a line over MaxRecordBytes.
func readLine(br *bufio.Reader) ([]byte, bool, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > MaxRecordBytes+1 {
			return nil, false, &ChainError{Problem: ProblemTooLong}
		}
		line = append(line, frag...)
		switch err {
		case nil:
			return line[:len(line)-1], true, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(line) == 0 {
				return nil, false, nil
			}
			return line, false, nil
		default:
			return nil, false, fmt.Errorf("audit: read log: %w", errpath.Strip(err))
		}
	}
}

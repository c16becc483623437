package audit

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// buildLog writes a plan record, n-2 events and an outcome and returns the
// file's lines (without newlines).
func buildLog(t *testing.T, n int) (string, [][]byte) {
	t.Helper()
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	for i := 0; i < n-2; i++ {
		must(t, l.Event(c, StepStarted(rejection.IntentRef{Index: i % 6, Op: schema.OpWrite})))
	}
	must(t, l.Outcome(c, Committed()))
	raw := readFile(t, path)
	lines := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	return path, lines
}

func writeLines(t *testing.T, path string, lines [][]byte, finalNewline bool) {
	t.Helper()
	out := bytes.Join(lines, []byte("\n"))
	if finalNewline {
		out = append(out, '\n')
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

func wantBreak(t *testing.T, path string, problem Problem, seq uint64) {
	t.Helper()
	_, err := Verify(path)
	var ce *ChainError
	if !errors.As(err, &ce) {
		t.Fatalf("Verify = %v, want a %s break at seq %d", err, problem, seq)
	}
	if ce.Problem != problem || ce.Seq != seq {
		t.Fatalf("Verify found %s at seq %d (%v), want %s at seq %d", ce.Problem, ce.Seq, ce, problem, seq)
	}
	if !strings.Contains(ce.Error(), "seq "+u64(seq)) {
		t.Fatalf("message does not name seq %d: %s", seq, ce)
	}
}

func TestVerifyIntactLog(t *testing.T) {
	path, lines := buildLog(t, 8)
	h, err := Verify(path)
	if err != nil {
		t.Fatal(err)
	}
	if h.Records != 8 || h.Hash != sha(lines[7]) {
		t.Fatalf("head = %+v, want 8 records ending in %s", h, sha(lines[7]))
	}
	empty := t.TempDir() + "/empty.jsonl"
	os.WriteFile(empty, nil, 0o600)
	if h, err := Verify(empty); err != nil || h.Records != 0 || h.Hash != GenesisHash {
		t.Fatalf("empty log: %+v, %v", h, err)
	}
	if _, err := Verify(t.TempDir() + "/missing.jsonl"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing log: %v", err)
	}
}

func TestVerifyCatchesAnEditedRecord(t *testing.T) {
	for _, k := range []int{0, 3, 6} { // seq k+1; not the last record (see package doc)
		path, lines := buildLog(t, 8)
		// Change a path in the plan record, or an intent index in an event,
		// keeping valid JSON and the record's own seq/prev intact.
		var edited []byte
		if k == 0 {
			edited = bytes.Replace(lines[0], []byte("skills/old"), []byte("skills/odl"), 1)
		} else {
			edited = bytes.Replace(lines[k], []byte(`"index":`), []byte(`"index":1`), 1)
		}
		if bytes.Equal(edited, lines[k]) {
			t.Fatal("the edit did not apply")
		}
		lines[k] = edited
		writeLines(t, path, lines, true)
		wantBreak(t, path, ProblemPrevHash, uint64(k+1))
	}
}

func TestVerifyCatchesADroppedRecord(t *testing.T) {
	path, lines := buildLog(t, 8)
	lines = append(lines[:4:4], lines[5:]...) // drop seq 5
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemSequence, 5)

	path, lines = buildLog(t, 8)
	writeLines(t, path, lines[2:], true) // drop the first two
	wantBreak(t, path, ProblemSequence, 1)
}

func TestVerifyCatchesAReorderedPair(t *testing.T) {
	path, lines := buildLog(t, 8)
	lines[2], lines[3] = lines[3], lines[2] // seq 3 and 4 swapped
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemSequence, 3)
}

func TestVerifyCatchesAnInsertedRecord(t *testing.T) {
	// A copy of a real record (valid JSON, valid-looking chain fields).
	path, lines := buildLog(t, 8)
	ins := append([][]byte{}, lines[:4]...)
	ins = append(ins, lines[2])
	ins = append(ins, lines[4:]...)
	writeLines(t, path, ins, true)
	wantBreak(t, path, ProblemSequence, 5)

	// A forged record renumbered to fit: its successor's prev exposes it.
	path, lines = buildLog(t, 8)
	forged := bytes.Replace(lines[3], []byte(`"seq":4,`), []byte(`"seq":5,`), 1)
	renumbered := [][]byte{lines[0], lines[1], lines[2], lines[3], forged}
	writeLines(t, path, append(renumbered, lines[5:]...), true)
	wantBreak(t, path, ProblemPrevHash, 4)
}

func TestVerifyCatchesATruncatedLastLine(t *testing.T) {
	path, lines := buildLog(t, 8)
	lines[7] = lines[7][:len(lines[7])/2]
	writeLines(t, path, lines, false)
	wantBreak(t, path, ProblemTorn, 8)

	// A whole last line without its newline is torn too: the write that
	// made it never completed.
	path, lines = buildLog(t, 8)
	writeLines(t, path, lines, false)
	wantBreak(t, path, ProblemTorn, 8)
}

func TestVerifyCatchesGarbageAndAForeignGenesis(t *testing.T) {
	path, lines := buildLog(t, 8)
	lines[5] = []byte(`{"hello":"world"}`)
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemNotRecord, 6)

	path, lines = buildLog(t, 8)
	lines[1] = []byte("")
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemNotRecord, 2)

	path, lines = buildLog(t, 4)
	lines[0] = bytes.Replace(lines[0], []byte(GenesisHash), []byte(strings.Repeat("0", 64)), 1)
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemGenesis, 1)
}

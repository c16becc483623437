package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The attacks below all leave a chain that is intact on its own: only the
// anchor beside the log can tell. Each test fails when checkAnchor is not
// called.

func TestAnchorCatchesTheLastRecordRemoved(t *testing.T) {
	path, lines := buildLog(t, 8)
	writeLines(t, path, lines[:7], true)
	wantBreak(t, path, ProblemTruncated, 8)
	wantFound(t, path, 7)
}

func TestAnchorCatchesTheLastPlanRemoved(t *testing.T) {
	l, path := openTestLog(t)
	c1 := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c1, Committed()))
	c2 := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c2, Committed()))
	lines := bytes.SplitAfter(readFile(t, path), []byte("\n"))
	// Drop the second plan: its pre-apply record and its outcome.
	if err := os.WriteFile(path, bytes.Join(lines[:2], nil), 0o600); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemTruncated, 4)
	wantFound(t, path, 2)
}

func TestAnchorCatchesEveryRecordRemoved(t *testing.T) {
	path, _ := buildLog(t, 8)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemTruncated, 8)
	wantFound(t, path, 0)
	// The log file itself removed: still a truncation, not "no log yet".
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemTruncated, 8)
}

// rechain rewrites every record from index k on so that each "prev" is the
// sha256 of the (possibly edited) line before it: what an attacker who
// knows the format, but not the key, does after editing record k+1.
func rechain(t *testing.T, lines [][]byte, k int) {
	t.Helper()
	for i := k + 1; i < len(lines); i++ {
		var e struct {
			Prev string `json:"prev"`
		}
		if err := json.Unmarshal(lines[i], &e); err != nil {
			t.Fatal(err)
		}
		lines[i] = bytes.Replace(lines[i], []byte(`"prev":"`+e.Prev+`"`), []byte(`"prev":"`+sha(lines[i-1])+`"`), 1)
	}
}

func TestAnchorCatchesAnEditedAndRechainedRecord(t *testing.T) {
	path, lines := buildLog(t, 8)
	edited := bytes.Replace(lines[2], []byte(`"index":`), []byte(`"index":1`), 1)
	if bytes.Equal(edited, lines[2]) {
		t.Fatal("the edit did not apply")
	}
	lines[2] = edited
	rechain(t, lines, 2)
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemAnchorMismatch, 8)

	// The very last record edited: nothing after it commits to it, so the
	// chain alone cannot see this one at all.
	path, lines = buildLog(t, 8)
	lines[7] = bytes.Replace(lines[7], []byte(`"committed"`), []byte(`"rolled-back"`), 1)
	writeLines(t, path, lines, true)
	wantBreak(t, path, ProblemAnchorMismatch, 8)
}

func TestAnchorCatchesAHeadRewrittenWithoutTheKey(t *testing.T) {
	path, lines := buildLog(t, 8)
	lines[7] = bytes.Replace(lines[7], []byte(`"committed"`), []byte(`"rolled-back"`), 1)
	writeLines(t, path, lines, true)
	// The attacker re-anchors the edited log, MACing with a key of their own.
	forged, _ := json.Marshal(anchorFile{Seq: 8, Hash: sha(lines[7]), MAC: headMAC(make([]byte, keyBytes), 8, sha(lines[7]))})
	if err := os.WriteFile(headPath(path), forged, 0o600); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemAnchorForged, 8)
	// A head that is not even an anchor.
	if err := os.WriteFile(headPath(path), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemAnchorForged, 8)
}

func TestAnchorRemovedOrKeyRemovedIsReported(t *testing.T) {
	path, _ := buildLog(t, 8)
	if err := os.Remove(keyPath(path)); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemAnchorKey, 8)
	if err := os.Remove(headPath(path)); err != nil {
		t.Fatal(err)
	}
	wantBreak(t, path, ProblemAnchorMissing, 8)
}

func TestAnchorIntactLogAndALaggingAnchor(t *testing.T) {
	l, path := openTestLog(t)
	c := beginPlan(t, l, decodePlan(t, mixedPlan))
	must(t, l.Outcome(c, Committed()))
	h, err := Verify(path)
	if err != nil || !h.Anchored || h.AnchorSeq != 2 || h.Unanchored != 0 || h.Records != 2 {
		t.Fatalf("Verify = %+v, %v", h, err)
	}
	for _, name := range []string{headPath(path), keyPath(path)} {
		fi, err := os.Stat(name)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want mode 0600", name, fi, err)
		}
	}
	// A crash between the outcome's fsync and its anchor's rename leaves the
	// anchor one record behind: intact, with one unanchored record.
	lines := bytes.Split(bytes.TrimSuffix(readFile(t, path), []byte("\n")), []byte("\n"))
	if err := writeHead(path, l.key, 1, sha(lines[0])); err != nil {
		t.Fatal(err)
	}
	h, err = Verify(path)
	if err != nil || h.AnchorSeq != 1 || h.Unanchored != 1 {
		t.Fatalf("lagging anchor: %+v, %v", h, err)
	}
	// The next append anchors everything again.
	must(t, l.Outcome(c, Committed()))
	if h, err = Verify(path); err != nil || h.AnchorSeq != 3 || h.Unanchored != 0 {
		t.Fatalf("after the next append: %+v, %v", h, err)
	}
}

func TestAnchorKeyIsSharedByLogsOnOneHome(t *testing.T) {
	l1, path := openTestLog(t)
	l2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if !bytes.Equal(l1.key, l2.key) {
		t.Fatal("two opens of one log drew two keys")
	}
	c := beginPlan(t, l1, decodePlan(t, mixedPlan))
	must(t, l2.Outcome(c, Committed()))
	if _, err := Verify(path); err != nil {
		t.Fatal(err)
	}
	// A key file of the wrong size is refused, not replaced.
	if err := os.WriteFile(keyPath(path), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "not 32 bytes") {
		t.Fatalf("Open with a short key: %v", err)
	}
}

func wantFound(t *testing.T, path string, found uint64) {
	t.Helper()
	_, err := Verify(path)
	ce, ok := err.(*ChainError)
	if !ok || ce.Found != found {
		t.Fatalf("Verify = %v, want the log to end at seq %d", err, found)
	}
}

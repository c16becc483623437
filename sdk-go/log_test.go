package lola

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestLogIsOneBoundedLine(t *testing.T) {
	var b bytes.Buffer
	logState.Lock()
	logState.w, logState.written, logState.dropped = &b, 0, false
	logState.Unlock()
	defer func() {
		logState.Lock()
		logState.w, logState.written, logState.dropped = nil, 0, false
		logState.Unlock()
	}()

	Warnf("two\nlines %d", 2)
	if b.String() != "lola: warn: two\\nlines 2\n" {
		t.Fatalf("got %q", b.String())
	}
	b.Reset()
	Log(LevelError, strings.Repeat("x", 2*MaxLogLine))
	if b.Len() != MaxLogLine+1 || !strings.HasSuffix(b.String(), " [cut]\n") {
		t.Fatalf("a long line: %d bytes, %q", b.Len(), b.String()[b.Len()-10:])
	}
	for i := 0; i < MaxLogBytes/100+10; i++ {
		Log(LevelInfo, strings.Repeat("y", 90))
	}
	if b.Len() > MaxLogBytes+100 || strings.Count(b.String(), "log limit reached") != 1 {
		t.Fatalf("unbounded: %d bytes, %d limit notes", b.Len(), strings.Count(b.String(), "log limit reached"))
	}
}

// issue 15: a Go panic reported no location.
func TestPanicReportsValueAndLocation(t *testing.T) {
	_, status, err := run(func(*Request, *Plan) error {
		var m map[string]int
		m["x"] = 1 // a runtime panic: the site is here, not in the runtime
		return nil
	}, []byte(`{"protocol":1,"operation":"generate","modules":[]}`))
	var pe panicError
	if status != StatusHandlerPanic || !errors.As(err, &pe) ||
		!strings.Contains(err.Error(), "assignment to entry in nil map") ||
		!strings.Contains(err.Error(), "log_test.go:") || !strings.Contains(err.Error(), "TestPanicReportsValueAndLocation") {
		t.Fatalf("status %s, err %v", status, err)
	}
}

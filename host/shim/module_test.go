package shim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/shim/shimtest"
)

// padTo returns a valid reactor module of exactly n bytes (a custom section
// absorbs the padding), returning the empty plan.
func padTo(t *testing.T, n int) []byte {
	t.Helper()
	base := shimtest.Reactor(1, 0, nil).Bytes()
	for extra := 0; ; extra++ {
		// custom section: id 0, size, name "pad", payload
		payload := append([]byte{3, 'p', 'a', 'd'}, bytes.Repeat([]byte{0}, extra)...)
		sec := append([]byte{0}, uleb(uint64(len(payload)))...)
		b := append(append(append([]byte(nil), base...), sec...), payload...)
		if len(b) == n {
			return b
		}
		if len(b) > n {
			t.Fatalf("cannot pad to %d", n)
		}
	}
}

func uleb(v uint64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, b|0x80)
			continue
		}
		return append(out, b)
	}
}

func TestModuleSizeBoundary(t *testing.T) {
	const max = 4096
	l := testLimits(t, func(l *Limits) { l.maxModule = max })
	r := runShim(t, writeModule(t, padTo(t, max)), l, "", nil)
	r.expect(t, KindOK)
	r = runShim(t, writeModule(t, padTo(t, max+1)), l, "", nil)
	d := r.expect(t, KindModuleTooLarge)
	if d.Limit != max {
		t.Fatalf("diagnostic %+v", d)
	}
	if r.report.Confinement != nil {
		t.Fatal("a refused artifact went on to confinement")
	}
}

// A FIFO has size 0 when stat'ed and delivers more than the maximum when
// read: the capped read must refuse it before anything is instantiated.
func TestModuleGrowsPastMaximumDuringRead(t *testing.T) {
	const max = 4096
	l := testLimits(t, func(l *Limits) { l.maxModule = max })
	p := filepath.Join(t.TempDir(), "grow.wasm")
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	body := padTo(t, max+1)
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		_, err = f.Write(body)
		done <- err
	}()
	r := runShim(t, p, l, "", nil)
	d := r.expect(t, KindModuleTooLarge)
	if r.report.Confinement != nil {
		t.Fatal("a refused artifact went on to confinement")
	}
	// A FIFO stats as 0 bytes: the refusal must be the capped read's.
	if !strings.Contains(d.Detail, "while being read") || d.Limit != max {
		t.Fatalf("refused by something other than the capped read: %+v", d)
	}
	<-done
	// The same FIFO delivering exactly max bytes is accepted: the refusal
	// above was the cap, not the FIFO.
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			f.Write(padTo(t, max))
			f.Close()
		}
		done <- err
	}()
	runShim(t, p, l, "", nil).expect(t, KindOK)
	<-done
}

func TestModuleUnreadableNamesNoPath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "secret-dir", "nope.wasm")
	r := runShim(t, missing, testLimits(t, nil), "", nil)
	r.expect(t, KindModuleUnreadable)
	if bytes.Contains(r.stderr, []byte("secret-dir")) {
		t.Fatalf("the diagnostic carries a host path: %s", r.stderr)
	}
}

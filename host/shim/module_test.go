package shim

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// countingFile is an open artifact of a claimed size whose reads are
// counted (and return zeros).
type countingFile struct {
	size int64
	read int64
}

func (f *countingFile) Read(p []byte) (int, error) {
	f.read += int64(len(p))
	clear(p)
	return len(p), nil
}

func (f *countingFile) Stat() (os.FileInfo, error) { return sizedInfo{f.size}, nil }

type sizedInfo struct{ size int64 }

func (s sizedInfo) Name() string       { return "m.wasm" }
func (s sizedInfo) Size() int64        { return s.size }
func (s sizedInfo) Mode() os.FileMode  { return 0o600 }
func (s sizedInfo) ModTime() time.Time { return time.Time{} }
func (s sizedInfo) IsDir() bool        { return false }
func (s sizedInfo) Sys() any           { return nil }

// 16, "tests that do not guard": the open-file size check refuses a 1 TiB
// artifact without reading a byte of it. Without the check the capped
// reader would still refuse it, but only after reading max+1 bytes and
// naming the growth, so this test tells the two defences apart.
func TestHugeArtifactRefusedBySizeCheckWithoutReading(t *testing.T) {
	const max = 32 << 20
	f := &countingFile{size: 1 << 40}
	b, d := readOpen(f, max)
	if d == nil || b != nil {
		t.Fatalf("a 1 TiB artifact was accepted (%d bytes)", len(b))
	}
	want := "the artifact is 1099511627776 bytes, over the 33554432-byte maximum"
	if d.Kind != KindModuleTooLarge || d.Limit != max || d.Detail != want {
		t.Fatalf("diagnostic %+v, want the size check's %q", d, want)
	}
	if f.read != 0 {
		t.Fatalf("the refusal read %d bytes of the artifact", f.read)
	}
}

// The same through the shim process, on a real sparse 1 TiB file: the
// size check's refusal, and no confinement step reached.
func TestSparseTerabyteArtifactRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.wasm")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		f.Close()
		t.Skipf("no sparse 1 TiB file on this filesystem: %v", err)
	}
	f.Close()
	r := runShim(t, p, testLimits(t, nil), "", nil)
	d := r.expect(t, KindModuleTooLarge)
	if !strings.Contains(d.Detail, "the artifact is 1099511627776 bytes") || r.report.HasModule || r.report.Confinement != nil {
		t.Fatalf("not the size check's refusal: %+v", d)
	}
}

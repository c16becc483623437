package module

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestZipLyingSizeRefused: an entry that declares 10 bytes but inflates
// to 4 MiB is refused (archive/zip stops at the declared size; the
// stager's own count is the second line, tested below).
func TestZipLyingSizeRefused(t *testing.T) {
	payload := bytes.Repeat([]byte{0}, 4<<20)
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.BestCompression)
	fw.Write(payload)
	fw.Close()

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("skills/alpha/SKILL.md")
	w.Write([]byte("---\ndescription: a\n---\n"))
	h := &zip.FileHeader{
		Name:               "bomb.bin",
		Method:             zip.Deflate,
		CRC32:              crc32.ChecksumIEEE(payload),
		CompressedSize64:   uint64(deflated.Len()),
		UncompressedSize64: 10,
	}
	raw, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	raw.Write(deflated.Bytes())
	zw.Close()
	path := filepath.Join(t.TempDir(), "bomb.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	s, _ := newStore(t)
	_, err = s.Add(context.Background(), mustSource(t, path), AddOptions{Bounds: smallBounds(t, 100, 1<<20, 2<<20, 256)})
	if err == nil || !strings.Contains(err.Error(), `"bomb.bin"`) {
		t.Fatalf("error %v; want a refusal naming bomb.bin", err)
	}
	assertStoreEmpty(t, s)
}

// TestStagerCountsBytesWritten: whatever a source declares (here nothing,
// or too little), the bytes written are bounded.
func TestStagerCountsBytesWritten(t *testing.T) {
	for _, declared := range []int64{-1, 10} {
		st, err := newStager(filepath.Join(t.TempDir(), "tree"), smallBounds(t, 10, 1024, 1500, 256))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.file("a", declared, 0o644, bytes.NewReader(make([]byte, 2048))); !errors.Is(err, LimitFileBytes) {
			t.Fatalf("declared %d: error %v; want %s", declared, err, LimitFileBytes)
		}
		if err := st.file("b", declared, 0o644, bytes.NewReader(make([]byte, 1000))); !errors.Is(err, LimitTotalBytes) {
			t.Fatalf("declared %d: error %v; want %s", declared, err, LimitTotalBytes)
		}
	}
}

// TestGzipBombRefusedOnDeclaredSize: a tar.gz of a few KiB whose one entry
// is 256 MiB of zeros is refused from its header, before inflating it.
func TestGzipBombRefusedOnDeclaredSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bomb.tgz")
	writeTar(t, path, true, append(append([]entry(nil), goodEntries...), file("zeros", string(make([]byte, 16<<20)))))
	s, _ := newStore(t)
	_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{})
	if !errors.Is(err, LimitFileBytes) {
		t.Fatalf("error %v; want %s", err, LimitFileBytes)
	}
	assertStoreEmpty(t, s)
}

// TestZipEntryCountFromDirectoryRefusedUpFront: the entry bound applies to
// the central directory before any entry is unpacked.
func TestZipEntryCountFromDirectoryRefusedUpFront(t *testing.T) {
	var entries []entry
	for i := range 50 {
		entries = append(entries, file("f/"+string(rune('a'+i%26))+string(rune('a'+i/26)), "x"))
	}
	path := filepath.Join(t.TempDir(), "many.zip")
	writeZip(t, path, append(append([]entry(nil), goodEntries...), entries...))
	s, _ := newStore(t)
	_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{Bounds: smallBounds(t, 10, 1024, 1<<20, 256)})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitFiles || le.Path != "" {
		t.Fatalf("error %v; want an up-front %s", err, LimitFiles)
	}
	assertStoreEmpty(t, s)
}

// TestOversizedArchiveFileRefusedBeforeReading: an archive file larger than
// any archive within the bounds is refused from its size alone.
func TestOversizedArchiveFileRefusedBeforeReading(t *testing.T) {
	b := smallBounds(t, 2, 1024, 4096, 256)
	for _, name := range []string{"big.zip", "big.tar"} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, make([]byte, archiveMax(b)+1), 0o600); err != nil {
			t.Fatal(err)
		}
		s, _ := newStore(t)
		_, err := s.Add(context.Background(), mustSource(t, path), AddOptions{Bounds: b})
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != LimitTotalBytes {
			t.Fatalf("%s: error %v; want %s", name, err, LimitTotalBytes)
		}
		assertStoreEmpty(t, s)
	}
}

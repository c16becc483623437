package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/host/internal/errpath"
)

// The anchor: a hash chain commits every record to the ones before it, so
// nothing in the log itself commits to its last record. The head file names
// the last record (its seq and line hash) and is rewritten, atomically, after
// every record; the key file holds a random key that MACs the head, so a
// head rewritten without the key does not verify. See the package doc for
// what each layer proves.
const (
	// HeadFileName is the anchor's name, beside the log.
	HeadFileName = "audit.head"
	// KeyFileName is the MAC key's name, beside the log (0600).
	KeyFileName = "audit.key"
	keyBytes    = 32
	maxHeadSize = 4 << 10
)

// headDomain separates the head's MAC input from any other use of the key.
const headDomain = "lola.audit.head.v1\n"

// anchorFile is the head file's content.
type anchorFile struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
	MAC  string `json:"mac"`
}

func headPath(logPath string) string { return filepath.Join(filepath.Dir(logPath), HeadFileName) }
func keyPath(logPath string) string  { return filepath.Join(filepath.Dir(logPath), KeyFileName) }

func headMAC(key []byte, seq uint64, hash string) string {
	m := hmac.New(sha256.New, key)
	io.WriteString(m, headDomain+strconv.FormatUint(seq, 10)+"\n"+hash)
	return hex.EncodeToString(m.Sum(nil))
}

// loadOrCreateKey returns the MAC key beside the log, creating it (0600,
// exclusively, so two first opens agree on one key) when absent.
func loadOrCreateKey(logPath string) ([]byte, error) {
	p := keyPath(logPath)
	key, err := readKey(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, keyBytes)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("audit: draw anchor key: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readKey(p) // another process created it first
	}
	if err != nil {
		return nil, fmt.Errorf("audit: create anchor key: %w", errpath.Strip(err))
	}
	_, werr := f.Write(key)
	// The key must outlive a power loss, or every later head would fail
	// to verify: one fsync, once per $LOLA_HOME.
	serr := durable.File(f)
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(p)
		return nil, fmt.Errorf("audit: write anchor key: %w", errpath.Strip(err))
	}
	return key, nil
}

// readKey reads a key file, refusing one of the wrong size (a truncated or
// foreign file is not silently replaced) and tightening a wide mode.
func readKey(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, keyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("audit: read anchor key: %w", errpath.Strip(err))
	}
	if len(key) != keyBytes {
		return nil, fmt.Errorf("audit: the anchor key (%s) is not %d bytes", KeyFileName, keyBytes)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o077 != 0 {
		_ = f.Chmod(0o600)
	}
	return key, nil
}

// writeHead replaces the head file with (seq, hash) by write-then-rename,
// so a reader sees the old head or the new one, never a mix. It is not
// fsynced: the record it names already is, so after a power loss the head
// can lag the log (Verify reports the records after it as unanchored) but
// never lead it.
func writeHead(logPath string, key []byte, seq uint64, hash string) error {
	b, err := json.Marshal(anchorFile{Seq: seq, Hash: hash, MAC: headMAC(key, seq, hash)})
	if err != nil {
		return err
	}
	tmp := headPath(logPath) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("audit: write anchor: %w", errpath.Strip(err))
	}
	if err := os.Rename(tmp, headPath(logPath)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("audit: write anchor: %w", errpath.Strip(err))
	}
	return nil
}

// readHead returns the head file beside the log; fs.ErrNotExist when absent.
func readHead(logPath string) (anchorFile, error) {
	b, err := os.ReadFile(headPath(logPath))
	if err != nil {
		return anchorFile{}, err
	}
	var a anchorFile
	if len(b) > maxHeadSize || json.Unmarshal(bytes.TrimSpace(b), &a) != nil || len(a.Hash) != 64 || len(a.MAC) != 64 {
		return anchorFile{}, errHeadMalformed
	}
	return a, nil
}

var errHeadMalformed = errors.New("audit: the anchor file is malformed")

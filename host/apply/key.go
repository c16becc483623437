package apply

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/durable"
)

// KeyName is the host's journal key file in Lola's state directory.
const KeyName = "apply.key"

const keySize = 32

// ErrKey is a journal key file that cannot be trusted (wrong size, type
// or permissions).
var ErrKey = errors.New("apply: the journal key is not trustworthy")

// LoadKey returns the host key that authenticates apply journals, kept in
// home/KeyName with mode 0600 and created (32 random bytes, exclusively)
// on first use. A key file readable or writable by group or others, or
// not a regular file of the right size, is ErrKey: a key others can read
// lets them forge a journal that recovery would execute.
func LoadKey(home string) ([]byte, error) {
	if home == "" {
		return nil, errors.New("apply: no state directory for the journal key")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	name := filepath.Join(home, KeyName)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		key := make([]byte, keySize)
		if _, err := rand.Read(key); err != nil {
			f.Close()
			os.Remove(name)
			return nil, err
		}
		_, err = f.Write(key)
		if err == nil {
			err = durable.File(f)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return nil, err
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	r, err := openNoFollow(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() != keySize || keyModeTooOpen(st) {
		return nil, fmt.Errorf("%w: %s must be a %d-byte regular file with mode 0600", ErrKey, KeyName, keySize)
	}
	key, err := io.ReadAll(io.LimitReader(r, keySize+1))
	if err != nil {
		return nil, err
	}
	if len(key) != keySize || bytes.Count(key, []byte{0}) == keySize {
		return nil, fmt.Errorf("%w: %s is truncated or empty", ErrKey, KeyName)
	}
	return key, nil
}

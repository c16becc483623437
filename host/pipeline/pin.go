package pipeline

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// MaxPinnedArtifactBytes bounds an artifact copied for a pinned launch.
const MaxPinnedArtifactBytes = 512 << 20

// ErrChanged is wrapped by the refusal of an artifact whose bytes differ
// from its pin; the error also carries the extension.changed rule.
var ErrChanged = errors.New("artifact differs from its pin")

// pinnedCopy copies the artifact at src into a fresh private directory
// (0700, owned by this user) while hashing the bytes copied, and compares
// the digest with want. The launch then runs the copy, never src: the
// bytes that run are the bytes that were hashed, whatever happens to src
// meanwhile (a swap between check and exec cannot win). The caller
// removes dir. A mismatch is extension.changed and nothing has run.
func pinnedCopy(name, src string, want [sha256.Size]byte, native bool) (path, dir string, err error) {
	in, err := os.Open(src)
	if err != nil {
		return "", "", fmt.Errorf("pipeline: the artifact cannot be opened")
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", "", fmt.Errorf("pipeline: the artifact is not a regular file")
	}
	dir, err = os.MkdirTemp("", "lola-pinned-")
	if err != nil {
		return "", "", errors.New("pipeline: cannot create a private directory for the pinned artifact")
	}
	mode := os.FileMode(0o600)
	if native {
		mode = 0o700
	}
	path = filepath.Join(dir, filepath.Base(src))
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		os.RemoveAll(dir)
		return "", "", errors.New("pipeline: cannot write the pinned artifact's copy")
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, MaxPinnedArtifactBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil || n > MaxPinnedArtifactBytes {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("pipeline: the artifact could not be copied (or exceeds %d bytes)", MaxPinnedArtifactBytes)
	}
	var got [sha256.Size]byte
	copy(got[:], h.Sum(nil))
	if got != want {
		os.RemoveAll(dir)
		return "", "", changedErr(name)
	}
	return path, dir, nil
}

func changedErr(name string) error {
	return fmt.Errorf("extension %s: %w: %w", name, ErrChanged,
		rejection.New(schema.RuleExtensionChanged, "its artifact differs from the one pinned when it was added; nothing ran"))
}

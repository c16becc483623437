package pipeline

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/privcopy"
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
	c, err := privcopy.Write(in, filepath.Base(src), native, MaxPinnedArtifactBytes)
	if err != nil {
		return "", "", fmt.Errorf("pipeline: the artifact could not be copied (or exceeds %d bytes)", MaxPinnedArtifactBytes)
	}
	if c.Sum != want {
		c.Cleanup()
		return "", "", changedErr(name)
	}
	return c.Path, filepath.Dir(c.Path), nil
}

func changedErr(name string) error {
	return fmt.Errorf("extension %s: %w: %w", name, ErrChanged,
		rejection.New(schema.RuleExtensionChanged, "its artifact differs from the one pinned when it was added; nothing ran"))
}

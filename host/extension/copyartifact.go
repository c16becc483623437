package extension

import (
	"crypto/sha256"
	"fmt"

	"github.com/lola-pm/lola/host/internal/privcopy"
)

// MaxCopiedArtifactBytes bounds an artifact CopyArtifact copies out of
// files without a host path (a built-in embedded in lola).
const MaxCopiedArtifactBytes = 256 << 20

// CopiedArtifact is a private copy of an artifact whose bytes lola holds:
// Path in a fresh directory only the user can read (0700), the file
// created exclusively (0600, 0700 for a native executable), and Sum the
// sha256 of the bytes written, taken as they were copied from the source
// (never read back from disk). Cleanup removes the directory.
type CopiedArtifact struct {
	Path    string
	Sum     [sha256.Size]byte
	Cleanup func()
}

// CopyArtifact copies e's tier t artifact, as OpenArtifact reads it, into
// a private file for a process that takes its module or executable by
// path (the shim, exec). The caller holds the run to Sum (a tier-1 run:
// pipeline.Launch.Expect), since the file could be replaced after it was
// written; CopyArtifact promises only that what it wrote hashes to Sum.
func CopyArtifact(e *Extension, t Tier) (CopiedArtifact, error) {
	src, err := e.OpenArtifact(t)
	if err != nil {
		return CopiedArtifact{}, err
	}
	defer src.Close()
	name := e.Name()
	if t == Tier1 {
		name += ".wasm"
	}
	c, err := privcopy.Write(src, name, t != Tier1, MaxCopiedArtifactBytes)
	if err != nil {
		return CopiedArtifact{}, fmt.Errorf("extension %s: its %s artifact could not be copied out (or exceeds %d bytes)", e.Name(), t, MaxCopiedArtifactBytes)
	}
	return CopiedArtifact(c), nil
}

package install

import (
	"crypto/sha256"
	"fmt"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/pipeline"
)

// artifact is the target's artifact of its preferred tier as a host file,
// with its digest when that is known before the run. A built-in's bytes
// are copied out of the binary into a private temporary directory, removed
// by cleanup, and hashed on the way. A tier-1 artifact already on the host
// is not read here at all: the shim reports the digest of the bytes it
// read and ran (see digest).
type artifact struct {
	path   string
	sum    [sha256.Size]byte
	hasSum bool
	// copied: path is lola's private copy of bytes it holds in memory (an
	// embedded built-in), so the shim must report exactly sum.
	copied  bool
	cleanup func()
}

// expect is the digest the shim must report for a copied artifact, nil
// for one run from where it lies (pinned, or trusted as installed).
func (a artifact) expect() *[sha256.Size]byte {
	if !a.copied {
		return nil
	}
	sum := a.sum
	return &sum
}

// digest is the digest the audit log records for a run of a: the shim's,
// of exactly the bytes it ran, when it reported one; otherwise the one
// taken before the run (a built-in's copy, or a tier-2 executable);
// otherwise (a tier-1 run that stopped before the shim read the module
// whole, so nothing of it ran) the file's bytes now.
func (a artifact) digest(l pipeline.Launched) ([]byte, error) {
	if sum, ok := l.ArtifactSum(); ok {
		return sum[:], nil
	}
	if a.hasSum {
		return a.sum[:], nil
	}
	sum, err := pipeline.ArtifactSum(a.path)
	if err != nil {
		return nil, fmt.Errorf("artifact unreadable: %w", errpath.Strip(err))
	}
	return sum[:], nil
}

func targetArtifact(e *extension.Extension) (artifact, error) {
	t := e.Tier()
	a, ok := e.Artifact(t)
	if !ok || !a.Present() {
		return artifact{}, fmt.Errorf("%w: extension %s: its %s artifact is not built (lola ext build)", ErrUnknownAssistant, e.Name(), t)
	}
	if a.HostPath() != "" {
		if t == extension.Tier1 {
			// Hashed by the shim as it reads it: reading and hashing
			// megabytes here too is the single largest avoidable cost of
			// a warm install.
			return artifact{path: a.HostPath(), cleanup: func() {}}, nil
		}
		sum, err := pipeline.ArtifactSum(a.HostPath())
		if err != nil {
			return artifact{}, fmt.Errorf("extension %s: artifact unreadable: %w", e.Name(), errpath.Strip(err))
		}
		return artifact{path: a.HostPath(), sum: sum, hasSum: true, cleanup: func() {}}, nil
	}
	c, err := extension.CopyArtifact(e, t)
	if err != nil {
		return artifact{}, fmt.Errorf("install: %w", err)
	}
	return artifact{path: c.Path, sum: c.Sum, hasSum: true, copied: t == extension.Tier1, cleanup: c.Cleanup}, nil
}

// runResult maps a hook's child outcome to the audit log's run results.
func runResult(o child.Outcome) audit.RunResult {
	switch o {
	case child.OutcomeCompleted:
		return audit.RunCompleted
	case child.OutcomeKilledDeadline:
		return audit.RunKilledDeadline
	case child.OutcomeKilledStdoutBound:
		return audit.RunKilledOutputBound
	case child.OutcomeStartFailed:
		return audit.RunStartFailed
	case child.OutcomeCanceled:
		return audit.RunCanceled
	}
	return audit.RunExitNonZero
}

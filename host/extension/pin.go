package extension

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// ErrNotPinnedNative refuses a native artifact no pin or signature
// vouches for: one copied into $LOLA_HOME/extensions by hand.
var ErrNotPinnedNative = errors.New("native (tier-2) extension was not added with lola ext add: nothing pins or vouches for it; refused")

// RunPin is what a run of one artifact must hold to: the digest the bytes
// launched must have (Pinned), and the signature verdict and signer the
// audit record names.
type RunPin struct {
	Pinned  bool
	Sum     [sha256.Size]byte
	Verdict Verdict
	Signer  string
	Dev     bool // a linked development directory
}

// Describe is the one-line signer description for the audit log and
// ls/info: "signed by <signer>", "unsigned, opted in", "unsigned", or
// "built in" / "" when nothing was pinned.
func (p RunPin) Describe() string {
	switch p.Verdict {
	case VerdictVerified:
		return "signed by " + p.Signer
	case VerdictOptedIn:
		return "unsigned, opted in"
	case VerdictUnsigned:
		return "unsigned"
	}
	return ""
}

// Pinned returns e's lock entry (nil for a built-in, a directory named on
// the command line, or an installed extension with no entry).
func (e *Extension) Pinned() *LockEntry { return e.pin }

// PinFor says what a run of e's tier-t artifact must hold to, or refuses
// the run:
//   - built-in, or a directory named on the command line: nothing pinned
//     (the binary, or the user's explicit choice, vouches);
//   - installed: the manifest must still hash as pinned and the tier must
//     be pinned (extension.changed otherwise); the artifact's pinned digest
//     is returned for the launch to compare with the bytes it runs. An
//     installed extension with no lock entry runs in tier 1 unpinned and
//     is refused in tier 2 (ErrNotPinnedNative);
//   - linked (dev): tier 1 runs as built; tier 2 must carry a bundle tp
//     verifies for its present bytes, or match the opted-in digest.
func (e *Extension) PinFor(t Tier, tp TrustPolicy) (RunPin, error) {
	a, ok := e.Artifact(t)
	if !ok || !a.present {
		return RunPin{}, fmt.Errorf("extension %s: no built %s artifact", e.Name(), t)
	}
	switch e.source {
	case SourceHome:
		if e.pin == nil {
			if t == Tier2 {
				return RunPin{}, fmt.Errorf("extension %s: %w", e.Name(), ErrNotPinnedNative)
			}
			return RunPin{}, nil
		}
		msum, err := hashFile(filepath.Join(e.dir, ManifestFile))
		if err != nil || msum != e.pin.Manifest {
			return RunPin{}, changed(e.Name(), ManifestFile+" differs from the one pinned when it was added")
		}
		la := e.pin.Artifacts[t]
		if la == nil || la.Path != a.path.String() {
			return RunPin{}, changed(e.Name(), "its "+string(t)+" artifact was not pinned when it was added")
		}
		sum, err := la.Sum()
		if err != nil {
			return RunPin{}, changed(e.Name(), "the pin is unreadable")
		}
		return RunPin{Pinned: true, Sum: sum, Verdict: la.Verdict, Signer: la.Signer}, nil
	case SourceDev:
		if t != Tier2 {
			return RunPin{Dev: true, Verdict: VerdictUnsigned}, nil
		}
		hs, err := hashFile(a.hostPath)
		if err != nil {
			return RunPin{}, fmt.Errorf("extension %s: artifact unreadable", e.Name())
		}
		var sum [sha256.Size]byte
		hex.Decode(sum[:], []byte(hs))
		if la := e.pin.Artifacts[Tier2]; la != nil && la.SHA256 == hs && la.Verdict == VerdictOptedIn {
			return RunPin{Pinned: true, Sum: sum, Verdict: VerdictOptedIn, Dev: true}, nil
		}
		signer, err := verifyBundle(e.dir, a, hs, tp.Verifier)
		if err != nil {
			return RunPin{}, fmt.Errorf("extension %s (linked): artifacts.tier2: %w: %v (an opt-in covers only the bytes it was given for; link again with --allow-unsigned)", e.Name(), ErrUnsigned, err)
		}
		return RunPin{Pinned: true, Sum: sum, Verdict: VerdictVerified, Signer: signer, Dev: true}, nil
	}
	return RunPin{}, nil
}

// changed is the extension.changed refusal.
func changed(name, why string) error {
	return fmt.Errorf("extension %s: %w", name, rejection.New(schema.RuleExtensionChanged, why+"; reinstall it with lola ext update or lola ext add"))
}

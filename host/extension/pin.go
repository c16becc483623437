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
//     verifies for its present bytes, or match the opted-in digest;
//   - tp.RequireTier1 holds tier 1 to tier 2's rule at every run, not only
//     at add: an installed module pinned unsigned (added while the policy
//     was off), or not pinned at all, is refused (extension.unsigned); one
//     opted in with --allow-unsigned runs, as pinned, for exactly the
//     pinned bytes; a linked one must verify for its present bytes.
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
			if tp.RequireTier1 {
				return RunPin{}, unsigned(e.Name(), "it was not added with lola ext add, so nothing pins or vouches for it")
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
		if t == Tier1 && tp.RequireTier1 && la.Verdict != VerdictVerified && la.Verdict != VerdictOptedIn {
			return RunPin{}, unsigned(e.Name(), "it was pinned unsigned when it was added")
		}
		return RunPin{Pinned: true, Sum: sum, Verdict: la.Verdict, Signer: la.Signer}, nil
	case SourceDev:
		if t != Tier2 && !tp.RequireTier1 {
			return RunPin{Dev: true, Verdict: VerdictUnsigned}, nil
		}
		hs, err := hashFile(a.hostPath)
		if err != nil {
			return RunPin{}, fmt.Errorf("extension %s: artifact unreadable", e.Name())
		}
		var sum [sha256.Size]byte
		hex.Decode(sum[:], []byte(hs))
		if la := e.pin.Artifacts[t]; la != nil && la.SHA256 == hs && la.Verdict == VerdictOptedIn {
			return RunPin{Pinned: true, Sum: sum, Verdict: VerdictOptedIn, Dev: true}, nil
		}
		signer, err := verifyBundle(e.dir, a, hs, tp.Verifier)
		if err != nil {
			if t != Tier2 {
				return RunPin{}, unsigned(e.Name()+" (linked)", "its present bytes carry no bundle the trust policy verifies: "+err.Error())
			}
			return RunPin{}, fmt.Errorf("extension %s (linked): artifacts.tier2 (%s): %w: %v (an opt-in covers only the bytes it was given for; sign it, or link again with --allow-unsigned)", e.Name(), Tier2.Describe(), ErrUnsigned, err)
		}
		return RunPin{Pinned: true, Sum: sum, Verdict: VerdictVerified, Signer: signer, Dev: true}, nil
	}
	return RunPin{}, nil
}

// unsigned is the extension.unsigned refusal of a tier-1 module while
// config.yaml's trust.require_tier1 is true.
func unsigned(name, why string) error {
	return fmt.Errorf("extension %s: %w", name, rejection.New(schema.RuleExtensionUnsigned,
		"trust.require_tier1 requires a signed tier-1 module, and "+why+"; sign it (lola ext sign) and lola ext update it, or lola ext update --allow-unsigned to opt in to these exact bytes"))
}

// changed is the extension.changed refusal.
func changed(name, why string) error {
	return fmt.Errorf("extension %s: %w", name, rejection.New(schema.RuleExtensionChanged, why+"; reinstall it with lola ext update or lola ext add"))
}

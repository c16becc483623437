package extrun

import (
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
)

// proposer is who the audit log names and the checks hold the plan to:
// the extension's name (and version, from a manifest; "extension" for a
// bare artifact whose file name is not a valid name) with its artifact's
// hash, its tier, the granted capabilities, the confinement the run
// reported, and — for an extension with a manifest — its effective path
// grant under cfg. The grant is compared bytewise, the strictest
// relation: a path beneath a prefix bytewise is beneath it under every
// relation, so no filesystem's folding can widen it. A bare artifact
// carries no path grant: the user chose both the root and the artifact.
// The identity names how the artifact was vouched for (signer, opt-in,
// unsigned) when it was pinned or linked.
func proposer(ext extension.RunTarget, caps capability.Set, l pipeline.Launched, rp extension.RunPin, cfg *config.Config) (pipeline.Proposer, error) {
	var id audit.Extension
	var err error
	if ext.Manifest != nil {
		id, err = ext.Manifest.AuditIdentity()
	} else if id, err = audit.NewExtension(ext.Name, ""); err != nil {
		id, err = audit.NewExtension("extension", "")
	}
	if err != nil {
		return pipeline.Proposer{}, err
	}
	// A tier-1 run's digest is the shim's, of the bytes it ran; the file
	// is hashed only when there is none (tier 2).
	if sum, ok := l.ArtifactSum(); ok {
		id = id.WithArtifact(sum)
	} else if sum, err := pipeline.ArtifactSum(ext.Path); err == nil {
		id = id.WithArtifact(sum)
	}
	who := pipeline.Proposer{Extension: id.WithSignature(rp.Describe()), Tier: ext.Tier, Caps: &caps, Layers: l.Layers()}
	if ext.Manifest != nil {
		g := ext.Manifest.PathGrant(cfg, pathrule.Bytes)
		who.Paths = &g
	}
	return who, nil
}

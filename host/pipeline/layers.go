package pipeline

import (
	"crypto/sha256"
	"io"
	"os"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/shim"
)

// Layers names, in the audit log's vocabulary, what the extension ran
// under: for tier 1 the confinement the shim reported (plus wazero's own
// limits and the process group), for tier 2 the host's bounds and the
// descendant containment the run had.
func (l Launched) Layers() []audit.Layer {
	if l.tier == audit.TierWasm {
		return shimLayers(l.Shim)
	}
	return NativeLayers(l.Child.Containment)
}

// shimLayers maps the confinement the tier-1 shim reported to the audit
// log's layer vocabulary; nil when the shim reported none.
func shimLayers(r *shim.Report) []audit.Layer {
	if r == nil || r.Confinement == nil {
		return nil
	}
	c := r.Confinement
	var out []audit.Layer
	if c.LandlockFS {
		out = append(out, audit.LayerLandlockFS)
	}
	if c.LandlockTCP {
		out = append(out, audit.LayerLandlockNet)
	}
	if c.Seccomp {
		out = append(out, audit.LayerSeccomp)
	}
	return append(out, audit.LayerWazero, audit.LayerMemoryLimit, audit.LayerClock, audit.LayerProcessGroup)
}

// NativeLayers is the audit log's name for what a native child (a tier-2
// extension or an install hook) ran under: the host's deadline and output
// bounds, and the descendant containment c the run reports
// (ContainmentUnknown when it never started, which claims none).
func NativeLayers(c child.Containment) []audit.Layer {
	out := []audit.Layer{audit.LayerDeadline, audit.LayerOutputBounds}
	switch c {
	case child.ContainmentCgroup:
		out = append(out, audit.LayerProcessGroup, audit.LayerCgroup)
	case child.ContainmentSubreaper:
		out = append(out, audit.LayerProcessGroup, audit.LayerSubreaper)
	case child.ContainmentJobObject:
		out = append(out, audit.LayerJobObject)
	case child.ContainmentProcessGroup:
		out = append(out, audit.LayerProcessGroup)
	}
	return out
}

// ArtifactSum is the sha256 of an artifact's bytes, which the audit log
// records beside the extension's name and version.
func ArtifactSum(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

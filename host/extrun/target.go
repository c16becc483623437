package extrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/rejection"
)

// besideDepth is how many directories up from a bare artifact Run looks
// for the manifest that declares it (dist/x.wasm -> its extension
// directory, or one more level for target/<triple>/release/x).
const besideDepth = 4

// adoptManifest makes the dev loop equal production: a bare artifact that
// an enclosing extension directory's manifest declares (as tier1 or
// tier2) runs as that extension — its capabilities, its path grant, its
// managed files (NoticeAdopted). A bare artifact no manifest declares
// runs with no capability and no path grant beyond the root (NoticeBare).
// The first manifest found upwards decides; a hook's is never adopted.
func adoptManifest(ext extension.RunTarget, notify func(Notice)) extension.RunTarget {
	if ext.Manifest != nil {
		return ext
	}
	dir := filepath.Dir(ext.Path)
	for i := 0; i < besideDepth; i++ {
		if _, err := os.Lstat(filepath.Join(dir, extension.ManifestFile)); err == nil {
			if e, err := extension.Load(dir); err == nil {
				for _, a := range e.Artifacts() {
					if a.Present() && a.HostPath() == ext.Path && e.Kind() != extension.KindHook {
						notify(Notice{Kind: NoticeAdopted, Name: ext.Name, Manifest: e.Name(), Tier: a.Tier()})
						return extension.RunTarget{Name: e.Name(), Path: ext.Path, Tier: extension.AuditTier(a.Tier(), e.Kind()), Manifest: e}
					}
				}
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	notify(Notice{Kind: NoticeBare, Name: ext.Name})
	return ext
}

// resolvePin is what the run of ext must hold to: for an extension added
// or linked under home, its pin (host/extension.PinFor) under the trust
// policy cfg sets; nothing for a built-in, a directory or an artifact
// named on the command line. The returned pointer is nil when nothing is
// pinned.
func resolvePin(ext extension.RunTarget, home string, cfg *config.Config) (*[32]byte, extension.RunPin, error) {
	if ext.Manifest == nil {
		return nil, extension.RunPin{}, nil
	}
	tp, err := extension.TrustFromConfig(home, cfg)
	if err != nil {
		return nil, extension.RunPin{}, err
	}
	p, err := ext.Manifest.PinFor(ext.Manifest.Tier(), tp)
	if err != nil || !p.Pinned {
		return nil, p, err
	}
	sum := p.Sum
	return &sum, p, nil
}

// refusePin records a refused pin check in home's audit log when it is a
// rule (always: a changed or unvouched artifact is a security event, dry
// run or not) and returns it as exit 4: nothing ran, nothing was applied.
// A refusal that could not be audited is exit 1.
func refusePin(ext extension.RunTarget, caps capability.Set, home string, cause error) error {
	err := fmt.Errorf("ext run: %w (nothing ran)", cause)
	if len(rejection.All(cause)) == 0 {
		return exitcode.Wrap(exitcode.Extension, err)
	}
	id, ierr := audit.NewExtension(ext.Name, "")
	if ext.Manifest != nil {
		id, ierr = ext.Manifest.AuditIdentity()
	}
	if ierr != nil {
		return exitcode.Wrap(exitcode.Extension, err)
	}
	log, lerr := audit.Open(filepath.Join(home, audit.FileName))
	if lerr != nil {
		return exitcode.Wrap(exitcode.Internal, errors.Join(err, lerr))
	}
	defer log.Close()
	if _, aerr := log.Rejected(audit.Rejection{Extension: id, Tier: ext.Tier, Capabilities: caps.List(), Err: cause}); aerr != nil {
		return exitcode.Wrap(exitcode.Internal, errors.Join(err, aerr))
	}
	return exitcode.Wrap(exitcode.Extension, err)
}

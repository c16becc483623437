package main

import (
	"errors"
	"fmt"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/rejection"
)

// extRunPin is what the run of ext must hold to: for an extension added
// or linked under $LOLA_HOME, its pin (host/extension.PinFor); nothing for
// a built-in, a directory or an artifact named on the command line. The
// returned pointer is nil when nothing is pinned.
func extRunPin(ext extension.RunTarget, st *lolaState) (*[32]byte, extension.RunPin, error) {
	if ext.Manifest == nil {
		return nil, extension.RunPin{}, nil
	}
	tp, err := extTrust(st)
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

// extRunPinRefused records a refused pin check in the audit log (always:
// a changed or unvouched artifact is a security event, dry run or not)
// and maps it to exit 4: nothing ran, nothing was applied.
func extRunPinRefused(ext extension.RunTarget, caps capability.Set, st *lolaState, cause error) error {
	err := fmt.Errorf("ext run: %w (nothing ran)", cause)
	if len(rejection.All(cause)) == 0 {
		return withCode(exitExtension, err)
	}
	id, ierr := audit.NewExtension(ext.Name, "")
	if ext.Manifest != nil {
		id, ierr = ext.Manifest.AuditIdentity()
	}
	if ierr != nil {
		return withCode(exitExtension, err)
	}
	log, lerr := st.openAudit()
	if lerr != nil {
		return withCode(exitInternal, errors.Join(err, lerr))
	}
	defer log.Close()
	if _, aerr := log.Rejected(audit.Rejection{Extension: id, Tier: ext.Tier, Capabilities: caps.List(), Err: cause}); aerr != nil {
		return withCode(exitInternal, errors.Join(err, aerr))
	}
	return withCode(exitExtension, err)
}

package audit

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/lola-pm/lola/host/pathrule"
)

// OverrideAction is what the user explicitly allowed lola to do that it
// refuses by default. Closed.
type OverrideAction string

// Override actions.
const (
	// OverrideForce: `lola install --force` took ownership of existing
	// files lola did not write (conflict.unowned waived); Paths names them.
	OverrideForce OverrideAction = "force"
	// OverrideReplaceSymlink: with the user's consent a symbolic link on a
	// path a plan writes was replaced by a real directory (or removed, for
	// a file) before the plan ran; LinkTarget is the link's old target.
	OverrideReplaceSymlink OverrideAction = "replace-symlink"
	// OverrideRestoreSymlink: an uninstall put back a link an install had
	// replaced; LinkTarget is the target it points at again.
	OverrideRestoreSymlink OverrideAction = "restore-symlink"
)

// OverrideActions lists every override action.
func OverrideActions() []OverrideAction {
	return []OverrideAction{OverrideForce, OverrideReplaceSymlink, OverrideRestoreSymlink}
}

// String returns the wire spelling.
func (a OverrideAction) String() string { return string(a) }

// MarshalText refuses a value outside the vocabulary.
func (a OverrideAction) MarshalText() ([]byte, error) {
	return marshal("override action", a, OverrideActions())
}

// UnmarshalText refuses a spelling outside the vocabulary.
func (a *OverrideAction) UnmarshalText(b []byte) (err error) {
	*a, err = parse("override action", string(b), OverrideActions())
	return
}

// maxLinkTarget bounds a logged link target (PATH_MAX on Linux).
const maxLinkTarget = 4096

// OverrideRecord is what Log.Override writes: an explicit, consented
// override of a default refusal, under the correlation id of the install
// it belongs to. Paths are root-relative plan paths.
type OverrideRecord struct {
	Action OverrideAction // required
	Paths  []string       // at least one; each must parse as a plan path
	// LinkTarget is a symbolic link's target as the link spelled it (the
	// symlink actions only). It is the user's own link text, logged so the
	// replacement can be undone by hand; it may be an absolute path.
	LinkTarget string
}

// OverrideEntry is an override record as stored.
type OverrideEntry struct {
	Action     OverrideAction `json:"action"`
	Paths      []string       `json:"paths"`
	LinkTarget string         `json:"link_target,omitempty"`
}

func (r OverrideRecord) entry() (*OverrideEntry, error) {
	if !member(r.Action, OverrideActions()) {
		return nil, fmt.Errorf("audit: %q is not an override action", string(r.Action))
	}
	if len(r.Paths) == 0 {
		return nil, errors.New("audit: override record without a path")
	}
	paths := make([]string, 0, len(r.Paths))
	for _, p := range r.Paths {
		pp, err := pathrule.Parse(p)
		if err != nil {
			return nil, fmt.Errorf("audit: override path: %w", err)
		}
		paths = append(paths, pp.String())
	}
	if r.Action == OverrideForce && r.LinkTarget != "" {
		return nil, errors.New("audit: a force override has no link target")
	}
	if r.Action != OverrideForce && (r.LinkTarget == "" || len(r.LinkTarget) > maxLinkTarget || !utf8.ValidString(r.LinkTarget)) {
		return nil, errors.New("audit: a symlink override needs its link target (valid UTF-8, at most 4096 bytes)")
	}
	return &OverrideEntry{Action: r.Action, Paths: paths, LinkTarget: r.LinkTarget}, nil
}

// Override appends an override record under c (when zero: the id set by
// Correlate, else a fresh one) and returns the id. The caller writes it
// before acting on the override, so the log never lacks one that happened.
func (l *Log) Override(c Correlation, r OverrideRecord) (Correlation, error) {
	oe, err := r.entry()
	if err != nil {
		return Correlation{}, err
	}
	if c.IsZero() {
		if c, err = l.correlation(); err != nil {
			return Correlation{}, err
		}
	}
	if err := l.append(Entry{Kind: KindOverride, Correlation: c, Override: oe}); err != nil {
		return Correlation{}, err
	}
	return c, nil
}

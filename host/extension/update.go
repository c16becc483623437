package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/schema"
)

// Widening is what a new version of an extension asks for beyond the
// installed one: the user reviews it like a permission upgrade on a phone.
// The zero value asks for nothing more.
type Widening struct {
	Capabilities []schema.Capability // granted now, not before
	Paths        []string            // declared path prefixes the old grant did not cover
	Native       bool                // runs as tier 2 where it ran as tier 1
}

// Empty reports whether the new version asks for nothing more.
func (w Widening) Empty() bool { return len(w.Capabilities) == 0 && len(w.Paths) == 0 && !w.Native }

// String is one line per widening, for the prompt and the refusal.
func (w Widening) String() string {
	var b strings.Builder
	for _, c := range w.Capabilities {
		fmt.Fprintf(&b, "  + capability %s\n", c)
	}
	for _, p := range w.Paths {
		fmt.Fprintf(&b, "  + path grant %s\n", p)
	}
	if w.Native {
		b.WriteString("  + runs native (tier 2, unconfined) where it ran confined (tier 1)\n")
	}
	return b.String()
}

// Widen compares new against old. A path prefix counts as wider unless the
// old declaration covers it bytewise (the strictest relation, so no
// filesystem's folding can hide a widening).
func Widen(old, new *Extension) Widening {
	var w Widening
	for _, c := range new.Capabilities().List() {
		if !old.Capabilities().Has(c) {
			w.Capabilities = append(w.Capabilities, c)
		}
	}
	og := old.Paths().Grant(pathrule.Bytes)
	for _, p := range new.Paths().Prefixes() {
		if !og.Covers(p) {
			w.Paths = append(w.Paths, p.String())
		}
	}
	w.Native = new.Tier() == Tier2 && old.Tier() == Tier1
	return w
}

// Update re-fetches name from the source its lock entry records (or from
// o.From, which the new entry then records; a recorded URL that was
// redacted needs it: ErrSourceHeldBack) and
// replaces the installed version when the new one stages, loads and
// verifies as Add requires, has the same name, and either asks for nothing
// more (Widen) or o.Accept accepts the widening. Otherwise the installed
// version and its pin are untouched (ErrNotAccepted for a refused
// widening). A linked development directory has nothing to update.
func Update(home, name string, o AddOptions) (*Added, error) {
	unlock, err := holdLockMutex(home)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lock, err := ReadLock(home)
	if err != nil {
		return nil, err
	}
	ent, ok := lock.Extensions[name]
	if !ok || !ValidName(name) {
		return nil, fmt.Errorf("%s: %w", quote(name), ErrNotPinned)
	}
	if ent.Dev {
		return nil, fmt.Errorf("%s is a linked development directory: it is re-read on every run; nothing to update", name)
	}
	target := filepath.Join(home, ExtensionsDir, name)
	old, err := loadDir(target, SourceHome)
	if err != nil {
		return nil, fmt.Errorf("the installed %s does not load (%v); lola ext rm it and add it again", name, err)
	}
	o.Name = name
	source := ent.Source
	switch {
	case o.From != "":
		source = o.From
	case heldBack(source):
		return nil, fmt.Errorf("%s (%s): %w", name, ent.Source, ErrSourceHeldBack)
	}
	st, err := stage(home, source, o)
	if err != nil {
		return nil, err
	}
	defer st.cleanup()
	w := Widen(old, st.ext)
	if !w.Empty() && (o.Accept == nil || !o.Accept(w)) {
		return nil, fmt.Errorf("%s: %w:\n%s", name, ErrNotAccepted, strings.TrimRight(w.String(), "\n"))
	}
	// Swap: the old tree moves aside, the new one in; the lock names the
	// new pin only once the new tree is in place; a failed step puts the
	// old tree back.
	aside := filepath.Join(st.dir, "old")
	if err := os.Rename(target, aside); err != nil {
		return nil, fmt.Errorf("cannot move the installed %s aside", name)
	}
	if err := os.Rename(st.root, target); err != nil {
		os.Rename(aside, target)
		return nil, fmt.Errorf("cannot place the new %s", name)
	}
	lock.Extensions[name] = st.entry
	if err := WriteLock(home, lock); err != nil {
		os.RemoveAll(target)
		os.Rename(aside, target)
		return nil, err
	}
	return &Added{Name: name, Entry: st.entry, Widening: w}, nil
}

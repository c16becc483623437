package extension

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Link registers the development directory dir under its manifest's name:
// the lock records the directory (marked dev) and nothing of its bytes, so
// every run re-reads it and a rebuild needs no copy. Guarantees:
//   - dir must load as an extension and hold no symbolic link on the way
//     to its manifest or artifacts, nor anywhere beneath it (a link could
//     make the directory say something else between runs); the same check
//     runs again at every load;
//   - a name already installed or linked is refused (ErrExists), a
//     built-in's name too (ErrBuiltinName);
//   - a tier-2 artifact still needs a verifying bundle or the opt-in: with
//     o.AllowUnsigned the opt-in is recorded for the artifact's present
//     bytes only, so a rebuild needs a new opt-in (or a signature). When
//     it has neither and the tier-1 module is built, the directory is
//     linked for tier 1 (which runs when both are built) and
//     Added.IgnoredNative says why the native one is not: the wasm-only
//     development loop needs no deleting of the native build. A run of
//     the native artifact is still held to PinFor's rule.
//
// The path is recorded absolute; it is the user's own directory and is
// shown to the user only.
func Link(home, dir string, o AddOptions) (*Added, error) {
	unlock, err := holdLockMutex(home)
	if err != nil {
		return nil, err
	}
	defer unlock()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, errors.New("cannot resolve the directory")
	}
	lock, err := ReadLock(home)
	if err != nil {
		return nil, err
	}
	e, err := loadDev(abs)
	if err != nil {
		return nil, err
	}
	name := e.Name()
	if o.Name != "" && o.Name != name {
		return nil, fmt.Errorf("%w (%s, manifest %s)", ErrName, quote(o.Name), quote(name))
	}
	if err := notBuiltin(name); err != nil {
		return nil, err
	}
	if _, ok := lock.Extensions[name]; ok {
		return nil, fmt.Errorf("%s: %w", name, ErrExists)
	}
	if _, err := os.Lstat(filepath.Join(home, ExtensionsDir, name)); err == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrExists)
	}
	if err := noSymlinks(abs); err != nil {
		return nil, err
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	ent := &LockEntry{Source: abs, Dev: true, Dir: abs, Version: e.Version(),
		Artifacts: map[Tier]*LockArtifact{}, Added: now.UTC().Truncate(time.Second)}
	var ignored error
	if a, ok := e.Artifact(Tier2); ok && a.present {
		la, err := checkArtifact(e, a, o.Trust, o.AllowUnsigned)
		switch {
		case err != nil && errors.Is(err, ErrUnsigned) && e.Tier() == Tier1:
			ignored = err
		case err != nil:
			return nil, err
		case la.Verdict == VerdictOptedIn:
			ent.Artifacts[Tier2] = la // the opt-in is for these bytes only
		}
	}
	lock.Extensions[name] = ent
	if err := WriteLock(home, lock); err != nil {
		return nil, err
	}
	return &Added{Name: name, Entry: ent, IgnoredNative: ignored}, nil
}

// maxLinkEntries bounds the symlink walk of a linked directory.
const maxLinkEntries = 20000

// noSymlinks walks dir (without following anything) and refuses the first
// symbolic link, naming it relative to dir.
func noSymlinks(dir string) error {
	n := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return errors.New("the directory cannot be read in full")
		}
		if n++; n > maxLinkEntries {
			return fmt.Errorf("the directory holds more than %d entries", maxLinkEntries)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			rel, _ := filepath.Rel(dir, p)
			return fmt.Errorf("%s is a symbolic link: a linked directory must hold none (path.symlink)", quote(filepath.ToSlash(rel)))
		}
		return nil
	})
}

// loadDev loads a linked directory: as Load, but the directory itself,
// the manifest and each artifact path must have no symlink component.
func loadDev(dir string) (*Extension, error) {
	if fi, err := os.Lstat(dir); err != nil {
		return nil, errors.New("the linked directory is gone")
	} else if !fi.IsDir() {
		return nil, errors.New("the linked path is not a directory (or is a symbolic link)")
	}
	e, err := loadDir(dir, SourceDev)
	if err != nil {
		return nil, err
	}
	check := []string{ManifestFile}
	for _, a := range e.artifacts {
		check = append(check, a.path.String())
	}
	for _, rel := range check {
		p := dir
		for _, c := range strings.Split(rel, "/") {
			p = filepath.Join(p, c)
			if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, fmt.Errorf("%s: a symbolic link on the way (path.symlink); a linked directory must hold none", quote(rel))
			}
		}
	}
	return e, nil
}

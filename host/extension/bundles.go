package extension

import (
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/sigverify"
)

// StaleBundles is what RemoveStaleBundles found beside freshly built
// artifacts.
type StaleBundles struct {
	// Removed are the bundles (slash paths relative to the extension
	// directory) that signed other bytes than the artifact now holds.
	Removed []string
	// Unjudged are bundles whose signed digest could not be read (not a
	// message-signature bundle, a symbolic link, unreadable): left in
	// place, for the caller to name.
	Unjudged []string
}

// RemoveStaleBundles looks at the bundle (<artifact>.sigstore.json) of
// each artifact (slash paths relative to dir) and removes it when the
// digest it says it signs differs from the artifact's sha256: such a
// bundle can never vouch for the artifact again, and left in place it
// makes `ext add` and `ext link` refuse the rebuild with a digest
// mismatch. It vouched for bytes the rebuild replaced, so removing it
// loses nothing that still exists; signing again makes a new one.
//
// Everything is done by descriptor beneath dir, following no symbolic
// link; a bundle that is a link, or whose digest cannot be read, is
// reported in Unjudged and left alone. A missing bundle or artifact is
// skipped. Nothing is verified: this answers "was it made for these
// bytes?", never "is it trusted?".
func RemoveStaleBundles(dir string, artifacts []string) (StaleBundles, error) {
	var out StaleBundles
	r, err := fsroot.Open(dir)
	if err != nil {
		return out, errors.New("cannot open the extension directory")
	}
	defer r.Close()
	for _, rel := range artifacts {
		parent, base := path.Split(rel)
		d := r.Dir()
		if parent = strings.TrimSuffix(parent, "/"); parent != "" {
			sub, err := d.OpenDirRel(parent)
			if err != nil {
				continue // the artifact's directory is not there (or a link): no bundle of ours
			}
			defer sub.Close()
			d = sub
		}
		bundle := rel + BundleSuffix
		e, err := d.Lstat(base + BundleSuffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || e.Kind != fsroot.KindFile {
			out.Unjudged = append(out.Unjudged, bundle)
			continue
		}
		signed, ok := bundleDigestAt(d, base+BundleSuffix)
		sum, err := sumAt(d, base)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if !ok || err != nil {
			out.Unjudged = append(out.Unjudged, bundle)
			continue
		}
		if signed == sum {
			continue
		}
		if err := d.Unlink(base + BundleSuffix); err != nil {
			return out, errors.New("cannot remove " + quote(bundle))
		}
		out.Removed = append(out.Removed, bundle)
	}
	return out, nil
}

func bundleDigestAt(d *fsroot.Dir, name string) ([sha256.Size]byte, bool) {
	f, err := d.OpenFile(name)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxBundleBytes+1))
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sigverify.BundleDigest(b)
}

func sumAt(d *fsroot.Dir, name string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := d.OpenFile(name)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return sum, errors.New("not a regular file")
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

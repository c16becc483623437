package fsroot

import "fmt"

// Findings is what Probe observed about the filesystem under a directory:
// whether names that differ only in case, only in Unicode normalization
// (NFC "é" against NFD "e\u0301"), or only by an HFS+-ignorable code point
// (U+200C) reach the same entry, and whether Linux reports the directory as
// casefolded (FS_CASEFOLD_FL). The first three are behaviour, observed by
// creating a name and looking up its variant; CasefoldFlag is the attribute
// and is informational. pathrule.ForFindings turns the first three into a
// relation.
type Findings struct {
	CaseInsensitive          bool
	NormalizationInsensitive bool
	IgnoresIgnorable         bool
	CasefoldFlag             bool
}

// Probe creates short-lived names in scratch (a directory the host owns,
// on the root's filesystem — the staging directory) and reports how the
// filesystem compares them. It removes what it creates.
func Probe(scratch *Dir) (Findings, error) {
	var f Findings
	var err error
	if f.CaseInsensitive, err = sameEntry(scratch, "lola-probe-case-a", "LOLA-PROBE-CASE-A"); err != nil {
		return f, err
	}
	if f.NormalizationInsensitive, err = sameEntry(scratch, "lola-probe-norm-\u00e9", "lola-probe-norm-e\u0301"); err != nil {
		return f, err
	}
	if f.IgnoresIgnorable, err = sameEntry(scratch, "lola-probe-ign-ab", "lola-probe-ign-a\u200cb"); err != nil {
		return f, err
	}
	f.CasefoldFlag = casefoldFlag(scratch)
	return f, nil
}

// sameEntry creates name and reports whether variant reaches the same
// inode. A filesystem that refuses the variant's bytes outright counts as
// distinguishing them.
func sameEntry(d *Dir, name, variant string) (bool, error) {
	f, err := d.CreateFile(name, 0o600)
	if err != nil {
		return false, fmt.Errorf("fsroot: probe: %w", err)
	}
	f.Close()
	defer d.Unlink(name)
	want, err := d.Lstat(name)
	if err != nil {
		return false, fmt.Errorf("fsroot: probe: %w", err)
	}
	got, err := d.Lstat(variant)
	if err != nil {
		// Missing, or refused outright: either way a distinct name.
		return false, nil
	}
	return got.Ino == want.Ino && got.Dev == want.Dev, nil
}

package pathrule

import "strings"

// The names the host keeps for itself at the top of every root it applies
// to: the apply lock and the staging directories of an apply in progress.
// An older lola created LockName in project roots, so it stays reserved
// even where this host no longer creates it.
const (
	LockName      = ".lola.lock"
	StagingPrefix = ".lola-staging-"
)

// Reserved reports whether c, a root's top-level component, names one of
// the host's own entries (LockName, or any name beginning StagingPrefix)
// under eq or under ASCII case folding, whichever equates more: a spelling
// the target filesystem folds onto a reserved name is that name.
//
// Validate refuses such a path (path.invalid), and the executor refuses it
// again through this same function, so `plan validate` and `plan apply`
// cannot disagree on what is reserved.
func Reserved(eq Equality, c string) bool {
	if strings.EqualFold(c, LockName) || len(c) >= len(StagingPrefix) && strings.EqualFold(c[:len(StagingPrefix)], StagingPrefix) {
		return true
	}
	k := eq.Key(c)
	return k == eq.Key(LockName) || strings.HasPrefix(k, eq.Key(StagingPrefix))
}

// reservedDetail is the diagnostic for a reserved first component.
func reservedDetail(c string) string {
	return "component " + quote(c) + " is reserved for the host"
}

//go:build !linux

package module

// renameNoReplace renames from to to, failing with fs.ErrExist when to
// exists. Off Linux the check and the rename are two steps.
func renameNoReplace(from, to string) error { return renameNoReplacePortable(from, to) }

// exchange swaps from and to; off Linux in two renames (see
// exchangePortable), so the module name is briefly absent.
func exchange(from, to string) error { return exchangePortable(from, to) }

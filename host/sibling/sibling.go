// Package sibling finds the helper executables an installation of lola
// ships beside its own executable (lola-shim, lola-sigstore).
//
// Guarantees: Find returns a path only for a regular file (not a symbolic
// link, a directory or a device) in the same directory as exe, executable
// by someone on Unix, and never exe itself. Such a sibling is trusted
// exactly as much as exe: it was written by the same installation into a
// directory only it controls.
//
// Non-guarantees: the file is checked, not opened; a change between Find
// and the exec that follows it is not seen (whoever can make that change
// can replace exe as well).
package sibling

import (
	"os"
	"path/filepath"
	"runtime"
)

// Find is the executable name beside exe (name.exe on Windows), when it is
// a regular executable file.
func Find(exe, name string) (string, bool) {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(filepath.Dir(exe), name)
	if p == exe {
		return "", false
	}
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || (runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0) {
		return "", false
	}
	return p, true
}

// Beside is Find next to the running executable.
func Beside(name string) (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	return Find(exe, name)
}

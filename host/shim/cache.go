package shim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tetratelabs/wazero"
)

// cacheSubdir is the shim's own directory under the cache root it is given
// ($LOLA_HOME/cache is shared with other caches). wazero keys its entries
// itself: a wazero-<version>-<arch>-<os> directory per wazero version, and
// per module a file named by the SHA-256 of the module bytes and the CPU
// features, so a changed module or a new wazero misses.
const cacheSubdir = "tier1"

// openCache prepares the compilation cache under root: root/tier1, 0700,
// created if missing. The cache holds executable code the shim will map and
// run, so it is trusted input: a directory that is a symlink, not a
// directory, not owned by this user or reachable by group or other is
// refused (the run proceeds uncached, reported as "refused").
func openCache(root string) (wazero.CompilationCache, string, error) {
	if root == "" {
		return nil, "", nil
	}
	dir := filepath.Join(root, cacheSubdir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", err
	}
	for _, d := range []string{root, dir} {
		if err := trustedDir(d, d == dir); err != nil {
			return nil, "", err
		}
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil, "", err
	}
	return c, dir, nil
}

// trustedDir refuses a cache directory someone else could write. strict
// also refuses group or other read/search (the shim's own directory).
func trustedDir(d string, strict bool) error {
	st, err := os.Lstat(d)
	if err != nil {
		return err
	}
	if st.Mode()&os.ModeSymlink != 0 || !st.IsDir() {
		return errors.New("cache directory is not a plain directory")
	}
	if runtime.GOOS == "windows" {
		return nil
	}
	mask := os.FileMode(0o022)
	if strict {
		mask = 0o077
	}
	if st.Mode().Perm()&mask != 0 {
		return fmt.Errorf("cache directory mode %o is too broad", st.Mode().Perm())
	}
	return ownedByMe(st)
}

// purgeCache removes every wazero entry under the shim's cache directory:
// the recovery when a cached entry fails to load.
func purgeCache(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "wazero-") {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// countEntries counts cached modules, to tell a hit (no new entry) from a
// miss (an entry was added).
func countEntries(dir string) int {
	n := 0
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() && strings.HasPrefix(e.Name(), "wazero-") {
			sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
			n += len(sub)
		}
	}
	return n
}

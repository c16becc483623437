package shim

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/tetratelabs/wazero"
)

// cacheSubdir is the shim's own directory under the cache root it is given
// ($LOLA_HOME/cache is shared with other caches). wazero keys its entries
// itself: a wazero-<version>-<arch>-<os> directory per wazero version, and
// per module a file named by the SHA-256 of the module bytes and the CPU
// features, so a changed module or a new wazero misses.
const cacheSubdir = "tier1"

// cacheKey names the directory, under root/tier1, of the running build's
// entries: "wazero-<version>" when the build records wazero's module
// version, otherwise (a development or test build, where wazero itself
// would file everything under "dev") "build-<hash>" from the SHA-256 of
// the running executable, so a rebuilt binary never trusts an older
// binary's machine code.
func cacheKey(info *debug.BuildInfo, ok bool, exeHash func() (string, error)) (string, error) {
	if ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/tetratelabs/wazero" && d.Version != "" && d.Version != "(devel)" && d.Replace == nil {
				return "wazero-" + sanitizeKey(d.Version), nil
			}
		}
	}
	h, err := exeHash()
	if err != nil {
		return "", err
	}
	return "build-" + h, nil
}

func sanitizeKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' {
			return r
		}
		return '_'
	}, s)
}

func executableHash() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// openCache prepares the compilation cache under root: root/tier1/<key>, 0700,
// created if missing. The cache holds executable code the shim will map and
// run, so it is trusted input: a directory that is a symlink, not a
// directory, not owned by this user or reachable by group or other is
// refused (the run proceeds uncached, reported as "refused").
func openCache(root string) (wazero.CompilationCache, string, error) {
	if root == "" {
		return nil, "", nil
	}
	info, ok := debug.ReadBuildInfo()
	key, err := cacheKey(info, ok, executableHash)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(root, cacheSubdir, key)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", err
	}
	for _, d := range []string{root, filepath.Join(root, cacheSubdir), dir} {
		if err := trustedDir(d, d != root); err != nil {
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

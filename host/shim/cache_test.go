package shim

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/shim/shimtest"
)

func cacheFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(root, cacheSubdir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func keyDir(t *testing.T, root string) string {
	t.Helper()
	info, ok := debug.ReadBuildInfo()
	key, err := cacheKey(info, ok, executableHash)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, cacheSubdir, key)
}

func TestCacheKeyNamesTheWazeroBuild(t *testing.T) {
	hash := func() (string, error) { return "h", nil }
	mk := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Deps: []*debug.Module{{Path: "github.com/tetratelabs/wazero", Version: v}}}
	}
	a, _ := cacheKey(mk("v1.12.0"), true, hash)
	b, _ := cacheKey(mk("v1.13.0"), true, hash)
	if a != "wazero-v1.12.0" || b != "wazero-v1.13.0" {
		t.Fatalf("keys %q %q", a, b)
	}
	for _, info := range []*debug.BuildInfo{mk("(devel)"), mk(""), {}} {
		if k, _ := cacheKey(info, true, hash); k != "build-h" {
			t.Fatalf("unversioned build keyed %q", k)
		}
	}
	if k, _ := cacheKey(nil, false, hash); k != "build-h" {
		t.Fatalf("no build info keyed %q", k)
	}
	if k, _ := cacheKey(mk("v1/../../x"), true, hash); strings.ContainsAny(k, "/\\") {
		t.Fatalf("key %q escapes its directory", k)
	}
}

func TestCompilationCacheHitMissAndKeys(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cache")
	modA := writeModule(t, shimtest.Reactor(1, 0, []byte(EmptyPlan)).Bytes())
	l := testLimits(t, nil)
	if d := runShim(t, modA, l, root, nil).expect(t, KindOK); d.Cache != "miss" {
		t.Fatalf("first run: cache %q, want miss", d.Cache)
	}
	if d := runShim(t, modA, l, root, nil).expect(t, KindOK); d.Cache != "hit" {
		t.Fatalf("second run: cache %q, want hit", d.Cache)
	}
	if runtime.GOOS != "windows" {
		for _, d := range []string{filepath.Join(root, cacheSubdir), keyDir(t, root)} {
			st, err := os.Stat(d)
			if err != nil || st.Mode().Perm() != 0o700 {
				t.Fatalf("%s: mode %v (%v), want 0700", d, st.Mode().Perm(), err)
			}
		}
	}
	// Keyed by wazero build: entries of another build's key are never
	// used; moved under another key, the next run misses.
	kd := keyDir(t, root)
	if _, err := os.Stat(kd); err != nil {
		t.Fatalf("no key directory: %v", err)
	}
	if err := os.Rename(kd, filepath.Join(root, cacheSubdir, "wazero-v0.0.1")); err != nil {
		t.Fatal(err)
	}
	if d := runShim(t, modA, l, root, nil).expect(t, KindOK); d.Cache != "miss" {
		t.Fatalf("after a version change: cache %q, want miss", d.Cache)
	}
	// Keyed by module: a one-byte change misses.
	modB := writeModule(t, shimtest.Reactor(1, 0, []byte(EmptyPlan+" ")).Bytes())
	if d := runShim(t, modB, l, root, nil).expect(t, KindOK); d.Cache != "miss" {
		t.Fatalf("changed module: cache %q, want miss", d.Cache)
	}
}

// A corrupted entry is detected (wazero checks a magic, its version and a
// CRC of the code): the shim recompiles, purges the cache, and the plan is
// the right one. Both the header and the code are corrupted in turn.
func TestCorruptCacheEntryIsDetected(t *testing.T) {
	for _, where := range []string{"header", "tail"} {
		t.Run(where, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "cache")
			want := `{"protocol":1,"intents":[{"op":"delete","path":"x"}]}`
			mod := writeModule(t, shimtest.Reactor(1, 0, []byte(want)).Bytes())
			l := testLimits(t, nil)
			runShim(t, mod, l, root, nil).expect(t, KindOK)
			files := cacheFiles(t, root)
			if len(files) == 0 {
				t.Fatal("no cache entry written")
			}
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				switch where {
				case "header":
					for i := 0; i < 8 && i < len(b); i++ {
						b[i] ^= 0xff
					}
				case "tail":
					for i := len(b) - 8; i < len(b); i++ {
						if i >= 0 {
							b[i] ^= 0xff
						}
					}
				}
				if err := os.WriteFile(f, b, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			r := runShim(t, mod, l, root, nil)
			d := r.expect(t, KindOK)
			if d.Cache != "recovered" {
				t.Fatalf("cache %q, want recovered", d.Cache)
			}
			if string(r.stdout) != want {
				t.Fatalf("plan %q", r.stdout)
			}
			if d := runShim(t, mod, l, root, nil).expect(t, KindOK); d.Cache != "miss" {
				t.Fatalf("after recovery: cache %q, want miss", d.Cache)
			}
		})
	}
}

func TestCacheDirectoryTooOpenIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("permission bits do not apply")
	}
	root := filepath.Join(t.TempDir(), "cache")
	if err := os.MkdirAll(keyDir(t, root), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(keyDir(t, root), 0o777); err != nil {
		t.Fatal(err)
	}
	mod := writeModule(t, shimtest.Reactor(1, 0, []byte(EmptyPlan)).Bytes())
	r := runShim(t, mod, testLimits(t, nil), root, nil)
	if d := r.expect(t, KindOK); d.Cache != "refused" {
		t.Fatalf("cache %q, want refused", d.Cache)
	}
	if len(cacheFiles(t, root)) != 0 {
		t.Fatal("the shim wrote into a world-writable cache")
	}
	// A symlinked cache directory is refused too.
	root2 := filepath.Join(t.TempDir(), "cache2")
	os.MkdirAll(root2, 0o700)
	os.Chmod(keyDir(t, root), 0o700)
	os.Symlink(filepath.Join(root, cacheSubdir), filepath.Join(root2, cacheSubdir))
	if d := runShim(t, mod, testLimits(t, nil), root2, nil).expect(t, KindOK); d.Cache != "refused" {
		t.Fatalf("symlinked cache %q, want refused", d.Cache)
	}
	if !strings.HasPrefix(cacheSubdir, "tier1") {
		t.Fatal("cache subdirectory renamed: update the package doc")
	}
}

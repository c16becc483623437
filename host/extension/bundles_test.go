package extension

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/lola-pm/lola/host/sigverify"
)

// After a rebuild, the bundle that signed the old bytes is removed; one
// that signed exactly the present bytes stays; one whose digest cannot be
// read, or that is a symbolic link, is left and named; what a linked
// bundle points to is untouched.
func TestRemoveStaleBundles(t *testing.T) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(b string) string {
		out, err := sigverify.Sign(k, []byte(b))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	dir := mkext(t, t.TempDir(), manifest("x", "target", bothTiers), map[string]string{
		"dist/x.wasm": "rebuilt module", "dist/x.wasm" + BundleSuffix: sign("old module"),
		"dist/x": "same native", "dist/x" + BundleSuffix: sign("same native"),
		"dist/y": "y", "dist/y" + BundleSuffix: `{"dsseEnvelope":{}}`,
		"dist/z": "z",
	})
	links := runtime.GOOS != "windows"
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.json")
	other := sign("old")
	os.WriteFile(elsewhere, []byte(other), 0o644)
	if links {
		if err := os.Symlink(elsewhere, filepath.Join(dir, "dist", "z"+BundleSuffix)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := RemoveStaleBundles(dir, []string{"dist/x.wasm", "dist/x", "dist/y", "dist/z", "dist/absent"})
	if err != nil {
		t.Fatal(err)
	}
	wantUnjudged := []string{"dist/y" + BundleSuffix}
	if links {
		wantUnjudged = append(wantUnjudged, "dist/z"+BundleSuffix)
	}
	if !reflect.DeepEqual(got.Removed, []string{"dist/x.wasm" + BundleSuffix}) || !reflect.DeepEqual(got.Unjudged, wantUnjudged) {
		t.Fatalf("got %+v", got)
	}
	for rel, want := range map[string]bool{"dist/x.wasm" + BundleSuffix: false, "dist/x" + BundleSuffix: true, "dist/y" + BundleSuffix: true} {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel))); (err == nil) != want {
			t.Errorf("%s present: %v, want %v", rel, err == nil, want)
		}
	}
	if b, err := os.ReadFile(elsewhere); err != nil || string(b) != other {
		t.Fatalf("the linked bundle's target was touched: %v", err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "dist", "z"+BundleSuffix)); links && (err != nil || fi.Mode()&os.ModeSymlink == 0) {
		t.Fatalf("the linked bundle was removed: %v", err)
	}
}

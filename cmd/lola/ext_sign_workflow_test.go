package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A rebuild that changes the artifact removes the bundle that signed the
// old bytes and names it; the next add of the unsigned rebuild then says
// it is not signed, never "does not match digest"; a rebuild to the same
// bytes keeps a matching bundle.
func TestExtBuildRemovesTheBundleOfThePreviousBuild(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	t.Setenv("LOLA_HOME", home)
	dir := filepath.Join(base, "hello")
	if code, out, errOut := extCLI(t, "ext", "new", "--lang", "go", "--sdk-go", extTestSDKGoDir(t), "hello", dir); code != exitOK {
		t.Fatalf("ext new: %d\n%s%s", code, out, errOut)
	}
	build := func() (string, []string) {
		t.Helper()
		code, out, errOut := extCLI(t, "ext", "build", "--tier", "2", "--json", dir)
		var rep struct {
			RemovedBundles []string `json:"removed_bundles"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil {
			t.Fatalf("ext build: %d\n%s%s", code, out, errOut)
		}
		return errOut, rep.RemovedBundles
	}
	build()
	keyFile, _ := authorKey(t, base)
	bundle := filepath.Join(dir, "dist", "hello.sigstore.json")
	if code, _, errOut := extCLI(t, "ext", "sign", "--key", keyFile, "--trust", dir); code != exitOK {
		t.Fatalf("sign: %d %s", code, errOut)
	}
	if errOut, removed := build(); len(removed) != 0 || strings.Contains(errOut, "removed") {
		t.Fatalf("a rebuild to the same bytes removed the bundle: %v %s", removed, errOut)
	}
	if _, err := os.Stat(bundle); err != nil {
		t.Fatal("the matching bundle is gone")
	}

	src := filepath.Join(dir, "main.go")
	b, _ := os.ReadFile(src)
	os.WriteFile(src, []byte(strings.Replace(string(b), `dir := "hello/" + m.Name`, `dir := "hello/v2-" + m.Name`, 1)), 0o644)
	errOut, removed := build()
	if len(removed) != 1 || removed[0] != "dist/hello.sigstore.json" || !strings.Contains(errOut, "removed dist/hello.sigstore.json: it signed the previous build") {
		t.Fatalf("stale bundle: %v\n%s", removed, errOut)
	}
	if _, err := os.Stat(bundle); err == nil {
		t.Fatal("the stale bundle is still there")
	}
	code, _, errOut := extCLI(t, "ext", "add", dir)
	if code != exitUsage || !strings.Contains(errOut, "no .sigstore.json bundle") || strings.Contains(errOut, "digest") {
		t.Fatalf("add of the unsigned rebuild: %d %s", code, errOut)
	}
}

// At the CLI: an unverified bundle beside a tier-1 module is refused as
// the tier-1 module's; linking a directory whose native build is unsigned
// links the tier-1 module and says the native one is ignored until signed
// or opted in.
func TestExtTierIsNamedAndLinkIgnoresAnUnsignedNativeBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test extension is a POSIX shell script")
	}
	home, work := t.TempDir(), t.TempDir()
	src := extSignFixture(t, work, "demo")
	os.WriteFile(filepath.Join(src, "dist", "demo.wasm.sigstore.json"), []byte(`{"mediaType":"x"}`), 0o644)
	code, _, errOut := extLsLola(t, home, "ext", "add", "--allow-unsigned", src)
	if code != exitOK {
		// --allow-unsigned opts in for both tiers; without it the tier-1
		// bundle that does not verify is named as the tier-1 module's.
		t.Fatalf("add --allow-unsigned: %d %s", code, errOut)
	}
	extLsLola(t, home, "ext", "rm", "demo")
	code, _, errOut = extLsLola(t, home, "ext", "add", src)
	if code != exitUsage || !strings.Contains(errOut, "artifacts.tier1") || !strings.Contains(errOut, "the tier-1 module") || strings.Contains(errOut, "native") {
		t.Fatalf("add with a bad tier-1 bundle: %d %s", code, errOut)
	}

	os.Remove(filepath.Join(src, "dist", "demo.wasm.sigstore.json"))
	code, out, errOut := extLsLola(t, home, "ext", "link", src)
	if code != exitOK || !strings.Contains(out, "linked demo (dev)") || !strings.Contains(errOut, "native (tier-2) artifact is ignored until it is signed") {
		t.Fatalf("link: %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := extLsLola(t, home, "ext", "ls"); code != exitOK || !strings.Contains(out, "dev") {
		t.Fatalf("ls: %d %s", code, out)
	}
	if code, _, errOut := extLsLola(t, home, "ext", "run", "--root", t.TempDir(), "demo"); code == exitOK || strings.Contains(errOut, "not signed") {
		// The fake tier-1 module is no real module: the run fails in the
		// shim, not at the signature check the native artifact would need.
		t.Fatalf("run: %d %s", code, errOut)
	}
}

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The Rust scaffold is a standard cargo project: no .cargo/ directory and
// no file naming this machine's toolchain or crate source (Debian's
// registry, offline mode, /usr/bin's cargo or rustc), so it builds
// unchanged on a stock machine; lola-sdk is a path dependency on the
// shipped SDK, with the SDK's version.
func TestExtNewRustScaffoldNamesNothingMachineSpecific(t *testing.T) {
	sdk := extOfflineAuthorEnv(t)
	dir := filepath.Join(t.TempDir(), "portable")
	if code, out, errOut := extCLI(t, "ext", "new", "--lang", "rust", "--sdk", sdk, "portable", dir); code != exitOK || strings.Contains(errOut, "warning") {
		t.Fatalf("ext new: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cargo")); err == nil {
		t.Fatal("the scaffold has a .cargo/ directory")
	}
	forbidden := regexp.MustCompile(`(?i)/usr/share/cargo|/usr/bin/|offline|replace-with|\[source|directory\s*=|debian|RUSTC=`)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == "target" {
				return filepath.SkipDir
			}
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := forbidden.Find(b); m != nil {
			rel, _ := filepath.Rel(dir, p)
			t.Errorf("%s names %q", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	toml, _ := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	want := `lola-sdk = { version = "` + extCargoPackageVersion(filepath.Join(sdk, "rust")) + `", path = "` + filepath.ToSlash(filepath.Join(sdk, "rust")) + `" }`
	if !strings.Contains(string(toml), want) {
		t.Fatalf("Cargo.toml lacks %s:\n%s", want, toml)
	}
	lock, _ := os.ReadFile(filepath.Join(dir, "Cargo.lock"))
	if !strings.Contains(string(lock), "version = 3") || !strings.Contains(string(lock), `source = "registry+https://github.com/rust-lang/crates.io-index"`) {
		t.Fatalf("Cargo.lock is not a v3 lockfile of crates.io crates:\n%s", lock)
	}
}

// The recipes per toolchain: the stock one is plain cargo for
// wasm32-wasip1 with no crate source of lola's; where only Debian's
// toolchain builds tier 1, Debian's cargo and rustc build wasm32-wasi and
// every cargo gets Debian's registry on its command line; with neither,
// tier 1 is refused with the rustup command that fixes it.
func TestExtRustRecipesPerToolchain(t *testing.T) {
	stock := extRustToolchain{}
	steps, err := stock.tier1Steps("my_ext", "dist/my-ext.wasm")
	if err != nil || !reflect.DeepEqual(steps[0].args, []string{"cargo", "build", "--release", "--locked", "--target", "wasm32-wasip1", "--lib"}) || steps[0].env != nil ||
		!reflect.DeepEqual(steps[1].args, []string{"cp", filepath.Join("target", "wasm32-wasip1", "release", "my_ext.wasm"), "dist/my-ext.wasm"}) {
		t.Fatalf("stock tier 1: %+v %v", steps, err)
	}
	if s := stock.tier2Steps("my_ext", "dist/my-ext"); !reflect.DeepEqual(s[0].args, []string{"cargo", "build", "--release", "--locked"}) {
		t.Fatalf("stock tier 2: %+v", s)
	}
	if s := stock.lockfileSteps(); !reflect.DeepEqual(s[0].args, []string{"cargo", "generate-lockfile"}) {
		t.Fatalf("stock lockfile: %+v", s)
	}

	deb := extRustToolchain{debian: true}
	src := []string{"--config", `source.crates-io.replace-with="debian"`, "--config", `source.debian.directory="/usr/share/cargo/registry"`, "--config", "net.offline=true"}
	steps, err = deb.tier1Steps("my_ext", "dist/my-ext.wasm")
	if err != nil || !reflect.DeepEqual(steps[0].args, append([]string{"/usr/bin/cargo", "build", "--release", "--locked", "--target", "wasm32-wasi", "--lib"}, src...)) ||
		!reflect.DeepEqual(steps[0].env, []string{"RUSTC=/usr/bin/rustc"}) || steps[1].args[1] != filepath.Join("target", "wasm32-wasi", "release", "my_ext.wasm") {
		t.Fatalf("debian tier 1: %+v %v", steps, err)
	}
	if s := deb.tier2Steps("my_ext", "dist/my-ext"); !reflect.DeepEqual(s[0].args, append([]string{"cargo", "build", "--release", "--locked"}, src...)) {
		t.Fatalf("debian tier 2: %+v", s)
	}
	if s := deb.lockfileSteps(); s[0].args[0] != "/usr/bin/cargo" || !reflect.DeepEqual(s[0].args[2:], src) {
		t.Fatalf("debian lockfile: %+v", s)
	}

	none := extRustToolchain{tier1: extDetectRustMissing}
	if _, err := none.tier1Steps("x", "dist/x.wasm"); err == nil || !strings.Contains(err.Error(), "rustup target add wasm32-wasip1") {
		t.Fatalf("no tier-1 toolchain: %v", err)
	}
}

// A project an older lola scaffolded carries .cargo/config.toml naming
// Debian's registry as source "debian": the registry lola passes on the
// command line has that name too, so cargo merges the two rather than
// refusing one directory defined as two sources.
func TestExtRustCrateSourceMergesWithAnOlderScaffold(t *testing.T) {
	tc := extDetectRust()
	if !tc.debian {
		t.Skip("this machine builds Rust with the stock toolchain")
	}
	sdk := extOfflineAuthorEnv(t)
	dir := filepath.Join(t.TempDir(), "older")
	if code, out, errOut := extCLI(t, "ext", "new", "--lang", "rust", "--sdk", sdk, "older", dir); code != exitOK {
		t.Fatalf("ext new: %d\n%s%s", code, out, errOut)
	}
	os.MkdirAll(filepath.Join(dir, ".cargo"), 0o755)
	os.WriteFile(filepath.Join(dir, ".cargo", "config.toml"), []byte("[source.crates-io]\nreplace-with = \"debian\"\n\n[source.debian]\ndirectory = \"/usr/share/cargo/registry\"\n\n[net]\noffline = true\n"), 0o644)
	os.Remove(filepath.Join(dir, "Cargo.lock"))
	var diag strings.Builder
	for _, s := range tc.lockfileSteps() {
		if err := extRunStep(dir, s, &diag); err != nil {
			t.Fatalf("%v: %v\n%s", s.args, err, diag.String())
		}
	}
}

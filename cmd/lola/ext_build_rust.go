package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// How `lola ext build` builds a Rust extension on the machine it runs on.
//
// The scaffold (templates/rust) is a standard cargo project: crates from
// crates.io, tier 1 for rustup's wasm32-wasip1 target. Nothing in it names
// a machine's toolchain or crate source. Where that standard toolchain is
// there (rustup's rustc has the wasm32-wasip1 standard library), lola runs
// plain cargo, and the environment's own cargo configuration decides where
// crates come from.
//
// Lola's own build machines have no route to crates.io and a rustup that
// cannot add targets; they have Debian's rustc 1.63 with the wasm32-wasi
// standard library and Debian's packaged crates (`make setup` installs
// them). When rustup's wasm32-wasip1 target is missing and that Debian
// toolchain is present, lola builds tier 1 with Debian's cargo and rustc
// for wasm32-wasi, and hands every cargo it runs for the extension (both
// tiers, and the lockfile `lola ext new` writes) Debian's directory
// registry with cargo's --config: command-line configuration, for those
// runs alone. It is never written into the author's project (which then
// builds unchanged on a stock machine) nor into the user's cargo home
// (which would silently redirect every other cargo project of the user).
// The Debian lockfile is cargo's v3, which both cargos read, and its
// checksums are crates.io's own.

// extRustDebian is Debian's Rust toolchain and crate registry.
var extRustDebian = struct{ cargo, rustc, registry, target string }{
	cargo: "/usr/bin/cargo", rustc: "/usr/bin/rustc", registry: "/usr/share/cargo/registry", target: "wasm32-wasi",
}

// extRustStockTarget is rustup's WASI preview 1 target.
const extRustStockTarget = "wasm32-wasip1"

// extRustToolchain is how this machine builds a Rust extension.
type extRustToolchain struct {
	// debian is set when tier 1 is Debian's rustc for wasm32-wasi and the
	// crates come from Debian's registry (see above); otherwise the stock
	// cargo builds wasm32-wasip1 and the environment supplies crates.
	debian bool
	// tier1 is why tier 1 cannot be built here, or nil.
	tier1 error
}

// extDetectRust is how this machine builds a Rust extension; a variable
// so tests can pose as another machine.
var extDetectRust = func() extRustToolchain {
	if extRustHasTarget("rustc", extRustStockTarget) {
		return extRustToolchain{}
	}
	if extRustHasTarget(extRustDebian.rustc, extRustDebian.target) && extIsExecutable(extRustDebian.cargo) && extIsDir(extRustDebian.registry) {
		return extRustToolchain{debian: true}
	}
	return extRustToolchain{tier1: extDetectRustMissing}
}

// extDetectRustMissing: neither toolchain builds tier 1 here.
var extDetectRustMissing = errors.New("tier 1 needs rustup's " + extRustStockTarget + " target: rustup target add " + extRustStockTarget)

// extRustHasTarget reports whether rustc has target's standard library.
func extRustHasTarget(rustc, target string) bool {
	out, err := exec.Command(rustc, "--print", "target-libdir", "--target", target).Output()
	return err == nil && extIsDir(strings.TrimSpace(string(out)))
}

func extIsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func extIsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// crateSource is the cargo --config arguments that point crates.io at
// Debian's registry, offline; none for the stock toolchain.
func (tc extRustToolchain) crateSource() []string {
	if !tc.debian {
		return nil
	}
	// The source is named "debian", as the recipe in lola's TOOLCHAINS.md
	// and the projects of older lolas name it: cargo refuses one directory
	// defined as two sources, and the same name merges with theirs.
	return []string{
		"--config", `source.crates-io.replace-with="debian"`,
		"--config", `source.debian.directory="` + extRustDebian.registry + `"`,
		"--config", "net.offline=true",
	}
}

// tier1Steps builds the cdylib for WASI and copies it to out.
func (tc extRustToolchain) tier1Steps(stem, out string) ([]extBuildStep, error) {
	if tc.tier1 != nil {
		return nil, tc.tier1
	}
	cargo, target, env := "cargo", extRustStockTarget, []string(nil)
	if tc.debian {
		cargo, target, env = extRustDebian.cargo, extRustDebian.target, []string{"RUSTC=" + extRustDebian.rustc}
	}
	args := append([]string{cargo, "build", "--release", "--locked", "--target", target, "--lib"}, tc.crateSource()...)
	return []extBuildStep{
		{args: args, env: env},
		{args: []string{"cp", filepath.Join("target", target, "release", stem+".wasm"), out}},
	}, nil
}

// tier2Steps builds the native binary with the cargo on PATH and copies
// it to out.
func (tc extRustToolchain) tier2Steps(stem, out string) []extBuildStep {
	args := append([]string{"cargo", "build", "--release", "--locked"}, tc.crateSource()...)
	return []extBuildStep{
		{args: args},
		{args: []string{"cp", filepath.Join("target", "release", strings.ReplaceAll(stem, "_", "-")), out}},
	}
}

// lockfileSteps writes a new project's Cargo.lock: Debian's cargo (a v3
// lockfile both cargos read) where it builds tier 1, else the stock one.
func (tc extRustToolchain) lockfileSteps() []extBuildStep {
	if tc.debian {
		args := append([]string{extRustDebian.cargo, "generate-lockfile"}, tc.crateSource()...)
		return []extBuildStep{{args: args, env: []string{"RUSTC=" + extRustDebian.rustc}}}
	}
	return []extBuildStep{{args: []string{"cargo", "generate-lockfile"}}}
}

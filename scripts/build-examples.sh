#!/usr/bin/env bash
# Builds every example extension for both tiers into its dist/ directory:
# Go through `lola ext build`, Rust with Debian's rustc (wasm32-wasi) and
# rustup's cargo (native), AssemblyScript with asc and wasm2c. Then copies
# the built-in assistant targets, each its manifest and its tier-1 artifact
# only (built-ins run confined), into cmd/lola/builtins/, which lola embeds
# (scripts/embed-builtins.sh; make build then links lola again).
set -euo pipefail
cd "$(dirname "$0")/.."
lola=$1
# The Go SDK's targets: the same mappings as the Rust built-ins, kept as
# examples (built and tested, not built-ins) so the Go SDK stays first-class.
for name in claude-code opencode copilot-cli copilot-vscode openclaw; do
	echo "== examples/go-$name (go)"
	"$lola" ext build --tier both "examples/go-$name"
done

rust="cursor claude-code opencode copilot-cli copilot-vscode openclaw"
# Rust tier 1 (the modules lola embeds) is built from a copy of the sources
# in one fixed directory: cargo hashes a path dependency's absolute path
# into symbol names, a stripped module's layout follows them, and the
# embedded bytes must be what a build from any checkout gives. One such
# build at a time per machine (flock); registry crates stay built in its
# target directory, and the copied sources are touched, so ours are always
# rebuilt from this checkout. Source paths in panic messages read /lola.
fixed=/tmp/lola-rust-builtins
exec 9>"$fixed.lock"
flock 9
rm -rf "$fixed/src"
mkdir -p "$fixed/src"
tar --exclude=target --exclude=dist -cf - sdk-rust $(for n in $rust; do echo "examples/$n"; done) | tar -C "$fixed/src" -xf -
find "$fixed/src" -type f -exec touch {} +
for name in $rust; do
	echo "== examples/$name (rust, tier 1)"
	(cd "$fixed/src/examples/$name" &&
		CARGO_TARGET_DIR=$fixed/target RUSTFLAGS="--remap-path-prefix=$fixed/src=/lola" \
			RUSTC=/usr/bin/rustc /usr/bin/cargo build -q --release --locked --target wasm32-wasi --lib)
	mkdir -p "examples/$name/dist"
	cp "$fixed/target/wasm32-wasi/release/lola_${name//-/_}.wasm" "examples/$name/dist/$name.wasm"
done
exec 9>&-
# Rust tier 2 in place: native builds are never embedded. The targets share
# one target directory (the same sdk-rust and serde built once).
export CARGO_TARGET_DIR=$PWD/examples/target
for name in $rust; do
	echo "== examples/$name (rust, tier 2)"
	(cd "examples/$name" && cargo build -q --release --locked &&
		cp "$CARGO_TARGET_DIR/release/$name" "dist/$name")
done
echo "== examples/gemini-cli (assemblyscript)"
(cd examples/gemini-cli && ../../sdk-assemblyscript/build.sh assembly/gemini.ts dist gemini-cli)
ls -l examples/*/dist/ | grep -v '^total'

echo "== built-ins embedded in lola (cmd/lola/builtins/)"
./scripts/embed-builtins.sh claude-code copilot-cli copilot-vscode cursor gemini-cli openclaw opencode
# A builtin/ beside lola overrides the embedded built-in of its name (for
# development); one left by an earlier make build would shadow this build's.
rm -rf "$(dirname "$lola")/builtin"

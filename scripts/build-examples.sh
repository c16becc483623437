#!/usr/bin/env bash
# Builds every example extension for both tiers into its dist/ directory:
# Go through `lola ext build`, Rust with Debian's rustc (wasm32-wasi) and
# rustup's cargo (native), AssemblyScript with asc and wasm2c. Then installs
# the built-in assistant targets beside the lola binary: for each, its
# manifest and its tier-1 artifact only (built-ins run confined) into
# <dir of lola>/builtin/<name>/, where lola registers them at startup (see
# cmd/lola/builtin.go).
set -euo pipefail
cd "$(dirname "$0")/.."
lola=$1
# The Go SDK's targets: the same mappings as the Rust built-ins, kept as
# examples (built and tested, not built-ins) so the Go SDK stays first-class.
for name in claude-code opencode copilot-cli copilot-vscode openclaw; do
	echo "== examples/go-$name (go)"
	"$lola" ext build --tier both "examples/go-$name"
done
# The Rust targets share one target directory (the same sdk-rust and serde
# built once, not once per target).
export CARGO_TARGET_DIR=$PWD/examples/target
for name in cursor claude-code opencode copilot-cli copilot-vscode openclaw; do
	echo "== examples/$name (rust)"
	(cd "examples/$name" &&
		RUSTC=/usr/bin/rustc /usr/bin/cargo build -q --release --locked --target wasm32-wasi --lib &&
		cargo build -q --release --locked &&
		mkdir -p dist &&
		cp "$CARGO_TARGET_DIR/wasm32-wasi/release/lola_${name//-/_}.wasm" "dist/$name.wasm" &&
		cp "$CARGO_TARGET_DIR/release/$name" "dist/$name")
done
echo "== examples/gemini-cli (assemblyscript)"
(cd examples/gemini-cli && ../../sdk-assemblyscript/build.sh assembly/gemini.ts dist gemini-cli)
ls -l examples/*/dist/ | grep -v '^total'

# The built-ins: staged beside builtin/ (a dot name lola ignores), then
# swapped in, so a failed copy never leaves a half-installed set.
bin=$(dirname "$lola")
stage="$bin/.builtin.new"
rm -rf "$stage"
for name in claude-code copilot-cli copilot-vscode cursor gemini-cli openclaw opencode; do
	src=examples/$name
	tier1=$(sed -n 's/^  tier1: *//p' "$src/lola-extension.yaml")
	if [ -z "$tier1" ] || [ ! -f "$src/$tier1" ]; then
		echo "build-examples: $src declares no built tier-1 artifact" >&2
		exit 1
	fi
	mkdir -p "$stage/$name/$(dirname "$tier1")"
	cp "$src/lola-extension.yaml" "$stage/$name/"
	cp "$src/$tier1" "$stage/$name/$tier1"
done
rm -rf "$bin/builtin"
mv "$stage" "$bin/builtin"
echo "== built-ins installed in $bin/builtin/ (lola ext ls, empty LOLA_HOME)"
home=$(mktemp -d)
LOLA_HOME=$home "$lola" ext ls
rm -rf "$home"

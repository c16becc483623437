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
# Source paths a build embeds (Rust panic locations) are spelled from
# /lola, so an embedded built-in is the same bytes in any checkout.
root=$(pwd)
lola=$1
for name in claude-code opencode copilot-cli copilot-vscode openclaw; do
	echo "== examples/$name (go)"
	"$lola" ext build --tier both "examples/$name"
done
echo "== examples/cursor (rust)"
(cd examples/cursor &&
	RUSTFLAGS="--remap-path-prefix=$root=/lola" RUSTC=/usr/bin/rustc /usr/bin/cargo build -q --release --locked --target wasm32-wasi --lib &&
	cargo build -q --release --locked &&
	mkdir -p dist && cp target/wasm32-wasi/release/lola_cursor.wasm dist/cursor.wasm && cp target/release/cursor dist/cursor)
echo "== examples/gemini-cli (assemblyscript)"
(cd examples/gemini-cli && ../../sdk-assemblyscript/build.sh assembly/gemini.ts dist gemini-cli)
ls -l examples/*/dist/ | grep -v '^total'

# The built-ins lola embeds (cmd/lola/builtins/, rebuilt into lola by
# make build) and those still installed beside it in builtin/ (their Go
# tier-1 modules are megabytes each: too large to carry in the source).
embedded="cursor gemini-cli"
besides="claude-code copilot-cli copilot-vscode openclaw opencode"
./scripts/embed-builtins.sh $embedded

# The others: staged beside builtin/ (a dot name lola ignores), then
# swapped in, so a failed copy never leaves a half-installed set.
bin=$(dirname "$lola")
stage="$bin/.builtin.new"
rm -rf "$stage"
for name in $besides; do
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
mkdir -p "$stage"
mv "$stage" "$bin/builtin"

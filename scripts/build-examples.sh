#!/usr/bin/env bash
# Builds every example extension for both tiers into its dist/ directory:
# Go through `lola ext build`, Rust with Debian's rustc (wasm32-wasi) and
# rustup's cargo (native), AssemblyScript with asc and wasm2c.
set -euo pipefail
cd "$(dirname "$0")/.."
lola=$1
echo "== examples/claude-code (go)"
"$lola" ext build --tier both examples/claude-code
echo "== examples/cursor (rust)"
(cd examples/cursor &&
	RUSTC=/usr/bin/rustc /usr/bin/cargo build -q --release --locked --target wasm32-wasi --lib &&
	cargo build -q --release --locked &&
	mkdir -p dist && cp target/wasm32-wasi/release/lola_cursor.wasm dist/cursor.wasm && cp target/release/cursor dist/cursor)
echo "== examples/gemini-cli (assemblyscript)"
(cd examples/gemini-cli && ../../sdk-assemblyscript/build.sh assembly/gemini.ts dist gemini-cli)
ls -l examples/*/dist/ | grep -v '^total'

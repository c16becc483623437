#!/usr/bin/env bash
# Builds an AssemblyScript extension both ways from one entry file:
#   build.sh ENTRY.ts OUTDIR NAME  ->  OUTDIR/NAME.wasm (tier 1), OUTDIR/NAME (tier 2)
# Needs: npm ci in this directory (assemblyscript, json-as), wabt and gcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
entry=$1 out=$2 name=$3
mkdir -p "$out"
# Named anything but assembly/index.ts: json-as treats index.ts as a library.
"$here/node_modules/.bin/asc" "$entry" --transform json-as -O3 --noAssert \
	--runtime incremental --exportStart _initialize \
	--use abort=assembly/lola/lolaAbort -o "$out/$name.wasm"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wasm2c "$out/$name.wasm" -n lola -o "$work/lola.c"
gcc -O2 -I"$work" -I/usr/share/wabt/wasm2c "$here/native/main.c" "$work/lola.c" \
	/usr/share/wabt/wasm2c/wasm-rt-impl.c -lm -o "$out/$name"

#!/usr/bin/env bash
# Builds an AssemblyScript extension both ways from one entry file. Run it
# from the extension's package directory (where its package.json and
# node_modules are; the SDK is the dependency @lola-pm/sdk-assemblyscript):
#   build.sh ENTRY.ts OUTDIR NAME [1|2|both]
#     -> OUTDIR/NAME.wasm (tier 1), OUTDIR/NAME (tier 2; it needs tier 1)
# Needs: npm ci in that directory (assemblyscript, json-as); for tier 2,
# wabt (wasm2c) and gcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
entry=$1 out=$2 name=$3 tiers=${4:-both}
mkdir -p "$out"
# asc names an element by its file's path as asc saw it: the SDK's own
# fixture sees assembly/lola.ts, an extension sees it as a package.
if [ "$(pwd -P)" = "$(cd "$here" && pwd -P)" ]; then
	abort=assembly/lola/lolaAbort
else
	abort=~lib/@lola-pm/sdk-assemblyscript/assembly/lola/lolaAbort
fi
# Named anything but assembly/index.ts: json-as treats index.ts as a library.
./node_modules/.bin/asc "$entry" --transform json-as -O3 --noAssert \
	--runtime incremental --exportStart _initialize \
	--use "abort=$abort" -o "$out/$name.wasm"
[ "$tiers" = 1 ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wasm2c "$out/$name.wasm" -n lola -o "$work/lola.c"
# The runtime's wasm_rt_grow_memory is renamed so the module's memory.grow
# reaches main.c's, which records a refused growth for the trap report.
gcc -O2 -c -I/usr/share/wabt/wasm2c -Dwasm_rt_grow_memory=lola_rt_grow_memory \
	/usr/share/wabt/wasm2c/wasm-rt-impl.c -o "$work/wasm-rt-impl.o"
gcc -O2 -I"$work" -I/usr/share/wabt/wasm2c "$here/native/main.c" "$work/lola.c" \
	"$work/wasm-rt-impl.o" -lm -o "$out/$name"

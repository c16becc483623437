#!/usr/bin/env bash
# Ships the three guest SDKs beside the lola binary, as build-examples.sh
# ships the built-ins, so `lola ext new` can scaffold a project anywhere that
# builds offline against them:
#   <bin>/sdk/go/{sdk-go,schema,host}          the Go modules' sources (a
#                                              scaffold's go.mod replaces all three
#                                              and sdk-go/lolatest, its own module
#                                              inside sdk-go: a test helper no guest
#                                              links, holding plans to host's checks,
#                                              so only it requires host)
#   <bin>/sdk/rust                             the lola-sdk crate (a path dependency)
#   <bin>/sdk/assemblyscript/*.tgz             `npm pack` of the AssemblyScript SDK
# Only files git tracks or would track are shipped (never target/,
# node_modules/, dist/).
# The set is staged beside sdk/ and swapped in, so a failed copy never leaves
# a half-shipped set.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
stage="$bin/.sdk.new"
rm -rf "$stage"
mkdir -p "$stage/go" "$stage/assemblyscript"
copy() { # copy SRC DST: the tracked files of SRC into DST
	git ls-files -z --cached --others --exclude-standard -- "$1" | while IFS= read -r -d '' f; do
		[ -f "$f" ] || continue
		mkdir -p "$2/$(dirname "${f#"$1"/}")"
		cp -p "$f" "$2/${f#"$1"/}"
	done
}
copy sdk-go "$stage/go/sdk-go"
copy schema "$stage/go/schema"
copy host "$stage/go/host"
copy sdk-rust "$stage/rust"
(cd sdk-assemblyscript && npm pack --silent --pack-destination "$OLDPWD/$stage/assemblyscript" >/dev/null)
rm -rf "$bin/sdk"
mv "$stage" "$bin/sdk"
echo "== SDKs shipped in $bin/sdk/: $(cd "$bin/sdk" && echo go/* rust assemblyscript/*)"

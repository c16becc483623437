#!/usr/bin/env bash
# A short run of every fuzz target (make test); FUZZTIME per target.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10s}
grep -rl --include='*_test.go' '^func Fuzz' schema host sdk-go cmd 2>/dev/null | while read -r f; do
	dir=$(dirname "$f")
	mod=${dir%%/*}
	pkg=./${dir#*/}
	[ "$dir" = "$mod" ] && pkg=.
	for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
		echo "== fuzz $dir $fn ($t)"
		(cd "$mod" && go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$t" "$pkg")
	done
done

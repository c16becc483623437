#!/usr/bin/env bash
# A short run of every fuzz target (make test); FUZZTIME per target. The
# budget is a count of executions (Nx), not a duration: Go 1.26's
# coordinator can report a spurious "context deadline exceeded" failure
# when a duration expires mid-execution (go.dev/issue/75804, fixed in 1.27).
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-50000x}
# Targets whose every execution unpacks an archive onto disk run a fifth of
# the count: at 50000x they took 70-80 s each, half of the fuzz step.
slow=${FUZZ_SLOW:-5000x}
grep -rl --include='*_test.go' '^func Fuzz' schema host sdk-go cmd 2>/dev/null | while read -r f; do
	dir=$(dirname "$f")
	mod=${dir%%/*}
	pkg=./${dir#*/}
	[ "$dir" = "$mod" ] && pkg=.
	for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
		n=$t
		case "$fn" in FuzzUnpackZip | FuzzUnpackTar | FuzzAddArchive) n=$slow ;; esac
		echo "== fuzz $dir $fn ($n)"
		# -fuzzminimizetime=0: in a run this short, minimizing each new
		# input can outlast the run, which the engine then reports as a
		# failure ("context deadline exceeded"); a crasher is still kept
		# unminimized in testdata/fuzz.
		(cd "$mod" && go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$n" -fuzzminimizetime=0 "$pkg")
	done
done

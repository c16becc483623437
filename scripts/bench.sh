#!/usr/bin/env bash
# make bench: every module's Go benchmarks, then the ratios that the
# performance targets are stated in, side by side. Benchmarks measure;
# nothing here asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-$(mktemp -t lola-bench.XXXXXX)}
: > "$out"
for m in schema host sdk-go cmd conformance; do
	echo "== bench $m"
	(cd "$m" && go test -run='^$' -bench=. -benchmem -count=1 ./... 2>&1) | tee -a "$out" | grep -E '^(Benchmark|---|FAIL|panic)' || true
done
echo
echo "== ratios (numerator / denominator, ns/op)"
awk -f scripts/benchratio.awk "$out"
echo "(raw results: $out)"

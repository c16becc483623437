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

# Every fsync-family call of one applied plan through the built CLI (the
# executor's, the journal's and the audit log's), for 1 and for 10 000
# intents, with a warm $LOLA_HOME on the root's filesystem: the total must
# not grow with the plan, and is 3 on Linux (syncfs before the first
# change, syncfs after the commit record, fsync of the outcome record; 4
# when $LOLA_HOME lies on another filesystem). flock is shown, not counted.
if command -v strace >/dev/null && [ -x bin/lola ]; then
	echo
	echo "== fsync, fdatasync, syncfs and flock calls per applied plan (bin/lola plan apply, strace -f)"
	tmp=$(mktemp -d -t lola-bench-sync.XXXXXX)
	for n in 1 10000; do
		awk -v n="$n" 'BEGIN { printf "{\"protocol\":1,\"intents\":["; for (i = 0; i < n; i++) printf "%s{\"op\":\"write\",\"path\":\"d%02d/f%05d.md\",\"content\":\"x%d\"}", (i ? "," : ""), i % 100, i, i; print "]}" }' > "$tmp/plan$n.json"
		mkdir "$tmp/root$n"
		LOLA_HOME="$tmp/home" bin/lola plan apply --root "$tmp/root$n" "$tmp/plan$n.json" > /dev/null 2>&1 || true
		rm -rf "$tmp/root$n" && mkdir "$tmp/root$n"
		LOLA_HOME="$tmp/home" strace -f -qq -c -e trace=fsync,fdatasync,syncfs,flock -o "$tmp/strace$n" \
			bin/lola plan apply --root "$tmp/root$n" "$tmp/plan$n.json" > /dev/null || echo "  (the apply of $n intents failed)"
		printf "  %6d intents:" "$n"
		awk '$NF ~ /^(fsync|fdatasync|syncfs|flock)$/ { printf " %s=%s", $NF, $4; if ($NF != "flock") total += $4 }
			END { printf "  total fsync-family=%d\n", total }' "$tmp/strace$n"
	done
	rm -rf "$tmp"
fi

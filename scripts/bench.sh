#!/usr/bin/env bash
# Runs the Go benchmarks of every module and prints them.
set -euo pipefail
cd "$(dirname "$0")/.."
for m in schema host sdk-go cmd conformance; do
	echo "== bench $m"
	(cd "$m" && go test -run='^$' -bench=. -benchmem ./... 2>&1 | grep -Ev '^(PASS|ok|\?)' || true)
done

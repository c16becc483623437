#!/usr/bin/env bash
# Installs what the build needs from the registries this kind of machine
# reaches (Go module proxy, Debian apt, npm). Idempotent: every step checks
# before it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
want_apt() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed' || need_apt+=("$1"); }

# Rust tier 1: Debian's rustc 1.63 with the wasm32-wasi std and rust-lld
# (lld-14 is only Recommended but provides it); crates from Debian's registry.
for p in rustc cargo libstd-rust-dev-wasm32 lld-14 librust-serde-dev \
	librust-serde-derive-dev librust-serde-json-dev; do want_apt "$p"; done
# AssemblyScript tier 2: wasm2c and its runtime; gcc compiles the result.
for p in wabt gcc; do want_apt "$p"; done

if [ ${#need_apt[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: need Debian packages ${need_apt[*]}; run as root or install them" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

for m in schema host sdk-go cmd conformance; do (cd "$m" && go mod download); done
# And cmd's own versions outside the workspace: what `go install
# github.com/lola-pm/lola/cmd/lola` resolves (cmd/lola's go-install test
# builds it that way, with the module cache as its only proxy).
(cd cmd && GOWORK=off go mod download)

# AssemblyScript: exact versions from each package's committed lockfile.
for d in sdk-assemblyscript examples/gemini-cli; do
	if [ ! -x "$d/node_modules/.bin/asc" ] || [ "$d/package-lock.json" -nt "$d/node_modules/.package-lock.json" ]; then
		(cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
	fi
done

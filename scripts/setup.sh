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

# What `lola ext new` runs offline for a Go extension: `go mod tidy` of a
# project requiring sdk-go through a local replace, outside the workspace.
# Tidy loads sdk-go's test imports at the versions sdk-go's own go.mod
# selects (not the workspace's), which `go mod download` above leaves out
# of the module cache; one tidy of such a project here puts them there.
probe=$(mktemp -d)
root=$(pwd)
cat >"$probe/go.mod" <<EOF
module setupprobe

go $(go env GOVERSION | sed 's/^go//; s/^\([0-9]*\.[0-9]*\).*/\1/')

require github.com/lola-pm/lola/sdk-go v0.0.0

replace (
	github.com/lola-pm/lola/sdk-go => $root/sdk-go
	github.com/lola-pm/lola/schema => $root/schema
)
EOF
printf 'package main\n\nimport _ "github.com/lola-pm/lola/sdk-go"\n\nfunc main() {}\n' >"$probe/main.go"
(cd "$probe" && GOWORK=off GOFLAGS=-mod=mod go mod tidy) || { rm -rf "$probe"; exit 1; }
rm -rf "$probe"

# AssemblyScript: exact versions from each package's committed lockfile.
for d in sdk-assemblyscript examples/gemini-cli; do
	if [ ! -x "$d/node_modules/.bin/asc" ] || [ "$d/package-lock.json" -nt "$d/node_modules/.package-lock.json" ]; then
		(cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
	fi
done

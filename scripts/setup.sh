#!/usr/bin/env bash
# Installs what the build needs from the registries this kind of machine
# reaches (Go module proxy, Debian apt, npm). Idempotent: every step checks
# before it installs.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
want_apt() { dpkg -s "$1" >/dev/null 2>&1 || need_apt+=("$1"); }

if [ ${#need_apt[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: need Debian packages ${need_apt[*]}; run as root or install them" >&2
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

for m in schema host sdk-go cmd; do (cd "$m" && go mod download); done

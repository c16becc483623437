#!/usr/bin/env bash
# The release archive works alone: make dist of this machine's linux
# archive into a scratch directory, check SHA256SUMS and the SBOMs, unpack
# the archive into an empty directory and, with a fresh HOME and nothing
# else on PATH but the system's, install a one-skill module with every
# built-in lola lists.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
# This machine's linux archive only: make test's cross step already
# builds every Go module for the other platforms, and the archives differ
# only in GOOS/GOARCH (set DISTCHECK_ALL=1 to build all four here).
arch=$(go env GOARCH)
platforms=linux/$arch
[ -n "${DISTCHECK_ALL:-}" ] && platforms="linux/amd64 linux/arm64 darwin/arm64 windows/amd64"
VERSION=9.9.9-check PLATFORMS=$platforms ./scripts/dist.sh "$scratch/dist" >/dev/null
(cd "$scratch/dist" && sha256sum -c --quiet SHA256SUMS)
for p in $platforms; do
	[ -f "$scratch/dist/lola_9.9.9-check_${p/\//_}.tar.gz" ] || { echo "distcheck: no $p archive" >&2; exit 1; }
done
mkdir "$scratch/unpacked"
tar -C "$scratch/unpacked" -xzf "$scratch/dist/lola_9.9.9-check_linux_$arch.tar.gz"
top=$scratch/unpacked/lola_9.9.9-check_linux_$arch
for b in lola lola-shim lola-sigstore; do
	grep -q '"bomFormat": "CycloneDX"' "$top/sbom/$b.cdx.json" || { echo "distcheck: sbom/$b.cdx.json is not a CycloneDX SBOM" >&2; exit 1; }
done
grep -q 'tetratelabs/wazero' "$top/sbom/lola.cdx.json" || { echo "distcheck: lola's SBOM does not list wazero" >&2; exit 1; }
home=$scratch/home
mkdir -p "$home" "$scratch/kit/skills/tidy"
printf -- '---\nname: tidy\ndescription: Tidy the code.\n---\n# Tidy\n' >"$scratch/kit/skills/tidy/SKILL.md"
run() { (cd "$scratch" && env -i HOME="$home" PATH=/usr/bin:/bin "$top/lola" "$@"); }
[ "$(run --version)" = "lola 9.9.9-check" ] || { echo "distcheck: lola --version: $(run --version)" >&2; exit 1; }
run mod add "$scratch/kit" >/dev/null
names=$(run ext ls --json | python3 -c 'import json,sys; print(" ".join(e["name"] for e in json.load(sys.stdin)["extensions"] if e["source"] == "builtin"))')
[ "$(wc -w <<<"$names")" -eq 7 ] || { echo "distcheck: built-ins listed: $names (want 7)" >&2; exit 1; }
for n in $names; do
	mkdir -p "$scratch/project-$n"
	run install kit -a "$n" "$scratch/project-$n" >/dev/null
	if ! find "$scratch/project-$n" "$home" -path "$home/.lola" -prune -o -type f -print | grep -q tidy; then
		echo "distcheck: install -a $n wrote no tidy skill" >&2
		exit 1
	fi
done
echo "distcheck: the linux/$arch archive installs with all 7 built-ins ($names) from an empty directory"

#!/usr/bin/env bash
# make dist: release archives of lola for linux/amd64, linux/arm64,
# darwin/arm64 and windows/amd64, into ${1:-dist}/:
#   lola_<version>_<os>_<arch>.tar.gz   lola, lola-shim, lola-sigstore (.exe
#       on Windows; the built-in targets are embedded in lola), README.md,
#       and sbom/<binary>.cdx.json, a CycloneDX SBOM of each binary made
#       from its own build information (cyclonedx-gomod bin);
#   SHA256SUMS                          the archives' sha256, sha256sum -c format.
# Archives are deterministic for a given version and tree: entries sorted,
# owner 0, times fixed. The version is $VERSION, else `git describe`, else
# 0.0.0-dev; it is stamped into lola (lola --version).
# Needs make build first (it regenerates the embedded built-ins).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null | sed 's/^v//' || true)}
version=${version:-0.0.0-dev}
platforms=${PLATFORMS:-linux/amd64 linux/arm64 darwin/arm64 windows/amd64}
sbomtool=github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -f "$out"/lola_*.tar.gz "$out/SHA256SUMS"
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	ext=; [ "$os" = windows ] && ext=.exe
	name=lola_${version}_${os}_${arch}
	dir=$work/$name
	mkdir -p "$dir/sbom"
	echo "== $name"
	for b in lola lola-shim lola-sigstore; do
		(cd cmd && GOOS=$os GOARCH=$arch CGO_ENABLED=0 go build -trimpath \
			-ldflags "-s -w -X main.version=$version" -o "$dir/$b$ext" "./$b")
		GOWORK=off GOFLAGS= go run "$sbomtool" bin -json -version "v$version" \
			-output "$dir/sbom/$b.cdx.json" "$dir/$b$ext" 2>/dev/null
	done
	cp README.md "$dir/"
	tar -C "$work" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
		-cf - "$name" | gzip -n -9 >"$out/$name.tar.gz"
done
(cd "$out" && sha256sum lola_*.tar.gz >SHA256SUMS)
ls -l "$out"

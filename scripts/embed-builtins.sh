#!/usr/bin/env bash
# Copies the named built-in targets, each its manifest and its tier-1
# artifact only (built-ins run confined), from examples/<name>/ into
# cmd/lola/builtins/<name>/, which cmd/lola embeds (cmd/lola/builtin_embedded.go).
# The tree is staged beside (a dot name go:embed ignores) and swapped in
# only when it differs, so an unchanged build leaves it, and its mtimes,
# alone. Prints "changed" when it swapped.
set -euo pipefail
cd "$(dirname "$0")/.."
dst=cmd/lola/builtins
stage=cmd/lola/.builtins.new
rm -rf "$stage"
mkdir -p "$stage"
for name in "$@"; do
	src=examples/$name
	tier1=$(sed -n 's/^  tier1: *//p' "$src/lola-extension.yaml")
	if [ -z "$tier1" ] || [ ! -f "$src/$tier1" ]; then
		echo "embed-builtins: $src declares no built tier-1 artifact" >&2
		exit 1
	fi
	mkdir -p "$stage/$name/$(dirname "$tier1")"
	cp "$src/lola-extension.yaml" "$stage/$name/"
	cp "$src/$tier1" "$stage/$name/$tier1"
	chmod 0644 "$stage/$name/lola-extension.yaml" "$stage/$name/$tier1"
done
if diff -r "$stage" "$dst" >/dev/null 2>&1; then
	rm -rf "$stage"
else
	rm -rf "$dst"
	mv "$stage" "$dst"
	echo changed
fi

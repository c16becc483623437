#!/usr/bin/env bash
# The main job, end to end.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "demo: not yet wired"

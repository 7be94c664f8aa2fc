#!/usr/bin/env bash
# Proves the set-up contract: a fresh clone builds the site and passes the
# tests with nothing but `make site` and `make test` (missing packages are
# installed by the Makefile itself).
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$repo" "$tmp/clone"
cd "$tmp/clone"
make site
test -f public/index.html
BOARDPRESS_FRESH=0 make test
echo "fresh clone: make site and make test passed"

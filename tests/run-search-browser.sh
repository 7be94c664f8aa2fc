#!/usr/bin/env bash
# run-search-browser.sh — search in a real browser (tests/browser/search.mjs):
# the fixture site (tests/browser/site) built with $BP and opened from
# file://, then served by `$BP serve` from a copy with the real templates/
# and static/; Debian's Chromium driven by playwright-core (installed as
# run-browser.sh does). Screenshots go to tests/browser/screenshots/.
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BP=$(realpath "${BP:-build/boardpress}")
bash tests/browser/ready.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-search-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$BP" build -q --content tests/browser/site --out "$work/built"
mkdir -p "$work/site"
cp -r tests/browser/site "$work/site/content"
cp -r templates static "$work/site/"
cd tests/browser
node search.mjs "$BP" "$work/built" "$work/site" "$root/tests/browser/screenshots"

#!/usr/bin/env bash
# run-inview.sh — results in view (tests/browser/inview.mjs): builds the
# real site with $BP and checks, in Debian's Chromium at 1280×800 and
# 375×667, that every move of a live level's controls shows what it
# changed inside the viewport, and every option a level's verdict.
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
out=$BUILD/test-inview
mkdir -p "$out"
tests/browser/ready.sh
"$BP" build -q --out "$out/site" --cache "$out/cache"
exec node tests/browser/inview.mjs "$out/site"

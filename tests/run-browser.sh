#!/usr/bin/env bash
# run-browser.sh — the page script and stylesheet in a real browser: builds
# the fixture site (tests/browser/site) with $BP, then tests/browser/test.mjs
# serves it on 127.0.0.1 and drives Debian's Chromium with playwright-core
# (pinned by tests/browser/package-lock.json; never downloads a browser).
# Screenshots go to tests/browser/screenshots/ (git-ignored).
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
out=$BUILD/test-browser/site
mkdir -p "$BUILD/test-browser"

# Chromium, and playwright-core as the lockfile pins it
tests/browser/ready.sh

"$BP" build -q --content tests/browser/site --out "$out"
cd tests/browser
exec node test.mjs "../../$out" screenshots

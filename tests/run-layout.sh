#!/usr/bin/env bash
# run-layout.sh — the real site (content/) as a reader sees it on a phone, a
# tablet and a desktop, light and dark: builds it with the release
# boardpress, then tests/browser/layout.mjs drives Debian's Chromium
# (playwright-core, axe-core: both pinned by tests/browser/package-lock.json,
# installed with npm ci when missing; no browser download) over every page
# at 320, 375, 768 and 1280 px. Screenshots: $BUILD/test-layout/shots/.
# Env: BUILD (default build), BP_RELEASE (default $BUILD/boardpress),
#      BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BP_RELEASE=${BP_RELEASE:-$BUILD/boardpress}
out=$BUILD/test-layout
rm -rf "$out/site" "$out/shots"
mkdir -p "$out"

tests/browser/ready.sh

# the site's own build, with its own cache, never the user's public/
"$BP_RELEASE" build -q --out "$out/site" --cache "$out/cache"
cd tests/browser
exec node layout.mjs "../../$out/site" "../../$out/shots"

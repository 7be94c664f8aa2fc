#!/usr/bin/env bash
# run-layout.sh — the real site (content/) as a reader sees it on a phone, a
# tablet and a desktop, light and dark: builds it with the release
# boardpress, then tests/browser/layout.mjs drives Debian's Chromium
# (playwright-core, axe-core: both pinned by tests/browser/package-lock.json,
# installed with npm ci when missing; no browser download) over every page
# at 320, 375, 768 and 1280 px, LAYOUT_JOBS widths at a time (default 2).
# Screenshots: $BUILD/test-layout/shots/.
# Env: BUILD (default build), BP_RELEASE (default $BUILD/boardpress),
#      BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
BP_RELEASE=${BP_RELEASE:-$BUILD/boardpress}
shots=$BUILD/test-layout/shots
rm -rf "$shots"
mkdir -p "$shots"
browser_ready
workdir layout
# the site's own build, with its own cache, never the user's public/
"$BP_RELEASE" build -q --out "$work/site" --cache "$work/cache"
node tests/browser/layout.mjs "$work/site" "$shots"

#!/usr/bin/env bash
# run-live-browser.sh — live levels in Debian's Chromium: builds the real
# site and the live fixture (tests/browser/live-site) with $BP, then
# tests/browser/live.mjs drives every live level of both (see there) and
# compares every number with the native `boardpress sim`. Screenshots go to
# tests/browser/screenshots/ (git-ignored). playwright-core as
# tests/run-browser.sh installs it (tests/browser/package-lock.json).
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir live-browser
"$BP" build -q --out "$work/content" --cache "$work/cache"
"$BP" build -q --content tests/browser/live-site --out "$work/fixture" --cache "$work/cache"
# the native numbers to compare with: the release build (the sanitizer
# build gives the same bits, tests/run-wasm.sh; it is only slower)
native=$BUILD/boardpress
[ -x "$native" ] || native=$BP
node tests/browser/live.mjs "$native" "$SHOTS" \
  "$work/content:content" "$work/fixture:tests/browser/live-site"

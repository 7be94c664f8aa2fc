#!/usr/bin/env bash
# run-search-browser.sh — search in a real browser (tests/browser/search.mjs):
# the fixture site (tests/browser/site) built with $BP and opened from
# file://, then served by `$BP serve` from a copy with the real templates/
# and static/; Debian's Chromium driven by playwright-core (installed as
# run-browser.sh does). Screenshots go to tests/browser/screenshots/.
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir search-browser
"$BP" build -q --content tests/browser/site --out "$work/built" --cache "$work/cache"
site_copy tests/browser/site "$work/site"
cd tests/browser
node search.mjs "$BP" "$work/built" "$work/site" "$SHOTS"

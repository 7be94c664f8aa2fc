#!/usr/bin/env bash
# run-browser.sh — the page script and stylesheet in a real browser: builds
# the fixture site (tests/browser/site) with $BP, then tests/browser/test.mjs
# serves it on 127.0.0.1 and drives Debian's Chromium with playwright-core
# (pinned by tests/browser/package-lock.json; never downloads a browser).
# Screenshots go to tests/browser/screenshots/ (git-ignored).
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir browser
"$BP" build -q --content tests/browser/site --out "$work/site" --cache "$work/cache"
cd tests/browser
node test.mjs "$work/site" "$SHOTS"

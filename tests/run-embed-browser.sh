#!/usr/bin/env bash
# run-embed-browser.sh — a live level's embed page (SLUG/embed/ID/) inside
# an <iframe> on another origin (tests/browser/embed.mjs): the live fixture
# (tests/browser/live-site) built with $BP and served on 127.0.0.1, framed
# by a page served as localhost; Debian's Chromium driven by
# playwright-core. Screenshots go to tests/browser/screenshots/.
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir embed-browser
"$BP" build -q --no-cache --content tests/browser/live-site --out "$work/built"
cd tests/browser
node embed.mjs "$work/built" "$SHOTS"

#!/usr/bin/env bash
# run-serve-browser.sh — `boardpress serve` in a real browser: copies the
# fixture site (tests/serve/site, with content/catalog.yaml and the real
# templates/ and static/) into a folder of its own, then
# tests/browser/preview.mjs starts `$BP serve --port 0` there and drives
# Debian's Chromium with playwright-core (installed as run-browser.sh does):
# the reload on save, the error overlay, the stylesheet swap, many tabs, Ctrl-C.
# Screenshots go to tests/browser/screenshots/ (git-ignored).
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir serve-browser
site_copy tests/serve/site "$work/site"
cp content/catalog.yaml "$work/site/content/"
cd tests/browser
node preview.mjs "$BP" "$work/site" "$SHOTS"

#!/usr/bin/env bash
# run-inview.sh — results in view (tests/browser/inview.mjs): builds the
# real site with $BP and checks, in Debian's Chromium at 1280×800 and
# 375×667, that every move of a live level's controls shows what it
# changed inside the viewport, and every option a level's verdict.
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir inview
"$BP" build -q --out "$work/site" --cache "$work/cache"
node tests/browser/inview.mjs "$work/site"

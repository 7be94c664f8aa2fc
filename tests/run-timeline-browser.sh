#!/usr/bin/env bash
# run-timeline-browser.sh — timelines to step through and their folds
# (tests/browser/timeline.mjs): builds the real site with $BP and checks,
# in Debian's Chromium at 375 and 1280 px, light and dark, that the step
# buttons move the highlight through the rows in order by the keyboard,
# that folds open with and without the script, and that folding shortens
# the ten-deliveries timeline on a phone. Screenshots in
# tests/browser/screenshots/.
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
. "$(dirname "$0")/lib.sh"
browser_ready
workdir timeline-browser
"$BP" build -q --out "$work/site" --cache "$work/cache"
node tests/browser/timeline.mjs "$work/site" "$SHOTS"

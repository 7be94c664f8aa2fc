#!/usr/bin/env bash
# run-live.sh — live levels outside the browser (issue 16): the page's
# number formatting is fmt.c's (tests/live/fmt.js against fmt_dump), the
# wire bytes a live level's page puts together are `boardpress sim LEVEL
# --set PATH=VALUE --wire`'s for every value of every choice of the real
# site and of the live fixture (tests/live/wire.js), and a site or page
# without a live level gets no simulator: no module or live scripts in its
# static/, no script tags for them. The browser side: run-live-browser.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BP=${BP:-$BUILD/asan/boardpress}
NATIVE=$BUILD/boardpress
WASM=$BUILD/wasm/simcore.wasm
DUMP=$BUILD/asan/tests/fmt_dump
for f in "$NATIVE" "$BP" "$WASM" "$DUMP"; do
  [ -e "$f" ] || { echo "run-live: $f is missing (make test-build)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node tests/live/fmt.js "$DUMP"

"$BP" build -q --out "$tmp/content" --cache "$tmp/cache"
"$BP" build -q --content tests/browser/live-site --out "$tmp/fixture" --cache "$tmp/cache"
"$BP" build -q --content tests/browser/site --out "$tmp/plain" --cache "$tmp/cache"
node tests/live/wire.js "$NATIVE" "$WASM" "$tmp/content:content" "$tmp/fixture:tests/browser/live-site"

# The simulator goes only where a live level is: the assets come with it ...
fail=0
live_files="simcore.wasm bp-sim.js bp-fmt.js bp-live.js bp-live-worker.js"
for f in $live_files; do
  for site in content fixture; do
    cmp -s "$tmp/$site/static/$f" \
      "$( [ "$f" = simcore.wasm ] && echo "$WASM" || echo "generator/web/$f")" ||
      { echo "run-live: $site/static/$f is not the program's $f"; fail=1; }
  done
  [ ! -e "$tmp/plain/static/$f" ] || { echo "run-live: a site without live levels got static/$f"; fail=1; }
done
# ... and only pages with one load it.
while IFS= read -r -d '' page; do
  if grep -q 'class="bp-level bp-live-level' "$page"; then
    grep -q 'bp-live.js' "$page" || { echo "run-live: $page has a live level but no bp-live.js"; fail=1; }
  elif grep -qE 'bp-(sim|fmt|live)\.js|simcore\.wasm' "$page"; then
    echo "run-live: $page has no live level but loads the simulator"
    fail=1
  fi
done < <(find "$tmp/content" "$tmp/fixture" "$tmp/plain" -name index.html -print0 | sort -z)
[ "$fail" = 0 ] || exit 1
echo "live: the simulator is published and loaded only with live levels"

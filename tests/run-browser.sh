#!/usr/bin/env bash
# run-browser.sh — the page script and stylesheet in a real browser: builds
# the fixture site (tests/browser/site) with $BP, then tests/browser/test.mjs
# serves it on 127.0.0.1 and drives Debian's Chromium with playwright-core
# (pinned by tests/browser/package-lock.json; never downloads a browser).
# Screenshots go to tests/browser/screenshots/ (git-ignored).
# Env: BP (default build/boardpress), BUILD (default build),
#      BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
out=$BUILD/test-browser/site
mkdir -p "$BUILD/test-browser"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
chromium=${BP_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "run-browser: $chromium is missing (make test installs Debian's chromium)"
  exit 1
fi

# playwright-core as the lockfile pins it: install when missing or different.
want=$(node -p "require('./tests/browser/package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('./tests/browser/node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$have" != "$want" ]; then
  echo "run-browser: installing playwright-core $want with npm ci (no browser download)"
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

"$BP" build -q --content tests/browser/site --out "$out"
cd tests/browser
exec node test.mjs "../../$out" screenshots

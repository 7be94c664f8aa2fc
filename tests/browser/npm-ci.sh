#!/usr/bin/env bash
# npm-ci.sh — playwright-core as tests/browser/package-lock.json pins it:
# installed with npm ci when missing or different (never a browser
# download: the tests drive Debian's Chromium). For the browser tests.
set -euo pipefail
cd "$(dirname "$0")"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
want=$(node -p "require('./package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('./node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$have" != "$want" ]; then
  echo "browser tests: installing playwright-core $want with npm ci (no browser download)"
  npm ci --no-audit --no-fund --loglevel=error
fi

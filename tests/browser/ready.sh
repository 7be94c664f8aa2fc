#!/usr/bin/env bash
# ready.sh — what the browser tests need before they start: Debian's
# Chromium ($BP_CHROMIUM, default /usr/bin/chromium; make test installs it)
# and the npm packages exactly as package-lock.json pins them
# (playwright-core, axe-core): `npm ci` when any is missing or at another
# version, else nothing. Never downloads a browser.
set -euo pipefail
cd "$(dirname "$0")"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
chromium=${BP_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "browser tests: $chromium is missing (make test installs Debian's chromium)"
  exit 1
fi
stale=$(node -e '
  const lock = require("./package-lock.json").packages;
  for (const [k, v] of Object.entries(lock)) {
    if (!k.startsWith("node_modules/")) continue;
    let have = "";
    try { have = require("./" + k + "/package.json").version; } catch {}
    if (have !== v.version) console.log(k.slice(13) + " " + v.version);
  }')
if [ -n "$stale" ]; then
  echo "browser tests: installing with npm ci (pinned by package-lock.json): $(echo $stale)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# ensure.sh — sourced by the scripts that drive Debian's Chromium
# (tests/run-browser.sh, tests/run-live-browser.sh, tests/bench/run.py's
# live rows): checks the browser is there and installs playwright-core as
# tests/browser/package-lock.json pins it when it is missing or another
# version (npm ci; never a browser download). Run from the repository's
# top; $1 names the caller in messages. Sets $chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
chromium=${BP_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "$1: $chromium is missing (make test installs Debian's chromium)" >&2
  exit 1
fi
want=$(node -p "require('./tests/browser/package-lock.json').packages['node_modules/playwright-core'].version")
have=$(node -p "try { require('./tests/browser/node_modules/playwright-core/package.json').version } catch { '' }")
if [ "$have" != "$want" ]; then
  echo "$1: installing playwright-core $want with npm ci (no browser download)" >&2
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >&2)
fi

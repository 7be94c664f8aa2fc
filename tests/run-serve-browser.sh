#!/usr/bin/env bash
# run-serve-browser.sh — `boardpress serve` in a real browser: copies the
# fixture site (tests/serve/site, with content/catalog.yaml and the real
# templates/ and static/) into a folder of its own, then
# tests/browser/preview.mjs starts `$BP serve --port 0` there and drives
# Debian's Chromium with playwright-core (installed as run-browser.sh does):
# live reload, the error overlay, the stylesheet swap, many tabs, Ctrl-C.
# Screenshots go to tests/browser/screenshots/ (git-ignored).
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BP=$(realpath "${BP:-build/boardpress}")
chromium=${BP_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "run-serve-browser: $chromium is missing (make test installs Debian's chromium)"
  exit 1
fi
bash tests/browser/ready.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/bp-serve-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/site"
cp -r tests/serve/site "$work/site/content"
cp content/catalog.yaml "$work/site/content/"
cp -r templates static "$work/site/"
cd tests/browser
node preview.mjs "$BP" "$work/site" "$root/tests/browser/screenshots"

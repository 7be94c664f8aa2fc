#!/usr/bin/env bash
# run-embed-browser.sh — a live level's embed page (SLUG/embed/ID/) inside
# an <iframe> on another origin (tests/browser/embed.mjs): the live fixture
# (tests/browser/live-site) built with $BP and served on 127.0.0.1, framed
# by a page served as localhost; Debian's Chromium driven by
# playwright-core. Screenshots go to tests/browser/screenshots/.
# Env: BP (default build/boardpress), BP_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BP=$(realpath "${BP:-build/boardpress}")
bash tests/browser/ready.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-embed-browser.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$BP" build -q --no-cache --content tests/browser/live-site --out "$work/built"
mkdir -p tests/browser/screenshots
cd tests/browser
node embed.mjs "$work/built" "$root/tests/browser/screenshots"

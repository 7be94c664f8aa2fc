#!/usr/bin/env bash
# run-cards.sh — every page has a share card, SLUG/card.png: a 1200x630 PNG
# with the same bytes on two builds (two output folders; cards are never cached); with
# site.yaml's base_url each page's head names it in og:image with
# og:title, og:description and twitter:card; without one the tags are left
# out and the build says so once. On the real site and on tests/feed/site
# (no boards, a home page of its own).
# Env: BP (boardpress to run, default build/boardpress), BUILD (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-cards.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1764633600
fail=0

# png_size FILE: "WIDTHxHEIGHT" from the PNG's signature and IHDR chunk
png_size() {
  /usr/bin/python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read(33)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
print(f"{w}x{h}")
PY
}

check_site() { # check_site NAME CONTENT-DIR
  local name=$1 content=$2
  "$BP" build --cache "$work/cache" --content "$content" --out "$work/$name-a" 2>"$work/$name-a.err" ||
    { cat "$work/$name-a.err"; fail=1; return; }
  "$BP" build -q --cache "$work/cache" --content "$content" --out "$work/$name-b"
  local pages=0
  while IFS= read -r page; do
    pages=$((pages + 1))
    dir=$(dirname "$page")
    card=$dir/card.png
    rel=${card#"$work/$name-a/"}
    if [ ! -f "$card" ]; then
      echo "run-cards: $name: ${page#"$work/$name-a/"} has no card.png"
      fail=1
      continue
    fi
    size=$(png_size "$card")
    [ "$size" = 1200x630 ] || { echo "run-cards: $name: $rel is $size, not 1200x630"; fail=1; }
    cmp -s "$card" "$work/$name-b/$rel" || { echo "run-cards: $name: $rel differs between two builds"; fail=1; }
    if grep -q 'property="og:' "$page"; then
      echo "run-cards: $name: ${page#"$work/$name-a/"} has og: tags without a base_url"
      fail=1
    fi
  done < <(find "$work/$name-a" -name index.html -not -path '*/static/*' -not -path '*/embed/*/index.html' | sort)
  [ $pages -ge 2 ] || { echo "run-cards: $name: only $pages pages"; fail=1; }
  n=$(grep -c "no base_url, so the pages have no share tags" "$work/$name-a.err" || true)
  [ "$n" = 1 ] || { echo "run-cards: $name: the missing base_url was said $n times, not once"; fail=1; }
}

check_site real content
cp -r tests/feed/site "$work/feed-content"
cp content/catalog.yaml "$work/feed-content/"
check_site feed "$work/feed-content"

# with a base_url: the tags, with absolute addresses
cp -r content "$work/with-base"
echo "base_url: https://example.org/mm" >>"$work/with-base/site.yaml"
"$BP" build --cache "$work/cache" --content "$work/with-base" --out "$work/base" 2>"$work/base.err"
if grep -q "no base_url" "$work/base.err"; then
  echo "run-cards: the build with a base_url says it has none"
  fail=1
fi
page=$work/base/outbox/index.html
for want in '<meta property="og:title" content="The outbox">' \
  '<meta property="og:image" content="https://example.org/mm/outbox/card.png">' \
  '<meta property="og:image:width" content="1200">' \
  '<meta property="og:url" content="https://example.org/mm/outbox/">' \
  '<meta name="twitter:card" content="summary_large_image">' \
  '<meta property="og:description" content="A handler cannot record'; do
  grep -qF "$want" "$page" || { echo "run-cards: outbox/index.html lacks $want"; fail=1; }
done
grep -qF '<meta property="og:image" content="https://example.org/mm/card.png">' "$work/base/index.html" ||
  { echo "run-cards: the home page's og:image is not the site's card"; fail=1; }
# every og:image names a card the build wrote
grep -ho 'property="og:image" content="[^"]*"' "$work"/base/index.html "$work"/base/*/index.html |
  sed 's#.*content="https://example.org/mm/##; s#"$##' | while read -r f; do
    [ -f "$work/base/$f" ] || { echo "run-cards: og:image names $f, which the build did not write"; exit 1; }
  done || fail=1

[ $fail = 0 ] && echo "run-cards: every page's card is a 1200x630 PNG, the same on two builds; og: tags only with base_url"
exit $fail

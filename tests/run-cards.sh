#!/usr/bin/env bash
# run-cards.sh — with site.yaml's base_url every page has a share card,
# SLUG/card.png: a 1200x630 PNG with the same bytes on two builds (two
# output folders), named in its head's og:image with og:title,
# og:description and twitter:card. Without one no page names a card, so
# none is drawn or written, the tags are left out, the build says so once,
# and a link to a card is an error. On the real site and on
# tests/feed/site (no boards, a home page of its own).
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

# pages_of OUT: every page's index.html (not the embeds')
pages_of() {
  find "$1" -name index.html -not -path '*/static/*' -not -path '*/embed/*/index.html' | sort
}

# without base_url: no card, no og: tag, the note said once
check_without() { # check_without NAME CONTENT-DIR
  local name=$1 content=$2 out=$work/$1-none
  "$BP" build --cache "$work/cache" --content "$content" --out "$out" 2>"$out.err" ||
    { cat "$out.err"; fail=1; return; }
  local pages=0 cards
  while IFS= read -r page; do
    pages=$((pages + 1))
    if grep -q 'property="og:' "$page"; then
      echo "run-cards: $name: ${page#"$out/"} has og: tags without a base_url"
      fail=1
    fi
  done < <(pages_of "$out")
  [ $pages -ge 2 ] || { echo "run-cards: $name: only $pages pages"; fail=1; }
  cards=$(find "$out" -name card.png | wc -l)
  [ "$cards" = 0 ] || { echo "run-cards: $name: $cards cards written without a base_url"; fail=1; }
  n=$(grep -c "no base_url, so the pages have no share tags (og:image needs an absolute address) and no cards" "$out.err" || true)
  [ "$n" = 1 ] || { echo "run-cards: $name: the missing base_url was said $n times, not once"; fail=1; }
}

# with base_url: a 1200x630 card per page, the same on two builds (the
# second's from the drawing cache), named in its head
check_with() { # check_with NAME CONTENT-DIR (a copy: base_url is added to its site.yaml)
  local name=$1 content=$2 out=$work/$1-base
  echo "base_url: https://example.org/mm" >>"$content/site.yaml"
  rm -rf "$work/cache"
  "$BP" build --cache "$work/cache" --content "$content" --out "$out" 2>"$out.err" ||
    { cat "$out.err"; fail=1; return; }
  if grep -q "no base_url" "$out.err"; then
    echo "run-cards: $name: the build with a base_url says it has none"
    fail=1
  fi
  "$BP" build -q --cache "$work/cache" --content "$content" --out "$out-b"
  local pages=0
  while IFS= read -r page; do
    pages=$((pages + 1))
    card=$(dirname "$page")/card.png
    rel=${card#"$out/"}
    if [ ! -f "$card" ]; then
      echo "run-cards: $name: ${page#"$out/"} has no card.png"
      fail=1
      continue
    fi
    size=$(png_size "$card")
    [ "$size" = 1200x630 ] || { echo "run-cards: $name: $rel is $size, not 1200x630"; fail=1; }
    cmp -s "$card" "$out-b/$rel" || { echo "run-cards: $name: $rel differs between two builds"; fail=1; }
    url=https://example.org/mm/${rel}
    grep -qF "<meta property=\"og:image\" content=\"$url\">" "$page" ||
      { echo "run-cards: $name: ${page#"$out/"} does not name its card $url"; fail=1; }
  done < <(pages_of "$out")
  [ $pages -ge 2 ] || { echo "run-cards: $name: only $pages pages"; fail=1; }
  cached=$(find "$work/cache" -name 'draw-*.card' | wc -l)
  [ "$cached" = "$pages" ] || { echo "run-cards: $name: $cached cards in the cache for $pages pages"; fail=1; }
}

check_without real content
cp -r tests/feed/site "$work/feed-content"
cp content/catalog.yaml "$work/feed-content/"
check_without feed "$work/feed-content"

cp -r content "$work/with-base"
check_with real "$work/with-base"
check_with feed "$work/feed-content"
page=$work/real-base/outbox/index.html
for want in '<meta property="og:title" content="The outbox">' \
  '<meta property="og:image:width" content="1200">' \
  '<meta property="og:url" content="https://example.org/mm/outbox/">' \
  '<meta name="twitter:card" content="summary_large_image">' \
  '<meta property="og:description" content="A handler cannot record'; do
  grep -qF "$want" "$page" || { echo "run-cards: outbox/index.html lacks $want"; fail=1; }
done

# a card comes from the cache only for the same words: a new title redraws
# that page's card, and no other
sed -i 's/^title: .*/title: A title of its own/' "$work/feed-content/second.md"
"$BP" build -q --cache "$work/cache" --content "$work/feed-content" --out "$work/feed-retitled"
for f in "$work/feed-base"/*/card.png "$work/feed-base"/card.png; do
  rel=${f#"$work/feed-base/"}
  if [ "$rel" = second/card.png ]; then
    cmp -s "$f" "$work/feed-retitled/$rel" && { echo "run-cards: a new title kept the card of before"; fail=1; }
  else
    cmp -s "$f" "$work/feed-retitled/$rel" || { echo "run-cards: a new title of second.md changed $rel"; fail=1; }
  fi
done

# a link to a card: a file the site has with base_url, an error without
cp -r tests/feed/site "$work/link"
cp content/catalog.yaml "$work/link/"
printf '\nThe [card of this page](card.png).\n' >>"$work/link/second.md"
if "$BP" build -q --cache "$work/cache" --content "$work/link" --out "$work/link-none" 2>"$work/link.err"; then
  echo "run-cards: a link to card.png without a base_url built"
  fail=1
elif ! grep -q "second.md:.*error: .*card.png" "$work/link.err"; then
  echo "run-cards: a link to card.png without a base_url failed, but not at the link:"
  cat "$work/link.err"
  fail=1
fi
echo "base_url: https://example.org/mm" >>"$work/link/site.yaml"
"$BP" build -q --cache "$work/cache" --content "$work/link" --out "$work/link-base" ||
  { echo "run-cards: a link to card.png with a base_url did not build"; fail=1; }

[ $fail = 0 ] && echo "run-cards: with base_url every page's card is a 1200x630 PNG, the same on two builds, cached under its words, named in og: tags; without one no card, no tags, and a link to one is an error"
exit $fail

#!/usr/bin/env bash
# run-feed.sh — feed.xml is an Atom feed with every element RFC 4287
# requires, read by a real feed parser (python3-feedparser, for Debian's /usr/bin/python3) with the
# titles, links and dates the pages give (front matter date/updated, else
# SOURCE_DATE_EPOCH), for the fixture tests/feed/site (with the real
# catalog) without and with a base_url, and for the real site. First proves
# the checker fails on a feed that lacks a required element.
# Env: BP (boardpress to run, default build/boardpress), BUILD (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-feed.XXXXXX")
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1764633600 # 2025-12-02T00:00:00Z
fail=0

cp -r tests/feed/site "$work/content"
cp content/catalog.yaml "$work/content/"
cat >"$work/expect-relative.tsv" <<'TSV'
A first page <with> "marks"	first/	2026-11-20T00:00:00Z	2026-03-01T00:00:00Z
A second page	second/	2026-05-04T00:00:00Z	2026-05-04T00:00:00Z
A third page	third/	2025-12-02T00:00:00Z	-
TSV
"$BP" build -q --content "$work/content" --out "$work/public" --cache "$work/cache"
/usr/bin/python3 tests/check_feed.py "$work/public/feed.xml" "$work/expect-relative.tsv" || fail=1
grep -q '<updated>2026-11-20T00:00:00Z</updated>' <(sed -n '1,/<entry>/p' "$work/public/feed.xml") ||
  { echo "run-feed: the feed's updated is not its newest entry's"; fail=1; }
grep -q 'type="application/atom+xml"[^>]*href="../feed.xml"' "$work/public/first/index.html" ||
  { echo "run-feed: a page's head does not point at the feed"; fail=1; }

# with a base_url: absolute links and ids, and a self link
echo "base_url: https://example.org/docs" >>"$work/content/site.yaml"
sed 's#\t\([a-z]*/\)\t#\thttps://example.org/docs/\1\t#' "$work/expect-relative.tsv" >"$work/expect-absolute.tsv"
"$BP" build -q --content "$work/content" --out "$work/public" --cache "$work/cache"
/usr/bin/python3 tests/check_feed.py "$work/public/feed.xml" "$work/expect-absolute.tsv" || fail=1
grep -q '<id>https://example.org/docs/second/</id>' "$work/public/feed.xml" ||
  { echo "run-feed: with base_url an entry's id is not its address"; fail=1; }
grep -q '<link rel="self" type="application/atom+xml" href="https://example.org/docs/feed.xml"/>' \
  "$work/public/feed.xml" || { echo "run-feed: no self link with base_url"; fail=1; }

# the checker can fail: a feed without the entries' updated
sed '/<entry>/,/<\/entry>/{/<updated>/d}' "$work/public/feed.xml" >"$work/broken.xml"
if /usr/bin/python3 tests/check_feed.py "$work/broken.xml" "$work/expect-absolute.tsv" >"$work/broken.out"; then
  echo "run-feed: check_feed.py passed a feed whose entries lack <updated>"
  fail=1
elif ! grep -q 'entry 1: 0 <updated> elements' "$work/broken.out"; then
  echo "run-feed: check_feed.py did not name the missing <updated>:"
  cat "$work/broken.out"
  fail=1
fi

# the real site: every page in it, in the site's order
"$BP" build -q --out "$work/real" --cache "$work/cache"
/usr/bin/python3 - "$work/real/feed.xml" <<'PY' || fail=1
import sys, feedparser
f = feedparser.parse(sys.argv[1])
assert not f.bozo and f.version == "atom10", f.get("bozo_exception")
assert len(f.entries) >= 2 and all(e.title and e.link and e.updated for e in f.entries)
PY

[ $fail = 0 ] && echo "run-feed: feed.xml is valid Atom with every required element, read by feedparser"
exit $fail

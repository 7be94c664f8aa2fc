#!/usr/bin/env bash
# run-scale.sh — output grows linearly with the pages. A generated site
# (tests/bench/gen_site.py: ~4 KB pages, no boards) is built with the real
# templates and static files at 100 and at 2,000 pages; the bigger one may
# write no more bytes per page than the smaller (within 10 %). A nav that
# listed every page on every page wrote 830 KB a page at 20,000 pages.
# Sizes only, never times (timing is make bench's).
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/asan/boardpress}
BP=$(realpath "$BP")
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

per_page() { # per_page PAGES: bytes written per page, with the real templates
  local n=$1 site=$work/site-$1
  python3 "$root/tests/bench/gen_site.py" "$n" "$site" >/dev/null
  (cd "$site/bp" && SOURCE_DATE_EPOCH=0 "$BP" build -q --no-cache --out "$work/out-$n" \
    --templates "$root/templates" --static "$root/static")
  local bytes
  bytes=$(find "$work/out-$n" -type f -printf '%s\n' |
    awk '{ s += $1 } END { print s }')
  echo $((bytes / n))
}

small=$(per_page 100)
big=$(per_page 2000)
echo "scale: bytes written per page: $small at 100 pages, $big at 2,000 pages"
if [ $((big * 10)) -gt $((small * 11)) ]; then
  echo "scale: FAIL: 2,000 pages write more than 1.1 times the bytes per page of 100"
  exit 1
fi
echo "scale: ok (output linear in pages)"

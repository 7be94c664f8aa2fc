#!/usr/bin/env bash
# run-html.sh — every generated page is valid HTML (Debian's tidy with
# tests/tidy.conf) and every internal link and #anchor resolves
# (tests/check_links.py), for two builds: the real content and the browser
# test's fixture site. First proves both checks fail on tests/html/bad/.
# Env: BP (boardpress to run, default build/boardpress), BUILD (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
out=$BUILD/test-html
mkdir -p "$out"

# Attributes tidy 5.6 does not know yet although HTML5 allows them: its
# "proprietary attribute" warning is dropped for these and nothing else
# (aria-current is ARIA 1.1; width and height on a <picture>'s <source>
# came to the HTML standard in 2021, so each rendering of a drawing keeps
# its own box while it loads).
allowed='proprietary attribute "(aria-current)"|<source> proprietary attribute "(width|height)"'

# tidy_page FILE: prints the problems tidy finds in FILE (none: no output).
tidy_page() {
  local msgs
  msgs=$(tidy -config tests/tidy.conf -e -q "$1" 2>&1 >/dev/null || true)
  [ -z "$msgs" ] || grep -Ev "$allowed" <<<"$msgs" || true
}

fail=0

# 1. Both checks can fail: the known-bad page gives exactly the expected lines.
got=$(cd tests/html/bad && tidy -config ../../tidy.conf -e -q index.html 2>&1 >/dev/null || true)
if [ "$got" != "$(cat tests/html/bad-tidy.expected)" ]; then
  echo "run-html: tidy did not report the known problems of tests/html/bad/index.html:"
  diff <(cat tests/html/bad-tidy.expected) <(echo "$got") || true
  fail=1
fi
if got=$(python3 tests/check_links.py tests/html/bad 2>/dev/null); then
  echo "run-html: check_links.py passed tests/html/bad, which has broken links"
  fail=1
elif [ "$got" != "$(cat tests/html/bad.expected)" ]; then
  echo "run-html: check_links.py did not report the known problems of tests/html/bad:"
  diff <(cat tests/html/bad.expected) <(echo "$got") || true
  fail=1
fi

# 2. Build the sites.
"$BP" build -q --out "$out/content" --cache "$out/cache"
"$BP" build -q --content tests/browser/site --out "$out/fixture" --cache "$out/cache"

# 3. Each page validates; each site's links resolve.
for site in "$out/content" "$out/fixture"; do
  pages=0
  while IFS= read -r -d '' page; do
    pages=$((pages + 1))
    problems=$(tidy_page "$page")
    if [ -n "$problems" ]; then
      echo "$problems"
      fail=1
    fi
  done < <(find "$site" -name '*.html' -print0 | sort -z)
  if [ "$pages" = 0 ]; then
    echo "run-html: $site has no pages"
    fail=1
  fi
  echo "run-html: tidy checked $pages pages of $site"
  python3 tests/check_links.py "$site" || fail=1
done

if [ "$fail" != 0 ]; then
  echo "run-html: FAILED"
  exit 1
fi
echo "run-html: all pages valid, all internal links resolve"

#!/usr/bin/env bash
# run-words.sh — the real site (content/) speaks the reader's words: builds
# it, then tests/check_words.py reads every page's text, alt text and the
# drawings' <text> for the simulator's own words ("job", "jobs", a goal of
# "none", "for forever", a count named "charged twice", crash settings as
# "of commits", the build's "variants", a back-off "×1 each try") and for one lost answer named two ways on a board and its
# timeline. First proves the checker fails on tests/words/bad/.
# Env: BP (boardpress to run, default build/boardpress), BUILD (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
BP=${BP:-build/boardpress}
BUILD=${BUILD:-build}
out=$BUILD/test-words
rm -rf "$out"
mkdir -p "$out"
fail=0

# 1. The checker can fail: the known-bad pages give exactly the expected lines.
if python3 tests/check_words.py tests/words/bad >"$out/bad.txt"; then
  echo "words: the checker passed tests/words/bad/, which breaks every rule"; fail=1
fi
if ! diff -u tests/words/bad.expected "$out/bad.txt"; then
  echo "words: the checker's findings on tests/words/bad/ changed (above)"; fail=1
fi

# 2. The real site.
if ! "$BP" build -q --out "$out/site" --cache "$out/cache" 2>"$out/build.txt"; then
  echo "words: the site did not build:"; cat "$out/build.txt"; exit 1
fi
if ! python3 tests/check_words.py "$out/site"; then
  echo "words: the site above uses the simulator's words where a reader reads"; fail=1
fi
[ $fail = 0 ] && echo "words: ok"
exit $fail

#!/usr/bin/env bash
# run-watch.sh — `boardpress watch`: a --cache inside a watched folder
# brings no rebuild (it rebuilt forever when the build wrote there); a source folder
# replaced by a copy (mv content content.old && cp -r content.old content) is
# followed, and one that is gone for a while is waited for, not rebuilt
# without; every folder is watched, however many; a folder that cannot be
# watched is said, with its path and why. Every step waits for the line it
# expects (a minute at most), never for a fixed time.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/asan/boardpress}
BP=$(realpath "$BP")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bp-watch.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "watch: FAIL: $*"; [ -f "$tmp/err" ] && sed 's/^/  | /' "$tmp/err"; exit 1; }
# wait_for PATTERN [COUNT]: until stderr holds COUNT lines matching PATTERN (60 s at most)
wait_for() {
  for _ in $(seq 600); do
    [ "$(grep -c -- "$1" "$tmp/err" 2>/dev/null || true)" -ge "${2:-1}" ] && return 0
    sleep 0.1
  done
  fail "no '$1' (${2:-1} times) on stderr"
}

site=$tmp/site
mkdir -p "$site"
cp -r "$root/tests/golden/cases/inline-values/content" "$site/content"
cp "$root/tests/golden/catalog.yaml" "$site/content/"
cp -r "$root/tests/golden/templates" "$root/tests/golden/static" "$site/"
cd "$site"

# A cache inside content/ is refused by the build (it would write into the
# sources), and watch does not take that for a change: no rebuild comes of
# it. Without the refusal, watch skips --out and --cache all the same.
BOARDPRESS_WATCH_MAX=1 "$BP" watch --cache content/cache 2>"$tmp/err" &
pid=$!
wait_for "watching"
grep -q "^content/cache: error: refusing to keep the cache here" "$tmp/err" ||
  fail "the cache inside content/ was not refused"
# the one rebuild allowed is the edit's: none came before it
sed -i 's/^Mean /Median /' content/values.md
wait_for " changed;"
grep " changed;" "$tmp/err" | head -1 | grep -q "^boardpress: content/values.md changed;" ||
  fail "a rebuild came from the failed build"
wait "$pid" 2>/dev/null || true
pid=
sed -i 's/^Median /Mean /' content/values.md
: >"$tmp/err"
BOARDPRESS_WATCH_MAX=3 "$BP" watch 2>"$tmp/err" &
pid=$!
wait_for "watching"
sed -i 's/^Mean /Average /' content/values.md
wait_for "^boardpress: content/values.md changed; rebuilt in"
# the first rebuild is the edit's: none came of the build's own writing
grep " changed;" "$tmp/err" | head -1 | grep -q "^boardpress: content/values.md changed;" ||
  fail "a rebuild came from the build's own writing"
grep -q "<p>Average " public/values/index.html || fail "the edit did not reach the site"

# The content folder replaced by a copy of itself: still watched.
mv content content.old && cp -r content.old content
wait_for "rebuilt in" 2
sed -i 's/^Average /Typical /' content/values.md
wait_for "^boardpress: content/values.md changed; rebuilt in" 2
grep -q "<p>Typical " public/values/index.html || fail "an edit in the replaced folder did not reach the site"
wait "$pid" || true
pid=
rm -rf content.old
grep -q "error: no such folder" "$tmp/err" && fail "a rebuild ran while content/ was being replaced"

# The content folder gone for a while (moved away, then back): waited for,
# then one rebuild with it, no error.
: >"$tmp/err"
BOARDPRESS_WATCH_MAX=1 "$BP" watch 2>"$tmp/err" &
pid=$!
wait_for "watching"
mv content content.away
wait_for "^boardpress: content is gone; waiting up to [0-9]* s for it to come back"
sed -i 's/^Typical /Usual /' content.away/values.md
mv content.away content
wait_for "rebuilt in"
grep -q "error" "$tmp/err" && fail "a rebuild failed while content/ was away"
grep -q "<p>Usual " public/values/index.html || fail "the content that came back was not built"
wait "$pid" || true
pid=
echo "watch: a cache inside content/ brings no rebuild; a replaced content/ is followed; one away for a while is waited for"

# More folders than the 4,096 watch used to stop at without a word.
mkdir -p content/many
(cd content/many && seq -f 'd%04g' 0 4299 | xargs mkdir)
: >"$tmp/err"
BOARDPRESS_WATCH_MAX=1 "$BP" watch --no-cache 2>"$tmp/err" &
pid=$!
wait_for "watching"
echo note >content/many/d4299/note.txt
wait_for "^boardpress: content/many/d4299/note.txt changed; rebuilt in"
wait "$pid" || true
pid=
rm -rf content/many
echo "watch: a change in the last of 4,300 new folders is seen"

# A folder its user may not read cannot be watched: said once, with why.
mkdir -p content/notes
chmod 000 content/notes
chown -R nobody:nogroup "$site"
chmod o+x "$tmp"
mkdir -p "$tmp/bin" && cp "$BP" "$tmp/bin/boardpress" && chmod -R o+rx "$tmp/bin"
: >"$tmp/err"
BOARDPRESS_WATCH_MAX=1 setpriv --reuid=nobody --regid=nogroup --clear-groups \
  "$tmp/bin/boardpress" watch --no-cache 2>"$tmp/err" &
pid=$!
wait_for "watching"
grep -qx "boardpress: cannot watch 1 folder (content/notes: Permission denied); changes there go unseen until the next rebuild" "$tmp/err" ||
  fail "the folder that cannot be watched was not said"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=
echo "watch: ok"

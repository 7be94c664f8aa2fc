#!/usr/bin/env bash
# The author's reference and starting files: docs/boards.md is what
# `boardpress help board` writes from the tables (make docs), every command
# takes --help, help's topics answer or name what they take, and
# `boardpress new` writes a page and a board that build and never overwrites.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "docs: FAIL: $*"; exit 1; }
cd "$root"

# the committed reference is the generated one
"$BP" help board --catalog content/catalog.yaml >"$tmp/boards.md"
diff -u docs/boards.md "$tmp/boards.md" >"$tmp/diff" ||
  fail "docs/boards.md is stale: run make docs and commit it ($(head -c 2000 "$tmp/diff"))"

# every command's --help (each that --help lists): exit 0, its own usage line
cmds=$("$BP" --help | sed -n 's/^  \([a-z][a-z]*\)  *.*/\1/p')
for want in build check sim prove watch serve help new; do
  grep -qx "$want" <<<"$cmds" || fail "--help does not list $want"
done
for c in $cmds; do
  "$BP" "$c" --help >"$tmp/out" 2>"$tmp/err" || fail "$c --help exits $?: $(cat "$tmp/err")"
  grep -q "^usage: boardpress $c" "$tmp/out" || fail "$c --help: $(head -3 "$tmp/out")"
  grep -q "exit status" "$tmp/out" || fail "$c --help names no exit status"
done
"$BP" sim board.yaml -h | grep -q "^usage: boardpress sim" || fail "sim -h"
"$BP" --help | grep -q "^       boardpress help " || fail "--help lists help"

# help's topics
"$BP" help part consumer >"$tmp/out"
grep -q '^| `idempotency` | ' "$tmp/out" || fail "help part consumer has no idempotency row"
grep -q '^| `concurrency` | .* | 4 deliveries (`consumer.concurrency`) |' "$tmp/out" ||
  fail "help part consumer: no catalog default for concurrency"
"$BP" help measure errors >"$tmp/out"
[ "$(head -1 "$tmp/out")" = "errors (a count): Jobs given up: the sender ran out of tries (dead-lettered, or failed to the user)." ] ||
  fail "help measure errors: $(cat "$tmp/out")"
"$BP" help directive compare | grep -q '^{{ compare ID ID ... \[rows: \[MEASURE, ...\]\] }}$' || fail "help directive compare"
"$BP" help | cmp -s - docs/boards.md || fail "help alone is not the board reference"
# outside a site (no catalog) the reference leaves the defaults out
(cd "$tmp" && "$BP" help part users) | grep -q '^| key | what it sets | value |$' ||
  fail "help without a catalog"

expect_usage() { # expected stderr line, then the command
  local want=$1; shift
  set +e; "$@" >/dev/null 2>"$tmp/err"; local rc=$?; set -e
  [ $rc = 2 ] || fail "$* exits $rc, not 2"
  [ "$(head -1 "$tmp/err")" = "$want" ] || fail "$*: $(head -1 "$tmp/err")"
}
expect_usage "boardpress: error: unknown part kind 'topic' (expected users, message-broker, consumer, service, payment-provider, database or dead-letter-queue)" \
  "$BP" help part topic
expect_usage "boardpress: error: unknown measure 'duplicats'; did you mean 'duplicates'?" \
  "$BP" help measure duplicats
expect_usage "boardpress: error: unknown help topic 'parts'; did you mean 'part'?" "$BP" help parts
expect_usage "boardpress: error: unknown directive 'graph' (expected board, compare, key-numbers, timeline, proof, counterexample, level, chart, scrub or live)" \
  "$BP" help directive graph
expect_usage "boardpress: error: help part needs a name: boardpress help part consumer (users, message-broker, consumer, service, payment-provider, database or dead-letter-queue)" \
  "$BP" help part
"$BP" help measure 2>"$tmp/err" && fail "help measure without a name exits 0"
grep -q "^boardpress: error: help measure needs a name: boardpress help measure duplicates (jobs, deliveries, .*, downstream_errors" "$tmp/err" ||
  fail "help measure without a name lists no measures: $(cat "$tmp/err")"
expect_usage "boardpress: error: help directive needs a name: boardpress help directive compare (board, compare, key-numbers, timeline, proof, counterexample, level, chart, scrub or live)" \
  "$BP" help directive

# new page: a page and a board that build, shown with measured numbers
mkdir -p "$tmp/site/content"
cp content/catalog.yaml "$tmp/site/content/"
printf 'title: First site\n' >"$tmp/site/content/site.yaml"
(cd "$tmp/site" && "$BP" new page lost-acks) >"$tmp/out"
printf 'wrote content/boards/lost-acks.yaml\nwrote content/lost-acks.md\n' | diff - "$tmp/out" ||
  fail "new page says what it wrote"
grep -q '^# .*docs/boards.md' "$tmp/site/content/boards/lost-acks.yaml" || fail "new board points nowhere"
(cd "$tmp/site" && "$BP" build -q --templates "$root/templates" --static "$root/static" --out out) ||
  fail "the new page does not build"
sed 's/<[^>]*>//g' "$tmp/site/out/lost-acks/index.html" | grep -q 'of 200 payments, [0-9][0-9]* were charged again' ||
  fail "the new page shows no measured numbers"
cp "$tmp/site/content/lost-acks.md" "$tmp/before.md"
set +e
(cd "$tmp/site" && "$BP" new page lost-acks) 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "new page over an existing page exits $rc, not 1"
[ "$(cat "$tmp/err")" = "content/lost-acks.md: error: already exists; boardpress new never overwrites a file (choose another name)" ] ||
  fail "refusal: $(cat "$tmp/err")"
cmp -s "$tmp/before.md" "$tmp/site/content/lost-acks.md" || fail "new page changed an existing page"
# a board alone; its id must be a name
(cd "$tmp/site" && "$BP" new board retries --content content) | grep -q '^wrote content/boards/retries.yaml$' ||
  fail "new board"
"$BP" sim "$tmp/site/content/boards/retries.yaml" --catalog content/catalog.yaml | grep -q '"board":"retries"' ||
  fail "the new board does not run"
expect_usage "boardpress: error: 'Retries' cannot be a board id: use lower-case letters, digits and '-' (e.g. lost-acks)" \
  "$BP" new board Retries --content "$tmp/site/content"

# make install puts boardpress under PREFIX/bin
if [ -x "$root/${BUILD:-build}/boardpress" ]; then
  make -s -C "$root" install PREFIX="$tmp/prefix" BUILD="${BUILD:-build}" >/dev/null
  "$tmp/prefix/bin/boardpress" --version | grep -q '^boardpress ' || fail "make install"
fi
echo "docs: ok"

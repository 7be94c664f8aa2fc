#!/usr/bin/env bash
# run-cache.sh — a cache file whose bytes changed is a miss (generator/run/cache.c,
# generator/draw/drawcache.c: every entry ends with a checksum of its payload): a measured
# value edited inside a results file is never published, a damaged trace is
# simulated again rather than blamed on the page, and an edited drawing is
# drawn again. Each edit below would be read as good without the checksum
# (the file's structure is left whole). Last, what the draw stage draws: a
# listed board's diagram and timeline only when a directive shows them.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -a "$here/bad/base" "$work/site"
cd "$work/site"
# a small board with a timeline, so a trace is cached too
sed -i 's/jobs: 40/jobs: 12/' content/boards/mini.yaml
printf '\n{{ timeline mini }}\n' >>content/page.md
build() { SOURCE_DATE_EPOCH=0 "$BP" build --cache cache --out public "$@" 2>"$work/err.txt"; }
fail=0
build
cp -a public "$work/first"
results=$(ls cache/*.bin | grep -v /draw- | head -1)

# poke FILE OFFSET-EXPR BYTES: write the little-endian bytes at the offset
# (an expression of klen, the stored key's length, and n, the file's size)
poke() {
  python3 - "$@" <<'PY'
import struct, sys
path, where, data = sys.argv[1], sys.argv[2], bytes.fromhex(sys.argv[3])
b = bytearray(open(path, "rb").read())
klen = struct.unpack_from("<q", b, 6)[0]
at = eval(where, {"klen": klen, "n": len(b)})
b[at:at + len(data)] = data
open(path, "wb").write(b)
PY
}
same_as_first() {
  if ! diff -rq "$work/first" public >"$work/diff.txt"; then
    echo "cache: $1: the site differs from the first build:"
    head -20 "$work/diff.txt"
    fail=1
  fi
}

# 1. the number of jobs (the first measure's mean, after magic, key length,
#    key and replications) changed to 4242
for f in cache/*.bin; do
  case $f in cache/draw-*) continue ;; esac
  poke "$f" "6 + 8 + klen + 8" "$(python3 -c 'import struct; print(struct.pack("<d", 4242.0).hex())')"
done
build -q || { echo "cache: the build over an edited result failed:"; cat "$work/err.txt"; fail=1; }
if grep -rq 4242 public; then
  echo "cache: a value edited in the results cache was published"
  fail=1
fi
same_as_first "edited result"
[ $fail = 1 ] || echo "cache: an edited result was simulated again, not published"

# 2. a damaged trace: the last entry's part (entries of six 8-byte fields,
#    then the 8-byte checksum) names part 999
poke "$results" "n - 8 - 48 + 24" "e703000000000000"
if ! build; then
  echo "cache: a damaged cached trace failed the build:"
  cat "$work/err.txt"
  fail=1
fi
if ! grep -q "(1 simulated, 0 from the cache" "$work/err.txt"; then
  echo "cache: a damaged cached trace was not simulated again: $(cat "$work/err.txt")"
  fail=1
fi
same_as_first "damaged trace"
[ $fail = 1 ] || echo "cache: a damaged trace was simulated again, no error on the page"

# 3. a drawing: one byte of its SVG changed (svg becomes svh)
for f in cache/draw-*.bin; do
  at=$(grep -boa '<svg' "$f" | head -1 | cut -d: -f1)
  poke "$f" "$((at + 3))" "68"
done
build -q
same_as_first "edited drawing"
[ $fail = 1 ] || echo "cache: edited drawings were drawn again"
# 4. a proof: a warm build takes it from the cache (no second .proof file,
#    the same pages), and one whose runs were edited (runs, after magic, key
#    length, key and six 8-byte fields... the fifth field) is proved again
sed -i -e 's/^expect: .*//' -e 's/idempotency: none/idempotency: key-in-transaction/' content/boards/mini.yaml
printf 'expect: {never: duplicates, jobs: 2, faults: 1}\n' >>content/boards/mini.yaml
printf '\n{{ proof mini }}\n' >>content/page.md
build -q || { echo "cache: the build with a proof failed:"; cat "$work/err.txt"; exit 1; }
rm -rf "$work/first"
cp -a public "$work/first"
proof=$(ls cache/*.proof)
[ "$(echo "$proof" | wc -l)" = 1 ] || { echo "cache: expected one proof entry: $proof"; fail=1; }
runs=$(grep -o 'data-runs="[0-9]*"' public/page/index.html)
touch -d '2000-01-01' "$proof"; before=$(stat -c %Y "$proof")
build -q
same_as_first "cached proof"
[ "$(stat -c %Y "$proof")" = "$before" ] || { echo "cache: a warm build proved again"; fail=1; }
poke "$proof" "6 + 8 + klen + 32" "$(python3 -c 'import struct; print(struct.pack("<q", 4242).hex())')"
build -q
if grep -rq '4,242\|4242' public; then
  echo "cache: a proof edited in the cache was published"
  fail=1
fi
same_as_first "edited proof"
[ -n "$runs" ] || { echo "cache: the page states no proof"; fail=1; }
[ $fail = 1 ] || echo "cache: a proof is taken from the cache, an edited one proved again ($runs)"

# 5. what is drawn (each drawing is one draw-*.bin in a fresh cache): a
#    listed board's diagram and timeline only when a directive of the page
#    shows them, found in the Markdown as the page renders it (not in code)
sed -n '1,/^---$/p' content/page.md >"$work/head.md"
check_drawn() { # check_drawn WANT BODY
  { cat "$work/head.md"; printf '%s\n' "$2"; } >content/page.md
  rm -rf cache public
  build -q || { echo "cache: the page with '$2' did not build:"; cat "$work/err.txt"; fail=1; return; }
  got=$(find cache -name 'draw-*.bin' | wc -l)
  [ "$got" = "$1" ] || { echo "cache: '$2' drew $got drawings, not $1"; fail=1; }
}
check_drawn 0 'Of {{ mini.jobs }} jobs, {{ mini.duplicates }} ran twice.'
check_drawn 0 'Of {{ mini.jobs }} jobs; written as code, `{{ board mini }}` and `{{ timeline mini }}`.'
check_drawn 1 '{{ board mini }}'
check_drawn 1 '{{ timeline mini }}'
check_drawn 2 $'{{ board mini }}\n\n{{ timeline mini }}'
[ $fail = 1 ] || echo "cache: a listed board's diagram and timeline are drawn only when a directive shows them"
exit $fail

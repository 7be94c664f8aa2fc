#!/usr/bin/env bash
# run-includes.sh — generator/ and sim-core/ keep the pipeline's shape
# (docs/architecture.md): tests/check_includes.py finds no include cycle,
# no stage that includes a later one, and each of libyaml, cmark-gfm,
# cairo and libmicrohttpd in one file, and no .c file over 800 lines. First
# it must fail on the fixtures of tests/includes/ (a cycle of three and of
# two, later stages, services that see too much, a library in two files, a
# .c file of 801 lines beside one of 800 and a longer header) with exactly the lines their `expected` holds,
# and pass on the clean one: a checker that cannot fail proves nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "run-includes: $*" >&2; exit 1; }
check=tests/check_includes.py

for dir in tests/includes/*/; do
  name=$(basename "$dir")
  want=0
  [ "$name" = clean ] || want=1
  rc=0
  out=$(python3 "$check" --root "$dir" --include-dir generator --include-dir sim-core) || rc=$?
  [ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want:"$'\n'"$out"
  diff <(printf '%s\n' "$out") "$dir/expected" >&2 || fail "$name: not the expected lines"
  echo "includes: fixture $name: ok (exit $rc)"
done

# A copy of the real tree made wrong must fail too: the model including a
# loader header (which includes the model: a cycle, and a later stage) and
# the renderer calling back into the orchestrator.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r generator sim-core Makefile "$tmp/"
sed -i 's|^#include "base/diag.h"$|#include "base/diag.h"\n#include "load/board.h"|' "$tmp/generator/model/site.h"
sed -i 's|^#include "render/render_internal.h"$|&\n#include "build.h"|' "$tmp/generator/render/expand.c"
rc=0
out=$(python3 "$check" --root "$tmp") || rc=$?
[ "$rc" = 1 ] || fail "the broken copy passed (exit $rc)"
for want in 'include cycle: generator/load/board.h -> generator/model/site.h -> generator/load/board.h' \
            ': model/ includes generator/load/board.h of a later stage' \
            ': render/ includes generator/build.h of a later stage'; do
  grep -qF "$want" <<<"$out" || fail "the broken copy: no '$want' in:"$'\n'"$out"
done
echo "includes: a broken copy of the tree fails: ok"

# the real tree, with the Makefile's include folders
python3 "$check"

#!/usr/bin/env bash
# The output layer recycles the previous tree (kept in the cache folder) as
# the next build's new tree (generator/write/output.c). Whatever the edits between
# builds, a recycled build must write exactly what a fresh build writes; a
# failed build must leave the site alone; a kept tree holding a file
# boardpress did not write must be neither used nor deleted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp -r "$root/content" "$root/templates" "$root/static" .
export SOURCE_DATE_EPOCH=1700000000

build() { "$BP" build -q --jobs 2 "$@"; }
fresh_matches() { # what a build from nothing writes, compared with public/
  rm -rf fresh
  "$BP" build -q --no-cache --out fresh
  diff -r fresh public || { echo "recycle: $1: recycled build differs from a fresh one"; exit 1; }
}
spare() { ls -d .boardpress-cache/spare-public-* 2>/dev/null | head -n 1; }

build && build
[ -n "$(spare)" ] || { echo "recycle: no tree kept in the cache folder"; exit 1; }
ls -a | grep -q '^public\.' && { echo "recycle: something left beside public/"; exit 1; }
fresh_matches "unchanged"

page=$(ls content/*.md | grep -v index.md | head -n 1)
echo "One more sentence for the recycle test." >> "$page"
build && fresh_matches "prose edit"

printf -- '---\ntitle: An extra page\n---\nSome *text*.\n' > content/zz-extra.md
build && fresh_matches "page added"
rm content/zz-extra.md                               # and it goes away again
build && fresh_matches "page removed"
[ ! -e public/zz-extra ] || { echo "recycle: removed page still there"; exit 1; }
echo "/* recycle */" >> "$(ls static/*.css | head -n 1)"
build && fresh_matches "static file changed"

# a failed build: the site stays as it was, the next good build recovers
cp -r public before
echo "{{ nosuch.measure }}" >> "$page"
if build 2>/dev/null; then echo "recycle: a bad page built"; exit 1; fi
diff -r before public || { echo "recycle: a failed build changed the site"; exit 1; }
sed -i '$ d' "$page"
build && fresh_matches "after a failed build"

# a kept tree with a foreign file is left alone
kept=$(spare)
echo "mine" > "$kept/notes.txt"
build && build && fresh_matches "foreign file in the kept tree"
[ "$(cat "$kept/notes.txt")" = mine ] || { echo "recycle: a foreign file was touched"; exit 1; }
echo "recycle: recycled builds match fresh ones after edits, removals, additions and a failure"

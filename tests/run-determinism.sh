#!/usr/bin/env bash
# Two builds of the same input are byte-identical, whatever the
# time zone, locale, umask, build path, number of threads or cache state.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A German locale, so a locale-following printf would write "10,1".
locales=""
mkdir -p "$tmp/locale"
if command -v localedef >/dev/null && localedef -i de_DE -f UTF-8 "$tmp/locale/de_DE.UTF-8" 2>/dev/null; then
  locales="$tmp/locale"
fi

site() { # copy the real site to a fresh path
  mkdir -p "$1"
  cp -r "$root/content" "$root/templates" "$root/static" "$1/"
}
site "$tmp/a"
site "$tmp/b/a/much/longer/path"

(cd "$tmp/a" && umask 022 && TZ=UTC LC_ALL=C SOURCE_DATE_EPOCH=1700000000 \
  "$BP" build -q --jobs 1 --no-cache --out out)
(cd "$tmp/b/a/much/longer/path" && umask 077 && TZ=Asia/Kolkata LOCPATH="$locales" \
  LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 SOURCE_DATE_EPOCH=1700000000 \
  "$BP" build -q --jobs 2 --cache cache --out out)
# Once more from the cache just filled.
(cd "$tmp/b/a/much/longer/path" && SOURCE_DATE_EPOCH=1700000000 \
  "$BP" build -q --jobs 2 --cache cache --out out2)

diff -r "$tmp/a/out" "$tmp/b/a/much/longer/path/out"
diff -r "$tmp/a/out" "$tmp/b/a/much/longer/path/out2"
files=$(find "$tmp/a/out" -type f | wc -l)
[ "$files" -gt 3 ] || { echo "determinism: only $files files built"; exit 1; }
echo "determinism: $files files identical across TZ, locale${locales:+ (de_DE)}, umask, path, --jobs and cache"

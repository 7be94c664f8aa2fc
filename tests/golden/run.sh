#!/usr/bin/env bash
# Golden-site tests: each folder in tests/golden/cases/ holds content/ (one
# behaviour per case, named for it) and expected/, the exact site boardpress
# must write. With REGEN=1 the differences are shown, then expected/ is
# rewritten (make regen).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BP=${BP:-build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for case_dir in "$here"/cases/*/; do
  name=$(basename "$case_dir")
  mkdir -p "$tmp/$name"
  cp -r "$case_dir/content" "$tmp/$name/content"
  [ -f "$tmp/$name/content/catalog.yaml" ] || cp "$here/catalog.yaml" "$tmp/$name/content/"
  if ! (cd "$tmp/$name" && SOURCE_DATE_EPOCH=1700000000 "$BP" build -q --no-cache \
        --templates "$here/templates" --static "$here/static" --out out 2>stderr); then
    echo "golden: $name: build failed:"; cat "$tmp/$name/stderr"; fail=1; continue
  fi
  if [ "${REGEN:-0}" = 1 ]; then
    if [ -d "$case_dir/expected" ]; then
      diff -ruN "$case_dir/expected" "$tmp/$name/out" || true
    fi
    rm -rf "$case_dir/expected"
    cp -r "$tmp/$name/out" "$case_dir/expected"
    echo "golden: $name: expected/ rewritten"
  elif ! diff -ruN "$case_dir/expected" "$tmp/$name/out" >"$tmp/$name.diff"; then
    echo "golden: $name: output differs from tests/golden/cases/$name/expected (make regen shows and rewrites):"
    head -n 60 "$tmp/$name.diff"
    fail=1
  else
    echo "golden: $name: ok"
  fi
done
exit $fail

#!/usr/bin/env bash
# run-interrupt.sh — an interrupted build loses nothing. A generated
# site of many pages is built once; then, for SIGINT, SIGTERM and SIGKILL, a
# changed site's build is killed while it writes its new tree, and the
# previous site must be whole and byte-identical. The next build must
# succeed, swap the new site in and remove the stale temporary folder (the
# journal in the cache folder records it; its marker's lock died with the
# build).
# To interrupt mid-write every time, however fast the machine: the making
# of the last page's folder in the new tree (the renderer's first write of
# that page; a page file itself is opened only once, by the loader) never
# returns (tests/interrupt_pause.c, preloaded, BP_PAUSE_MKDIRAT). The build
# writes every other page, then waits there, and is killed.
set -euo pipefail
export LC_ALL=C
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
here=$(cd "$(dirname "$0")" && pwd)
PAGES=${INTERRUPT_PAGES:-200}

work=$(mktemp -d "${TMPDIR:-/tmp}/bp-interrupt.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
site=$work/site
cache=$work/cache
cc -shared -fPIC -O1 -o "$work/pause.so" "$here/interrupt_pause.c" -ldl
# the sanitizer runtime wants to come first among the preloaded libraries
asan_rt=$(ldd "$BP" | awk '/libasan/ {print $3}')
cp -a "$here/bad/base" "$site"
cd "$site"

# Many pages, each with a board figure.
gen() { # gen VERSION
  python3 - "$PAGES" "$1" <<'PY'
import sys
n, version = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    board = "mini"
    with open("content/p%04d.md" % i, "w") as f:
        f.write("---\ntitle: Page %d\nboards: [boards/%s.yaml]\norder: %d\n---\n" % (i, board, i))
        f.write("Version %s. Of {{ %s.jobs }} jobs, {{ %s.duplicates }} ran twice.\n\n"
                % (version, board, board))
        f.write("{{ board %s }}\n\n" % board + ("Some text to write. " * 40 + "\n\n") * 5)
PY
}

# type, mode, path and contents of every file under the output folder
snapshot() { (cd "$1" && find . -printf '%y %m %p\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }

build() { SOURCE_DATE_EPOCH=0 "$BP" build -q --cache "$cache" "$@"; }

gen 1
build
before=$(snapshot public)
echo "interrupt: previous site built ($(find public -type f | wc -l) files)"
last_page=$(printf 'p%04d' $((PAGES - 1)))

fail=0
version=1
for sig in INT TERM KILL; do
  version=$((version + 1))
  gen "$version"
  # (a background job of a script starts with SIGINT ignored: restore it)
  SOURCE_DATE_EPOCH=0 BP_PAUSE_AT="$last_page" BP_PAUSE_MKDIRAT=1 \
    LD_PRELOAD="${asan_rt:+$asan_rt }$work/pause.so" \
    env --default-signal=INT,TERM "$BP" build -q --cache "$cache" >"$work/out.txt" 2>&1 &
  pid=$!
  # Wait until the page before the last is written with the new version (the
  # tree may be a recycled copy of an older site, so counting files would
  # prove nothing); the build then waits on the pipe. Its tree is the one
  # folder beside public/ (named at random).
  tmp=none
  before_last=none
  for _ in $(seq 1 1200); do
    tmp=$(ls -d public.tmp-* 2>/dev/null | head -1 || true)
    before_last=$(printf '%s/p%04d/index.html' "${tmp:-none}" $((PAGES - 2)))
    grep -qs "Version $version\\." "$before_last" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! kill -0 "$pid" 2>/dev/null || ! grep -qs "Version $version\\." "$before_last"; then
    echo "interrupt $sig: the build did not stop at the last page:"
    cat "$work/out.txt"
    exit 1
  fi
  written=$(grep -ls "Version $version\\." "$tmp"/p*/index.html | wc -l)
  kill -s "$sig" "$pid"
  status=0
  wait "$pid" 2>/dev/null || status=$?
  pid=
  if [ "$status" = 0 ]; then
    echo "interrupt $sig: the build exited 0 after the signal"
    fail=1
  fi
  if [ "$(snapshot public)" != "$before" ]; then
    echo "interrupt $sig: the previous site changed:"
    diff <(echo "$before") <(snapshot public) | head -20
    fail=1
  fi
  left=$(ls -d public.tmp-* public.old-* 2>/dev/null || true)
  echo "interrupt $sig: killed after writing $written new pages (exit $status); previous site identical; left: ${left:-nothing}"
  # The next build cleans up and puts the new site in place.
  if ! build; then
    echo "interrupt $sig: the build after the interruption failed"
    fail=1
  fi
  left=$(ls -d public.tmp-* public.old-* 2>/dev/null || true)
  if [ -n "$left" ]; then
    echo "interrupt $sig: stale temporary folders not cleaned by the next build: $left"
    fail=1
  fi
  if ! grep -q "Version $version\\." public/p0000/index.html; then
    echo "interrupt $sig: the next build did not put the new site in place"
    fail=1
  fi
  before=$(snapshot public)
done

# A swap cut off at every step (and a copy set aside by hand, which is never
# taken back) is tested by run-crash.sh and run-ownership.sh.
[ $fail = 0 ] && echo "interrupt: previous site intact after SIGINT, SIGTERM and SIGKILL; stale trees cleaned"
exit $fail

#!/usr/bin/env bash
# run-interrupt.sh — an interrupted build loses nothing (SPEC §7). A generated
# site of many pages is built once; then, for SIGINT, SIGTERM and SIGKILL, a
# changed site's build is killed while it writes its new tree, and the
# previous site must be whole and byte-identical. The next build must
# succeed, swap the new site in and remove the stale temporary folder.
# To interrupt mid-write every time, however fast the machine, the last page
# uses a template that is a named pipe: the build writes every other page into
# its temporary tree, then waits to read that template, and is killed there.
set -euo pipefail
export LC_ALL=C
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
here=$(cd "$(dirname "$0")" && pwd)
PAGES=${INTERRUPT_PAGES:-200}

work=$(mktemp -d "${TMPDIR:-/tmp}/bp-interrupt.XXXXXX")
cleanup() {
  [ -n "${pid:-}" ] && kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
site=$work/site
cp -a "$here/bad/base" "$site"
cd "$site"

# Many pages, each with a board figure: thousands of files to write.
gen() { # gen VERSION
  python3 - "$PAGES" "$1" <<'PY'
import sys
n, version = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    with open("content/p%04d.md" % i, "w") as f:
        slow = "template: slow\n" if i == n - 1 else ""
        f.write("---\ntitle: Page %d\nboards: [boards/mini.yaml]\norder: %d\n%s---\n" % (i, i, slow))
        f.write("Version %s. Of {{ mini.jobs }} jobs, {{ mini.duplicates }} ran twice.\n\n" % version)
        f.write("{{ board mini }}\n\n" + ("Some text to write. " * 40 + "\n\n") * 5)
PY
}

# type, mode, path and contents of every file under the output folder
snapshot() { (cd "$1" && find . -printf '%y %m %p\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }

build() { SOURCE_DATE_EPOCH=0 "$BP" build -q --cache "$work/cache" "$@"; }

slow_template() { rm -f templates/slow.html; cp templates/page.html templates/slow.html; }
gen 1
slow_template
build
before=$(snapshot public)
echo "interrupt: previous site built ($(find public -type f | wc -l) files)"

fail=0
version=1
for sig in INT TERM KILL; do
  version=$((version + 1))
  gen "$version"
  rm -f templates/slow.html
  mkfifo templates/slow.html
  # (a background job of a script starts with SIGINT ignored: restore it)
  SOURCE_DATE_EPOCH=0 env --default-signal=INT,TERM "$BP" build -q --cache "$work/cache" \
    >"$work/out.txt" 2>&1 &
  pid=$!
  tmp=public.tmp-$pid
  # Wait until the build has written the other pages and waits on the pipe.
  for _ in $(seq 1 1200); do
    n=$(find "$tmp" -name index.html 2>/dev/null | wc -l || true)
    [ "$n" -ge $((PAGES - 1)) ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! kill -0 "$pid" 2>/dev/null || [ ! -e "$tmp/.boardpress-in-progress" ]; then
    echo "interrupt $sig: the build did not stop at the last page's template:"
    cat "$work/out.txt"
    fail=1
    wait "$pid" || true
    pid=
    break
  fi
  written=$(find "$tmp" -type f | wc -l)
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
  echo "interrupt $sig: killed with $written files in $tmp (exit $status); previous site identical; left: ${left:-nothing}"
  # The next build cleans up and puts the new site in place.
  slow_template
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
# A swap by two renames (where the file system refuses an exchange) cut off
# between them leaves no OUT, and the previous site in OUT.old-PID: the next
# build puts it back, even when that build then fails.
mv public public.old-2147483646
sed -i 's/{{ mini.jobs }}/{{ mini.nope }}/' content/p0000.md
status=0
build 2>"$work/err.txt" || status=$?
if [ "$status" != 1 ] || [ "$(snapshot public 2>/dev/null)" != "$before" ] || [ -e public.old-2147483646 ]; then
  echo "interrupt: the previous site was not restored from public.old-* (exit $status)"
  cat "$work/err.txt"
  fail=1
else
  echo "interrupt: a swap cut off between its two renames is undone by the next build"
fi
[ $fail = 0 ] && echo "interrupt: previous site intact after SIGINT, SIGTERM and SIGKILL; stale trees cleaned"
exit $fail

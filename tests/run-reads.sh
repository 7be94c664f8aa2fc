#!/usr/bin/env bash
# run-reads.sh — a build opens each page file once: the loader reads it and
# keeps its body, which the draw stage's scan (render_scan) and the renderer
# both read. Every open() is logged (tests/interrupt_pause.c, preloaded,
# BP_OPEN_LOG) through a cold build, a rebuild from the cache and a check.
# Then a page edited while the build stands in its draw stage (paused at
# the opening of a cached drawing, after the load and the scan) must not
# reach the site: the pages are what the loader read (a second reading
# would render the edit, and name a drawing the draw stage did not make).
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
workdir reads
cc -shared -fPIC -O1 -o "$work/pause.so" tests/interrupt_pause.c -ldl
# the sanitizer runtime wants to come first among the preloaded libraries
asan_rt=$(ldd "$BP" | awk '/libasan/ {print $3}')
preload="${asan_rt:+$asan_rt }$work/pause.so"
cp -a tests/bad/base "$work/site"
cd "$work/site"
fail=0

# pages of every kind: boards shown by value, as a diagram and as a
# timeline; a page without boards; the home page
page() { # page FILE VERSION BOARD BODY
  printf -- '---\ntitle: Page %s\nboards: [boards/%s.yaml]\n---\nVersion %s.\n\n%s\n' \
    "$1" "$3" "$2" "$4" >"content/$1.md"
}
# a board small enough for a timeline (at most 30 jobs)
sed 's/^id: mini/id: tiny/; s/jobs: 40/jobs: 20/' content/boards/mini.yaml >content/boards/tiny.yaml
gen() { # gen VERSION
  page page "$1" mini 'Of {{ mini.jobs }} jobs, {{ mini.duplicates }} ran twice.

{{ board mini }}'
  page values "$1" tiny 'Only values: {{ tiny.jobs }} jobs.'
  page timeline "$1" tiny '{{ timeline tiny }}'
  printf -- '---\ntitle: Plain\n---\nVersion %s. No boards.\n' "$1" >content/plain.md
  # (the base site's index template shows no body)
  printf -- '---\ntitle: Home\n---\nVersion %s. At home.\n' "$1" >content/index.md
}

# each content/*.md in the log exactly once
once() { # once WHAT
  local bad
  bad=$( (ls content/*.md; grep '\.md$' "$work/opens" | sed 's|^.*/content/|content/|') |
    sort | uniq -c | awk '$1 != 2 {print $2 " opened " $1 - 1 " times"}')
  if [ -n "$bad" ]; then
    echo "reads: $1: a page file opened other than once:"
    echo "$bad"
    fail=1
  else
    echo "reads: $1: each of $(ls content/*.md | wc -l) page files opened once"
  fi
}

logged() { # logged COMMAND...: the command with its opens in $work/opens
  : >"$work/opens"
  SOURCE_DATE_EPOCH=0 BP_OPEN_LOG="$work/opens" LD_PRELOAD="$preload" "$@"
}

gen 1
logged "$BP" build -q --cache "$work/cache"
once "cold build"
gen 2
logged "$BP" build -q --cache "$work/cache"
once "rebuild from the cache"
logged "$BP" check -q --cache "$work/cache"
once "check"
grep -q "Version 2\\." public/timeline/index.html || {
  echo "reads: the rebuild does not show the edited text"
  fail=1
}

# The race: version 3 is loaded; the build stops at a cached drawing; the
# pages become version 4, one of them showing a timeline the draw stage did
# not make (its page showed only values when it was loaded and scanned).
gen 3
drawing=$(ls "$work/cache"/draw-*.bin | head -1)
: >"$work/opens"
SOURCE_DATE_EPOCH=0 BP_OPEN_LOG="$work/opens" BP_PAUSE_AT="/$(basename "$drawing")" \
  BP_PAUSE_UNTIL="$work/go" LD_PRELOAD="$preload" \
  "$BP" build -q --cache "$work/cache" >"$work/out.txt" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  grep -qs "/$(basename "$drawing")\$" "$work/opens" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
if ! grep -qs "/$(basename "$drawing")\$" "$work/opens"; then
  echo "reads: the build did not stop at its drawing:"
  cat "$work/out.txt"
  exit 1
fi
gen 4
page values 4 tiny 'Only values: {{ tiny.jobs }} jobs.

{{ timeline tiny }}'
touch "$work/go"
status=0
wait "$pid" || status=$?
if [ $status != 0 ]; then
  echo "reads: the build with pages edited during its draw stage failed:"
  cat "$work/out.txt"
  fail=1
fi
once "build with pages edited during its draw stage"
for p in page values timeline plain; do
  if ! grep -q "Version 3\\." "public/$p/index.html" || grep -q "Version 4\\." "public/$p/index.html"; then
    echo "reads: public/$p/index.html is not the text the loader read (version 3):"
    grep -o "Version [0-9]*\\." "public/$p/index.html" || true
    fail=1
  fi
done
[ $fail = 0 ] && echo "reads: every page file read once per build; scan and render saw the loaded text"
exit $fail

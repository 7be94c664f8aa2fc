#!/usr/bin/env bash
# run-crash.sh — builds killed at every step of the output machinery and at
# random points, and builds that run at once from two PID namespaces
# (generator/write/output.c, docs/architecture.md "What boardpress owns"). After each killed
# build the live site must be wholly the old one or wholly the new one, and
# once the next build has run it must be the new one with nothing left
# beside --out, at most one spare tree in the cache folder, and no record in
# the journal but the live site's and the spare's.
#   1. strace kills the build (SIGKILL) on entering the Nth call of each
#      system call that changes files, for every N of a build: a small site
#      whose pages change, one goes and one comes, with and without a cache;
#      and a first build into a missing --out (CRASH_JOBS=N points at a
#      time, default 2).
#   2. a 1,000-page site is killed with SIGINT, SIGTERM or SIGKILL at random
#      times (CRASH_SEED=N repeats a run; CRASH_ROUNDS=N for more rounds,
#      CRASH_PAGES=N for more pages).
#   3. builds in separate PID namespaces (unshare, as root) share one --out
#      and one cache: both run free; and one waits half way (its tree in
#      use) while the other runs from start to end, which must leave the
#      waiting build's tree alone.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
BP_RELEASE=${BP_RELEASE:-${BUILD:-build}/boardpress}
# LeakSanitizer cannot run under ptrace (strace); builds killed on purpose
# leak by definition
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-crash.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail=0
seed=${CRASH_SEED:-$$}
RANDOM=$seed

# The site's pages: gen N VERSION [FIRST] writes pages FIRST..FIRST+N-1 (and
# removes the others) saying "Version VERSION."
gen() {
  python3 - "$@" <<'PY'
import glob, os, sys
n, version = int(sys.argv[1]), sys.argv[2]
first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
keep = set()
for i in range(first, first + n):
    path = "content/p%04d.md" % i
    keep.add(path)
    with open(path, "w") as f:
        f.write("---\ntitle: Page %d\norder: %d\n---\nVersion %s.\n\n" % (i, i, version))
        f.write(("Some text to write. " * 20 + "\n\n") * 3)
for path in glob.glob("content/p[0-9][0-9][0-9][0-9].md"):
    if path not in keep:
        os.remove(path)
PY
}

# One line per version found in the live site's pages: "COUNT VERSION".
versions() { grep -oh 'Version [0-9a-z]*\.' public/p[0-9]*/index.html 2>/dev/null | sort | uniq -c | awk '{print $1, $3}'; }

# The state after the build that follows a killed one: $1 the pages the
# new version has, $2 the version, $3 what to call the case.
after_next() {
  local want="$1 $2." got left spares recs
  got=$(versions)
  left=$(ls -d public?* 2>/dev/null || true)
  spares=$(ls -d cache/spare-* 2>/dev/null | wc -l)
  recs=$(ls .boardpress-out-public | grep -vc '^lock$' || true)
  if [ "$got" != "$want" ] || [ -n "$left" ] || [ "$spares" -gt 1 ] || [ "$recs" -gt 2 ] ||
    [ -e public/.boardpress-tree ] || ls .boardpress-out-public | grep -q '\.new$'; then
    echo "crash: $3: after the next build: pages '$got' (want '$want'), beside public: '${left}'," \
      "spares $spares, records $recs"
    ls -la . cache .boardpress-out-public | head -40
    fail=1
    return 1
  fi
}

# After a killed build: the live site wholly one version (or no site, when
# there was none); the marker of a swap cut off is all it may hold besides.
whole() { # whole CASE OLD-PAGES OLD NEW-PAGES NEW
  local got
  got=$(versions)
  if [ -z "$got" ] && [ "$2" = 0 ]; then return 0; fi
  if [ "$got" != "$2 $3." ] && [ "$got" != "$4 $5." ]; then
    echo "crash: $1: the live site is not wholly one version: $(echo "$got" | tr '\n' ' ')"
    fail=1
    return 1
  fi
}

build() { SOURCE_DATE_EPOCH=0 "$BP" build -q --jobs 1 "$@"; }

# ---------------------------------------------------------------- 1. every step
# Every kill point is its own case: the state it starts from is rebuilt for
# it (a copied tree would hold other inodes than its record lists). The
# points run CRASH_JOBS at a time (default 2), each lane in a folder of its
# own; the builds that only make the starting state use the release build
# when there is one (the killed build and the next one are $BP's).
JOBS=${CRASH_JOBS:-2}
BP_SETUP=$BP
[ -x "$BP_RELEASE" ] && BP_SETUP=$(realpath "$BP_RELEASE")
calls="mkdirat renameat renameat2 unlinkat linkat flock fchmod fchown"
t_steps=$(date +%s)
# version a (4 pages) and version b (pages changed, one gone, one new)
cp -a "$here/bad/base" "$work/steps"
cd "$work/steps"
gen 4 a && cp -r content "$work/content-a"
gen 4 b 1 && cp -r content "$work/content-b"
opts_of() { # the build's options in MODE
  case $1 in
    no-cache) echo --cache cache --no-cache ;;
    *) echo --cache cache ;;
  esac
}
# the state each kill starts from: version a built twice (a live site and a
# spare), then version b's pages
setup() { # setup MODE
  rm -rf public cache .boardpress-out-public content
  cp -r "$work/content-a" content
  if [ "$1" != first ]; then
    # shellcheck disable=SC2046
    SOURCE_DATE_EPOCH=0 "$BP_SETUP" build -q --jobs 1 $(opts_of "$1") &&
      SOURCE_DATE_EPOCH=0 "$BP_SETUP" build -q --jobs 1 $(opts_of "$1")
  fi
  rm -rf content
  cp -r "$work/content-b" content
}
# The points: each call of each kind a build in each mode makes (every few
# opens: most only read).
: >"$work/points.txt"
for mode in cache no-cache first; do
  setup $mode
  # shellcheck disable=SC2046
  strace -f -qq -c -o "$work/count.txt" -e trace="${calls// /,}",openat \
    env SOURCE_DATE_EPOCH=0 "$BP" build -q --jobs 1 $(opts_of $mode)
  for call in $calls openat; do
    n=$(awk -v c="$call" '$NF == c {print $4}' "$work/count.txt")
    n=${n:-0}
    step=1
    [ "$call" = openat ] && step=$(((n + 23) / 24))
    for ((k = 1; k <= n; k += step)); do echo "$mode $call $k" >>"$work/points.txt"; done
  done
done
points=$(wc -l <"$work/points.txt")
lane() { # lane I: every JOBS-th point from the I-th, in a folder of its own
  local i=0 mode call k status what old_pages err=$work/err-$1.txt
  cp -a "$here/bad/base" "$work/lane$1"
  cd "$work/lane$1"
  while read -r mode call k <&3; do
    i=$((i + 1))
    [ $(((i - 1) % JOBS)) = "$1" ] || continue
    setup "$mode"
    status=0
    # shellcheck disable=SC2046
    (strace -f -qq -o /dev/null -e inject="$call":signal=KILL:when=$k \
      env SOURCE_DATE_EPOCH=0 "$BP" build -q --jobs 1 $(opts_of "$mode"); exit $?) 2>"$err" ||
      status=$?
    what="$mode, killed at $call #$k"
    if [ $status != 137 ] && [ $status != 0 ]; then
      echo "crash: $what: exit $status"
      cat "$err"
      fail=1
    fi
    old_pages=4
    [ "$mode" = first ] && old_pages=0
    whole "$what" $old_pages a 4 b || true
    # shellcheck disable=SC2046
    if ! build $(opts_of "$mode") 2>"$err"; then
      echo "crash: $what: the next build failed:"
      cat "$err"
      fail=1
      continue
    fi
    after_next 4 b "$what" || true
  done 3<"$work/points.txt"
  exit $fail
}
lanes=()
for ((l = 0; l < JOBS; l++)); do
  lane $l &
  lanes+=($!)
done
pids+=("${lanes[@]}")
for p in "${lanes[@]}"; do wait "$p" || fail=1; done
pids=()
echo "crash: ($(($(date +%s) - t_steps)) s) killed at each of $points steps (cache, --no-cache, first build; $JOBS at a time): the site whole, nothing left after the next build"

# ---------------------------------------------------------------- 2. random
PAGES=${CRASH_PAGES:-1000}
ROUNDS=${CRASH_ROUNDS:-8}
cp -a "$here/bad/base" "$work/big"
cd "$work/big"
gen "$PAGES" 0
# The first build fills the cache (the release build's, when there is one);
# the second, $BP's like every later one, is timed: the kills fall anywhere
# within about that long.
SOURCE_DATE_EPOCH=0 "$BP_SETUP" build -q --cache cache
t0=$(date +%s%N)
build --cache cache
ms=$((($(date +%s%N) - t0) / 1000000))
pages=$PAGES
killed=0
for ((round = 1; round <= ROUNDS; round++)); do
  old=$((round - 1))
  old_pages=$pages
  pages=$((PAGES - (round % 2) * 7)) # every other round, 7 pages go
  gen "$pages" "$round"
  sig=$(echo INT TERM KILL | cut -d' ' -f$((RANDOM % 3 + 1)))
  delay=$((RANDOM % (ms + ms / 5 + 1)))
  SOURCE_DATE_EPOCH=0 env --default-signal=INT,TERM "$BP" build -q --cache cache \
    >"$work/err.txt" 2>&1 &
  pid=$!
  pids+=("$pid")
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -s "$sig" "$pid" 2>/dev/null && killed=$((killed + 1)) || true
  wait "$pid" 2>/dev/null || true
  pids=()
  whole "round $round ($sig after $delay ms of ~$ms)" "$old_pages" "$old" "$pages" "$round" || true
  if ! build --cache cache 2>"$work/err.txt"; then
    echo "crash: round $round: the next build failed:"
    cat "$work/err.txt"
    fail=1
    continue
  fi
  after_next "$pages" "$round" "round $round ($sig after $delay ms)" || true
done
echo "crash: $PAGES pages, $ROUNDS builds ($killed killed at random, seed $seed): the site whole each time, nothing left after the next build"

# ---------------------------------------------------------------- 3. PID namespaces
cp -a "$here/bad/base" "$work/ns"
cd "$work/ns"
ns() { unshare --pid --fork --mount-proc env SOURCE_DATE_EPOCH=0 "$BP" build -q --cache cache "$@"; }
if ! unshare --pid --fork --mount-proc true 2>/dev/null; then
  echo "crash: cannot make a PID namespace here (unshare --pid needs root)"
  exit 1
fi
PAGES=300
gen $PAGES x
ns
# both at once, five times: each exits 0, the site is wholly one of them
for round in 1 2 3 4 5; do
  gen $PAGES "a$round"
  cp -a content content-a
  gen $PAGES "b$round"
  cp -a content content-b
  ns --content content-a >"$work/a.txt" 2>&1 &
  a=$!
  ns --content content-b >"$work/b.txt" 2>&1 &
  b=$!
  pids=("$a" "$b")
  sa=0 sb=0
  wait "$a" || sa=$?
  wait "$b" || sb=$?
  pids=()
  got=$(versions)
  if [ $sa != 0 ] || [ $sb != 0 ] || { [ "$got" != "$PAGES a$round." ] && [ "$got" != "$PAGES b$round." ]; } ||
    [ -n "$(ls -d public?* 2>/dev/null || true)" ]; then
    echo "crash: two builds at once (round $round): exits $sa and $sb, pages '$got', beside: $(ls -d public?* 2>/dev/null | tr '\n' ' ')"
    cat "$work/a.txt" "$work/b.txt"
    fail=1
  fi
  rm -rf content-a content-b
done
# One build waits half way: opening the drawing of the page's board, in the
# cache, waits (tests/interrupt_pause.c, preloaded: boardpress refuses to
# read a named pipe, which used to hold it) after it has made (or recycled)
# its tree. Another build, in another PID namespace, runs meanwhile.
gen $PAGES w
ns
drawing=$(ls cache/draw-*.bin | head -1)
cc -shared -fPIC -O1 -o "$work/pause.so" "$here/interrupt_pause.c" -ldl
asan_rt=$(ldd "$BP" | awk '/libasan/ {print $3}')
gen $PAGES waiting
cp -a content content-a # (a build reads its pages as it goes)
BP_PAUSE_AT="/$(basename "$drawing")" BP_PAUSE_UNTIL="$work/go" \
  LD_PRELOAD="${asan_rt:+$asan_rt }$work/pause.so" ns --content content-a >"$work/a.txt" 2>&1 &
a=$!
pids=("$a")
tree=
for _ in $(seq 1 400); do
  tree=$(ls -d public.tmp-* 2>/dev/null | head -1 || true)
  [ -n "$tree" ] && [ -e "$tree/.boardpress-tree" ] && break
  tree=
  sleep 0.05
done
if [ -z "$tree" ]; then
  echo "crash: the waiting build did not stop half way"
  cat "$work/a.txt"
  exit 1
fi
before=$(cd "$tree" && find . -printf '%i %p\n' | sort)
gen $PAGES other
if ! ns --no-cache 2>"$work/b.txt"; then
  echo "crash: a build beside a waiting one failed:"
  cat "$work/b.txt"
  fail=1
fi
if [ "$(cd "$tree" 2>/dev/null && find . -printf '%i %p\n' | sort)" != "$before" ]; then
  echo "crash: the other build touched the waiting build's tree $tree"
  fail=1
fi
touch "$work/go" # let it go on
sa=0
wait "$a" || sa=$?
pids=()
if [ $sa != 0 ] || [ "$(versions)" != "$PAGES waiting." ] || [ -n "$(ls -d public?* 2>/dev/null || true)" ]; then
  echo "crash: the waiting build (exit $sa) did not finish whole: pages '$(versions)'"
  cat "$work/a.txt"
  fail=1
fi
[ $fail = 0 ] && echo "crash: builds in two PID namespaces share --out: both finish, neither touches the other's tree"
exit $fail

#!/usr/bin/env bash
# run-trust.sh — the proof that boardpress wrote --out lives beside --out
# (.boardpress-out-NAME), never in the cache, and the cache is only a
# cache (docs/architecture.md "What boardpress owns"): every order of builds with two
# cache folders, none and the default works; a cache folder deleted, made a
# file, a link to nowhere or unwritable costs one warning and no bytes; a
# cache others can write is not read; two builds at once without a cache
# both succeed; a --cache that overlaps --out is bad usage (exit 2) before
# anything is made; anything in --out not exactly as boardpress wrote it,
# before or during a build, is refused and kept; a failure (ENOSPC, EIO,
# EACCES, a full disk) at any step leaves nothing beside --out after the
# next good build; a build waiting for another's lock says whose it is.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-trust.XXXXXX")
cleanup() {
  chattr -R -i "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail=0
bad() {
  echo "trust: $*"
  fail=1
}
build() { SOURCE_DATE_EPOCH=0 "$BP" build "$@"; }
# what the site would be if built fresh, once
cp -a "$here/bad/base" "$work/fresh"
(cd "$work/fresh" && build -q --no-cache --out ref)
same_as_fresh() {
  if ! diff -r "$work/fresh/ref" public >"$work/diff.txt" 2>&1; then
    bad "$1: the site differs from a fresh build: $(head -5 "$work/diff.txt")"
  fi
}
beside() { ls -d public?* 2>/dev/null || true; }
cp -a "$here/bad/base" "$work/site"
cd "$work/site"

# 1. every order of --cache A, --cache B, --no-cache and the default
opts=("--cache A" "--cache B" "--no-cache" "")
for first in 0 1 2 3; do
  for second in 0 1 2 3; do
    [ $first = $second ] && continue
    rm -rf public .boardpress-out-public A B .boardpress-cache
    for k in $first $second $first $second; do
      # shellcheck disable=SC2086
      if ! build -q ${opts[$k]} 2>"$work/err.txt"; then
        bad "build '${opts[$k]}' after '${opts[$first]}'/'${opts[$second]}' failed: $(cat "$work/err.txt")"
        break 2
      fi
    done
    same_as_fresh "builds '${opts[$first]}' and '${opts[$second]}' in turn"
    [ -z "$(beside)" ] || bad "left beside public: $(beside)"
  done
done
echo "trust: every order of builds with --cache A, --cache B, --no-cache and the default works"

# 2. the cache folder deleted, a file, a link to nowhere, unwritable: one
#    warning naming it, a build that succeeds, the site a fresh build's
for how in deleted file dangling immutable; do
  rm -rf .boardpress-cache
  build -q
  case $how in
    deleted) rm -rf .boardpress-cache ;;
    file) rm -rf .boardpress-cache && echo "not a folder" >.boardpress-cache ;;
    dangling) rm -rf .boardpress-cache && ln -s "$work/nowhere" .boardpress-cache ;;
    immutable) chattr +i .boardpress-cache ;;
  esac
  printf "\nChanged with the cache %s.\n" $how >>content/page.md
  status=0
  build -q 2>"$work/err.txt" || status=$?
  warnings=$(grep -c "warning" "$work/err.txt" || true)
  if [ $how = deleted ]; then want=0; else want=1; fi
  [ $status = 0 ] && [ "$warnings" = $want ] && [ "$(wc -l <"$work/err.txt")" = $want ] ||
    bad "a cache folder $how: exit $status, stderr: $(cat "$work/err.txt")"
  [ $how = deleted ] || grep -q "^boardpress: warning: not using the cache in .boardpress-cache: " "$work/err.txt" ||
    bad "a cache folder $how: the warning does not name it: $(cat "$work/err.txt")"
  (cd "$work/fresh" && cp "$work/site/content/page.md" content/page.md && rm -rf ref && build -q --no-cache --out ref)
  same_as_fresh "a cache folder $how"
  [ -z "$(beside)" ] || bad "a cache folder $how: left beside public: $(beside)"
  chattr -i .boardpress-cache 2>/dev/null || true
  rm -rf .boardpress-cache
done
build -q && build -q || bad "builds after the cache came back failed"
echo "trust: a cache folder deleted, a file, a link to nowhere or unwritable costs one warning, no bytes"

# 3. a cache others can write, or another user's entry, is not read
build -q
build 2>"$work/err.txt"
grep -q "(0 simulated, 1 from the cache" "$work/err.txt" || bad "the cache was not used: $(cat "$work/err.txt")"
for how in g+w o+w other-user; do
  case $how in
    other-user) chown nobody .boardpress-cache ;;
    *) chmod $how .boardpress-cache ;;
  esac
  status=0
  build 2>"$work/err.txt" || status=$?
  [ $status = 0 ] && grep -q "^boardpress: warning: not using the cache in .boardpress-cache: others can write it" "$work/err.txt" &&
    grep -q "(1 simulated, 0 from the cache" "$work/err.txt" ||
    bad "a cache folder that others can write ($how) was read (exit $status): $(cat "$work/err.txt")"
  [ "$(grep -c warning "$work/err.txt")" = 1 ] || bad "$how: not one warning: $(cat "$work/err.txt")"
  chmod go-w .boardpress-cache
  chown root .boardpress-cache
done
entry=$(ls .boardpress-cache/*.bin | grep -v /draw- | head -1)
for how in o+w other-user; do
  case $how in
    other-user) chown nobody "$entry" ;;
    *) chmod $how "$entry" ;;
  esac
  build 2>"$work/err.txt"
  grep -q "(1 simulated, 0 from the cache" "$work/err.txt" ||
    bad "a cache entry that others can write ($how) was read: $(cat "$work/err.txt")"
  rm -f "$entry"
  build -q
done
same_as_fresh "after untrusted caches"
echo "trust: a cache folder or entry that others can write is not read"

# 4. two builds at once without a cache: both succeed (the journal's lock
#    takes turns), three times over
for round in 1 2 3; do
  printf "\nRound %s marker.\n" $round >>content/page.md
  build -q --no-cache 2>"$work/err1.txt" &
  p1=$!
  build -q --no-cache 2>"$work/err2.txt" &
  p2=$!
  s1=0 s2=0
  wait $p1 || s1=$?
  wait $p2 || s2=$?
  [ $s1 = 0 ] && [ $s2 = 0 ] ||
    bad "two builds at once with --no-cache: exit $s1 and $s2: $(cat "$work/err1.txt" "$work/err2.txt")"
  grep -q "Round $round marker" public/*/index.html || bad "round $round: not published"
done
[ -z "$(beside)" ] || bad "left beside public after concurrent builds: $(beside)"
echo "trust: two builds at once with --no-cache both succeed"

# 5. a --cache that overlaps --out: bad usage, said up front, nothing made
rm -rf public .boardpress-out-public .boardpress-cache
mkdir elsewhere
for args in "--cache public/cache" "--cache ./public" "--cache public/a/../b" \
  "--cache elsewhere --out elsewhere/site" "--cache elsewhere/x/.. --out elsewhere/site"; do
  status=0
  # shellcheck disable=SC2086
  build -q $args 2>"$work/err.txt" || status=$?
  [ $status = 2 ] && grep -q ": error: --cache may not be inside --out, nor --out inside --cache" "$work/err.txt" ||
    bad "'$args': exit $status: $(cat "$work/err.txt")"
  made=$(ls -A | grep -v -e '^content$' -e '^templates$' -e '^static$' -e '^elsewhere$' || true)
  [ -z "$made" ] && [ -z "$(ls -A elsewhere)" ] || bad "'$args' made: $made $(ls -A elsewhere)"
done
echo "trust: a --cache that overlaps --out is refused up front (exit 2)"

# 6. nothing in --out that is not exactly what boardpress wrote is moved,
#    replaced or deleted, whether it was there before the build or came
#    while it ran: the build refuses (exit 1), names it, and leaves it
cc -shared -fPIC -O1 -o "$work/pause.so" "$here/interrupt_pause.c" -ldl
asan_rt=$(ldd "$BP" | awk '/libasan/ {print $3}')
rmdir elsewhere
build -q
snap() { (cd "$1" && find . -printf '%i %y %m %s %T@ %p\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }
page=$(cd public && ls -d */ | grep -v static | head -1 | tr -d /)
# change WHAT: put something into public/ that boardpress did not write;
# prints the path the refusal must name
change() {
  case $1 in
    file) echo "example.org" >public/CNAME && echo CNAME ;;
    nested) mkdir -p public/downloads && echo "%PDF" >public/downloads/report.pdf && echo downloads ;;
    empty) mkdir -p public/uploads/2024 && echo uploads ;;
    empty-inside) mkdir public/$page/drafts && echo "$page/drafts" ;;
    mode) chmod 700 public/$page && echo "$page" ;;
    appended) echo "<!-- mine -->" >>public/$page/index.html && echo "$page/index.html" ;;
    same-size) python3 - public/$page/index.html <<'PY' && echo "$page/index.html" ;;
import os, sys
p = sys.argv[1]
st = os.stat(p)
b = bytearray(open(p, "rb").read())
b[-2] = ord("X") if b[-2] != ord("X") else ord("Y")
open(p, "r+b").write(b)
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))  # the time put back, too
PY
  esac
}
# undo WHAT: what a user does after the refusal, so the next build works
undo() {
  case $1 in
    file) rm public/CNAME ;;
    nested) rm -r public/downloads ;;
    empty) rm -r public/uploads ;;
    empty-inside) rmdir public/$page/drafts ;;
    mode) chmod 755 public/$page ;;
    appended | same-size) rm public/$page/index.html ;;
  esac
}
n=0
for moment in before during; do
  for what in file nested empty empty-inside mode appended same-size; do
    n=$((n + 1))
    rm -f "$work/go"
    printf "\nEdit %s.\n" $n >>content/page.md
    build -q && build -q
    if [ $moment = before ]; then
      named=$(change $what)
      was=$(snap public)
      status=0
      build -q 2>"$work/err.txt" || status=$?
    else
      drawing=$(ls .boardpress-cache/draw-*.bin | head -1)
      printf "\nEdit %s again.\n" $n >>content/page.md
      SOURCE_DATE_EPOCH=0 BP_PAUSE_AT="/$(basename "$drawing")" BP_PAUSE_UNTIL="$work/go" \
        LD_PRELOAD="${asan_rt:+$asan_rt }$work/pause.so" "$BP" build -q 2>"$work/err.txt" &
      pid=$!
      # the build has checked public/ and holds its new tree beside it
      for _ in $(seq 1 3000); do
        [ -n "$(beside)" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
      done
      [ -n "$(beside)" ] || bad "during/$what: the paused build made no tree: $(cat "$work/err.txt")"
      named=$(change $what)
      was=$(snap public)
      touch "$work/go"
      status=0
      wait $pid || status=$?
    fi
    [ $status = 1 ] && grep -q "^public: error: refusing to replace this folder: '$named' in it " "$work/err.txt" ||
      bad "$moment/$what: exit $status, want 1 naming '$named': $(cat "$work/err.txt")"
    [ "$(snap public)" = "$was" ] || bad "$moment/$what: public/ was changed by the refused build"
    [ -z "$(beside)" ] || bad "$moment/$what: left beside public: $(beside)"
    ! grep -rqs -e "example.org" -e "%PDF" .boardpress-cache || bad "$moment/$what: the user's file went into the cache"
    undo $what
    build -q 2>"$work/err.txt" || bad "$moment/$what: the build after the user's fix failed: $(cat "$work/err.txt")"
  done
done
echo "trust: files, folders, empty folders, modes and edits in --out, before or during a build, are refused and kept"

# 7. a page removed from the site whose file was changed is refused, not
#    deleted
printf -- '---\ntitle: Extra\norder: 2\n---\nAn extra page.\n' >content/extra.md
build -q
rm content/extra.md
echo "<p>my edit</p>" >>public/extra/index.html
status=0
build -q 2>"$work/err.txt" || status=$?
[ $status = 1 ] && grep -q "'extra/index.html' in it was changed since boardpress wrote it" "$work/err.txt" &&
  grep -q "my edit" public/extra/index.html || bad "a changed page of a removed source: exit $status: $(cat "$work/err.txt")"
rm -r public/extra
build -q || bad "the build after the changed page was removed failed"
[ ! -e public/extra ] || bad "the removed page is back"

# 8. a folder boardpress never wrote that holds only empty folders is no
#    empty --out: refused, its folders kept
mkdir -p mysite/uploads/2024 mysite/drafts
status=0
build -q --out mysite 2>"$work/err.txt" || status=$?
[ $status = 1 ] && [ -d mysite/uploads/2024 ] && [ -d mysite/drafts ] ||
  bad "empty folders in a new --out: exit $status: $(cat "$work/err.txt")"
rmdir mysite/uploads/2024 mysite/uploads mysite/drafts
build -q --out mysite || bad "an empty --out was not taken"
echo "trust: a removed page whose file changed, and empty folders in a new --out, are refused and kept"

# 9. a failure at any step — no space, an I/O error, a refusal — leaves no
#    tree beside --out once the next good build has run (strace fails the
#    Nth call of each file-changing system call), with and without a cache
n=0
for err in ENOSPC EIO EACCES; do
  for call in mkdirat openat write linkat renameat2 unlinkat fchmod; do
    for when in 1 2 5 20; do
      n=$((n + 1))
      cache=(--cache cache)
      [ $((n % 3)) = 0 ] && cache=(--no-cache)
      printf "\nFailure %s.\n" $n >>content/page.md
      status=0
      strace -f -qq -o /dev/null -e inject=$call:error=$err:when=$when \
        env SOURCE_DATE_EPOCH=0 ASAN_OPTIONS=detect_leaks=0 "$BP" build -q "${cache[@]}" \
        >/dev/null 2>"$work/err.txt" || status=$?
      [ $status != 0 ] || [ -n "$(beside)" ] || continue # the call came later, or not at all
      [ $status = 0 ] || [ $status = 1 ] || [ $status = 3 ] ||
        bad "$call failing with $err (call $when): exit $status: $(head -3 "$work/err.txt")"
      if ! build -q "${cache[@]}" 2>"$work/err.txt"; then
        bad "the good build after $call failed with $err (call $when): $(cat "$work/err.txt")"
      fi
      [ -z "$(beside)" ] || bad "$call failing with $err (call $when): left beside public after a good build: $(beside)"
    done
  done
done
(cd "$work/fresh" && cp "$work/site/content/page.md" content/page.md && rm -rf ref && build -q --no-cache --out ref)
same_as_fresh "after failures"
echo "trust: failures (ENOSPC, EIO, EACCES) at $n points leave nothing beside --out after the next good build"

# 9b. a build that waits for another build's lock says whose it is (the
#     holder is paused while it holds the lock), keeps waiting, and
#     Ctrl-C then leaves everything as it was; the holder then finishes
build -q
rm -f "$work/go"
printf "\nLocked.\n" >>content/page.md
was=$(snap public)
# the holder stops at its first look at public/'s own files, which it
# takes under the lock (BP_PAUSE_OPENAT: opened relative to a folder)
SOURCE_DATE_EPOCH=0 BP_PAUSE_OPENAT=1 BP_PAUSE_AT="index.html" BP_PAUSE_UNTIL="$work/go" \
  LD_PRELOAD="${asan_rt:+$asan_rt }$work/pause.so" "$BP" build -q 2>"$work/holder.txt" &
holder=$!
for _ in $(seq 1 6000); do
  grep -qs "^pid $holder," .boardpress-out-public/lock && break
  kill -0 $holder 2>/dev/null || break
  sleep 0.01
done
grep -qs "^pid $holder," .boardpress-out-public/lock || bad "lock: the paused build took no lock: $(cat "$work/holder.txt")"
tree=$(beside)
# (a background job of a script starts with SIGINT ignored: restore it)
env --default-signal=INT SOURCE_DATE_EPOCH=0 "$BP" build -q 2>"$work/waiter.txt" &
waiter=$!
for _ in $(seq 1 6000); do
  grep -qs "waiting for the build" "$work/waiter.txt" && break
  kill -0 $waiter 2>/dev/null || break
  sleep 0.01
done
line=$(head -1 "$work/waiter.txt")
[[ $line =~ ^"boardpress: waiting for the build that holds public (pid $holder, started "[0-9]{4}-[0-9]{2}-[0-9]{2}\ [0-9]{2}:[0-9]{2}:[0-9]{2}"); Ctrl-C stops"$ ]] ||
  bad "lock: the waiting build said: $(cat "$work/waiter.txt")"
kill -0 $waiter 2>/dev/null || bad "lock: the waiting build did not keep waiting"
kill -INT $waiter 2>/dev/null || true
status=0
wait $waiter || status=$?
[ $status != 0 ] || bad "lock: Ctrl-C did not stop the waiting build"
[ "$(snap public)" = "$was" ] || bad "lock: Ctrl-C of the waiting build changed public/"
[ "$(beside)" = "$tree" ] || bad "lock: Ctrl-C of the waiting build changed what is beside public: $(beside)"
touch "$work/go"
status=0
wait $holder || status=$?
[ $status = 0 ] || bad "lock: the holder failed after the waiter stopped: $(cat "$work/holder.txt")"
[ -z "$(beside)" ] || bad "lock: left beside public: $(beside)"
rm -f "$work/go"
echo "trust: a build that waits for the lock names its holder, keeps waiting, and Ctrl-C leaves everything as it was"

# 10. a full disk: --out on a file system with a few KiB left (and the
#     cache on it too); the next build once there is room cleans up
mkdir full
status=0
unshare --mount sh -c "mount -t tmpfs -o size=1m none full && cp -a content templates static full/ &&
  cd full && SOURCE_DATE_EPOCH=0 '$BP' build -q --no-cache >/dev/null 2>&1;
  dd if=/dev/zero of=filler bs=4k 2>/dev/null; truncate -s -4k filler 2>/dev/null;
  printf '\nFull.\n' >>content/page.md;
  SOURCE_DATE_EPOCH=0 '$BP' build -q 2>'$work/full1.txt'; echo \$? >'$work/full1.rc';
  rm filler; SOURCE_DATE_EPOCH=0 '$BP' build -q 2>'$work/full2.txt'; echo \$? >'$work/full2.rc';
  ls -a >'$work/full.ls'" || status=$?
[ "$(cat "$work/full1.rc" 2>/dev/null)" != 0 ] || bad "a build onto a full disk succeeded?"
[ "$(cat "$work/full2.rc" 2>/dev/null)" = 0 ] || bad "the build after room was made failed: $(cat "$work/full2.txt" 2>/dev/null)"
left=$(grep '^public.' "$work/full.ls" || true)
[ -z "$left" ] || bad "a full disk left beside public after a good build: $left"
rmdir full
echo "trust: a full disk leaves nothing beside --out after the next good build"

exit $fail

#!/usr/bin/env bash
# run-serve.sh — `boardpress serve` over HTTP, without a browser (that is
# run-serve-browser.sh): on a copy of tests/serve/site it starts the server
# on a free port (--port 0), plants links out of --out, a named pipe, a
# dot-file and a folder without a page in it, puts a sentinel file outside,
# and sends hostile and ordinary requests (tests/serve/hostile.py): 4xx for
# every attempt, the sentinel never opened; then reads the event stream
# while it edits and breaks the site (tests/serve/events.py). Also: a port
# in use is exit 3 with the exact message, bad --port and --bind are
# usage errors, a non-loopback bind warns, SIGTERM and Ctrl-C stop it with
# exit 0 and nothing left beside --out, and Ctrl-C during a rebuild (held
# half way by tests/interrupt_pause.c) gives the new tree back: the site is
# as it was, and the next build is whole.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
BP=$(realpath "${BP:-$root/build/asan/boardpress}")
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-serve.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "serve: FAIL: $*"
  [ -f "$work/err" ] && sed 's/^/  | /' "$work/err"
  exit 1
}
# wait_for PATTERN: until the server's stderr holds a line matching it (20 s at most)
wait_for() {
  for _ in $(seq 200); do
    grep -q -- "$1" "$work/err" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || fail "the server ended before '$1'"
    sleep 0.1
  done
  fail "no '$1' on stderr"
}
# start ARGS...: boardpress serve in the site, in the background (a script's
# background job starts with SIGINT ignored: restore it, as a terminal has it)
start() {
  : >"$work/err"
  (cd "$site" && exec env --default-signal=INT,TERM "$BP" serve "$@" 2>"$work/err") &
  pid=$!
}
# stop SIGNAL: the server must end with exit 0, having said so
stop() {
  kill -s "$1" "$pid"
  local rc=0
  wait "$pid" || rc=$?
  pid=
  [ "$rc" = 0 ] || fail "exit $rc after SIG$1"
  grep -q "^boardpress: stopped$" "$work/err" || fail "no 'stopped' after SIG$1"
  left=$(cd "$site" && ls -d public.* 2>/dev/null || true)
  [ -z "$left" ] || fail "left beside public/ after SIG$1: $left"
}
port_of() { grep -o 'on http://127.0.0.1:[0-9]*/' "$work/err" | head -1 | grep -o '[0-9]*/$' | tr -d /; }
snapshot() { (cd "$1" && find . -printf '%y %m %p\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }

site=$work/site
mkdir -p "$site" "$work/outside"
cp -r "$root/tests/serve/site" "$site/content"
cp "$root/content/catalog.yaml" "$site/content/"
cp -r "$root/templates" "$root/static" "$site/"
mkdir -p "$site/static/kinds"
for ext in png ico wasm woff2 jpg webp txt unknown; do printf 'bytes of a .%s\n' "$ext" >"$site/static/kinds/a.$ext"; done
sentinel=$work/outside/sentinel.txt
echo "SENTINEL-$RANDOM$RANDOM$RANDOM-NEVER-SERVED" >"$sentinel"

# 1. Hostile and ordinary requests; the event stream.
start --port 0
wait_for "^boardpress: watching"
port=$(port_of)
[ -n "$port" ] || fail "no port in the server's first lines"
grep -q "^boardpress: serving public on http://127.0.0.1:$port/ (Ctrl-C stops)$" "$work/err" ||
  fail "the URL line"
ln -s "$sentinel" "$site/public/leak.txt"
ln -s "$work/outside" "$site/public/leak-folder"
mkfifo "$site/public/static/pipe"
echo hidden >"$site/public/.hidden"
echo hidden >"$site/public/static/.hidden"
mkdir "$site/public/empty"
python3 "$root/tests/serve/hostile.py" "$port" "$site/public" "$sentinel" || fail "hostile requests"
# what was planted goes before a rebuild (boardpress refuses an --out that
# holds what it did not write)
rm -r "$site/public/leak.txt" "$site/public/leak-folder" "$site/public/static/pipe" \
  "$site/public/.hidden" "$site/public/static/.hidden" "$site/public/empty"
python3 "$root/tests/serve/events.py" "$port" "$site" "$work/err" || fail "the event stream"
python3 "$root/tests/serve/halfopen.py" "$port" || fail "a GET beside half-open connections"

# 2. The port in use: exit 3 and the exact message, before any build.
next=$(python3 - "$port" <<'PY'
import socket, sys
p = int(sys.argv[1])
for q in range(p + 1, p + 21):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", q))
        print(q)
        break
    except OSError:
        pass
    finally:
        s.close()
PY
)
rc=0
(cd "$site" && "$BP" serve --port "$port" 2>"$work/inuse") || rc=$?
[ "$rc" = 3 ] || fail "a port in use: exit $rc, want 3"
printf 'boardpress: error: port %s is in use; try --port %s\n' "$port" "$next" | diff - "$work/inuse" ||
  fail "a port in use: not the expected message"
stop TERM
echo "serve: hostile requests get 4xx and read nothing outside --out; the event stream; a port in use is exit 3"

# 3. Usage: a bad --port or --bind is exit 2; a bind beyond loopback warns.
for args in "--port 70000" "--port -1" "--port x8" "--port" "--bind" "--bind not-an-address"; do
  rc=0
  # shellcheck disable=SC2086
  (cd "$site" && "$BP" serve $args 2>"$work/usage") || rc=$?
  [ "$rc" = 2 ] || fail "serve $args: exit $rc, want 2"
  grep -q "^boardpress: error: " "$work/usage" || fail "serve $args: $(cat "$work/usage")"
done
rc=0
(cd "$site" && "$BP" build --port 1 2>/dev/null) || rc=$?
[ "$rc" = 2 ] || fail "build --port: exit $rc, want 2 (serve's options only)"
start --port 0 --bind 0.0.0.0
wait_for "^boardpress: watching"
grep -q "^boardpress: warning: listening on 0.0.0.0, not only this machine's loopback" "$work/err" ||
  fail "no warning for a bind beyond loopback"
stop INT
echo "serve: bad --port and --bind are usage errors; a bind beyond loopback warns; SIGTERM and Ctrl-C stop it"

# 4. Ctrl-C during a rebuild: the rebuild is held at its first read of a
# drawing from the cache (the new tree is beside public/ by then) until
# the signal has come; it must then stop, give its tree back and write
# nothing.
cc -shared -fPIC -O1 -o "$work/pause.so" "$root/tests/interrupt_pause.c" -ldl
asan_rt=$(ldd "$BP" | awk '/libasan/ {print $3}')
late_board="id: late
title: The late board
seed: 2
replications: 1
parts:
  - {id: users,   kind: users, label: Shop front, timeout: 1 s}
  - {id: billing, kind: service, label: Billing service, idempotency: none}
links:
  - {from: users, to: billing, protocol: http2}
traffic: {from: users, jobs: 20, over: 1 s, op: charge}"
late_page=$'---\ntitle: Late\nboards: [boards/late.yaml]\n---\n{{ board late }}\n'
# a build with the late page leaves its drawing in the cache; the site
# then goes back to being without it
printf '%s\n' "$late_board" >"$site/content/boards/late.yaml"
printf '%s' "$late_page" >"$site/content/late.md"
(cd "$site" && "$BP" build -q) || fail "the build with the late page"
drawing=$(grep -l "The late board" "$site"/.boardpress-cache/draw-*.bin | head -1 || true)
[ -n "$drawing" ] || fail "no cached drawing of the late board"
rm "$site/content/boards/late.yaml" "$site/content/late.md"
(cd "$site" && "$BP" build -q) || fail "the build without the late page"
before=$(snapshot "$site/public")
: >"$work/err"
(cd "$site" && BP_PAUSE_AT="/$(basename "$drawing")" BP_PAUSE_UNTIL="$work/go" \
  LD_PRELOAD="${asan_rt:+$asan_rt }$work/pause.so" \
  exec env --default-signal=INT,TERM "$BP" serve --port 0 2>"$work/err") &
pid=$!
wait_for "^boardpress: watching"
printf '%s\n' "$late_board" >"$site/content/boards/late.yaml"
printf '%s' "$late_page" >"$site/content/late.md"
for _ in $(seq 200); do
  [ -n "$(cd "$site" && ls -d public.tmp-* 2>/dev/null)" ] && break
  sleep 0.05
done
[ -n "$(cd "$site" && ls -d public.tmp-* 2>/dev/null)" ] || fail "the rebuild made no new tree beside public/"
sleep 0.2
kill -INT "$pid"
sleep 0.3
touch "$work/go"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || fail "exit $rc after Ctrl-C during a rebuild"
grep -q "^boardpress: error: interrupted; nothing written, public is unchanged$" "$work/err" ||
  fail "the rebuild did not say it was interrupted"
left=$(cd "$site" && ls -d public.* 2>/dev/null || true)
[ -z "$left" ] || fail "left beside public/ after an interrupted rebuild: $left"
[ "$(snapshot "$site/public")" = "$before" ] || fail "the interrupted rebuild changed public/"
(cd "$site" && "$BP" build -q) || fail "the build after the interrupted rebuild"
[ -f "$site/public/late/index.html" ] || fail "the next build did not write the late page"
left=$(cd "$site" && ls -d public.* 2>/dev/null || true)
[ -z "$left" ] || fail "left beside public/ after the next build: $left"
echo "serve: Ctrl-C during a rebuild writes nothing and leaves no tree; the next build is whole"
echo "serve: ok"

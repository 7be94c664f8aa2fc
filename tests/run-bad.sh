#!/usr/bin/env bash
# run-bad.sh — the bad-input corpus: every folder tests/bad/CASE/ (except
# base/) is one case. The case's site is tests/bad/base/ with the case's
# changes applied; its output folder already holds a good build of the base
# site (made there, so the journal beside it, .boardpress-out-public, records it). The case passes when boardpress exits with the expected status and
# prints exactly the expected stderr, and — for a failing build — when every
# file under the case's folder (the site, its previous output, $HOME) is
# byte-identical afterwards, with no temporary folder left behind.
#
# A case folder holds:
#   about       one line: what is wrong with the input
#   files/      files copied over the base site (content/, templates/, static/)
#   delete      optional: paths of the base site to remove, one per line
#   setup.sh    optional: run in the site folder after files/ and delete
#               (for generated inputs: huge files, NUL bytes, symlinks)
#   args        optional: boardpress's arguments, one per line
#               (default: build, -q); @W@ is the case's work folder
#   stderr      the exact expected stderr (@W@ for the work folder)
#   exit        optional: the expected exit status (default 1)
#   user        optional: run boardpress as this user (the case's folder is
#               handed to it first), so a file made unreadable with chmod
#               in setup.sh really is unreadable (root reads anything)
#   check.sh    optional: run in the site folder afterwards with bash -e;
#               must exit 0 (checks on the output of a case that builds);
#               has / lacks ARGS... are grep -q that fail loudly
#
# The cases run BAD_JOBS at a time (default 2), each in its own folder.
#
# Usage: tests/run-bad.sh [CASE ...]        run all cases or the named ones
#        tests/run-bad.sh --update CASE ... show the differences and rewrite
#                                           stderr and exit from this run
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
bad=$here/bad
BP=${BP:-build/asan/boardpress}
BP=$(realpath "$BP")
BAD_TIMEOUT=${BAD_TIMEOUT:-60}
# the good builds a case starts from are made by the release build when
# there is one (they only set the scene; each case runs $BP)
BP_SETUP=$BP
BP_RELEASE=${BP_RELEASE:-${BUILD:-build}/boardpress}
[ -x "$BP_RELEASE" ] && BP_SETUP=$(realpath "$BP_RELEASE")

update=0
if [ "${1:-}" = --update ]; then
  update=1
  shift
fi
if [ $# -gt 0 ]; then
  cases=("$@")
else
  cases=()
  for d in "$bad"/*/; do
    name=$(basename "$d")
    [ "$name" = base ] || cases+=("$name")
  done
fi

# For check.sh (run with bash -e): has/lacks FILE-ARGS... wrap grep so a
# check that does not hold stops the script with a message.
has() { grep -q "$@" || { echo "expected to find: $*" >&2; return 1; }; }
lacks() { if grep -q "$@"; then echo "expected not to find: $*" >&2; return 1; fi; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bp-bad.XXXXXX")
trap 'chmod -R u+rwX "$work" 2>/dev/null; rm -rf "$work"' EXIT

# Every entry below a folder: type, mode, path, link target, then contents.
# The results cache (.boardpress-cache) is left out: it holds simulation
# results keyed by their inputs, which a failed build may still add to; so
# is the journal beside public/ (.boardpress-out-public), where a failed
# build records the tree it leaves to the next one, and who held its lock.
snapshot() {
  (cd "$1" && find . \( -path ./site/.boardpress-cache -o -path ./site/.boardpress-out-public \) -prune -o -printf '%y %m %p -> %l\n' | sort &&
    find . \( -path ./site/.boardpress-cache -o -path ./site/.boardpress-out-public \) -prune -o -type f -print0 | sort -z | xargs -0r sha256sum)
}

# The previous good build every case starts from: built once here for its
# results cache, then again in each case's folder, so that the case's
# public/ is one that boardpress's journal records (a copy would not be).
good=$work/good
cp -a "$bad/base" "$good"
if ! (cd "$good" && SOURCE_DATE_EPOCH=0 HOME=$work "$BP" build -q) >"$work/good.log" 2>&1; then
  echo "run-bad: the base site tests/bad/base no longer builds (did the catalog or"
  echo "template schema change? update tests/bad/base):"
  cat "$work/good.log"
  exit 1
fi

# A copy of boardpress another user can run wherever the repository is (a
# fresh clone sits in a folder only root may enter), for the cases with a
# user file.
mkdir -p "$work/bin"
cp "$BP" "$work/bin/boardpress"
chmod -R o+rx "$work/bin"

# run_case NAME: one case in its own folder; prints what failed.
run_case() {
  local name=$1 c W u args want_exit run before after start ms got_exit problems out stray status=0
  c=$bad/$name
  if [ ! -d "$c" ] || [ ! -f "$c/about" ]; then
    echo "FAIL $name: no such case (a case needs at least an 'about' file)"
    return 1
  fi
  W=$work/case-$name
  mkdir -p "$W/home"
  cp -a "$bad/base" "$W/site"
  mkdir "$W/site/.boardpress-cache"
  cp -a "$good"/.boardpress-cache/*.bin "$W/site/.boardpress-cache/"
  if ! (cd "$W/site" && SOURCE_DATE_EPOCH=0 HOME=$W/home "$BP_SETUP" build -q) >"$W/good.log" 2>&1; then
    echo "FAIL $name: the base site did not build in the case's folder:"
    cat "$W/good.log"
    return 1
  fi
  [ -d "$c/files" ] && cp -a "$c/files/." "$W/site/"
  if [ -f "$c/delete" ]; then
    while IFS= read -r p; do [ -n "$p" ] && rm -rf "${W:?}/site/$p"; done <"$c/delete"
  fi
  if [ -f "$c/setup.sh" ]; then
    (cd "$W/site" && W=$W bash "$c/setup.sh") || {
      echo "FAIL $name: setup.sh failed"
      return 1
    }
  fi
  args=(build -q)
  if [ -f "$c/args" ]; then
    args=()
    while IFS= read -r a; do args+=("${a//@W@/$W}"); done <"$c/args"
  fi
  want_exit=1
  [ -f "$c/exit" ] && want_exit=$(cat "$c/exit")
  run=("$BP")
  if [ -f "$c/user" ]; then
    u=$(cat "$c/user")
    chmod o+x "$work"
    chown -R "$u:$(id -gn "$u")" "$W"
    # a copy the user can run wherever the repository is (a fresh clone
    # sits in a folder only root may enter)
    run=(setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups "$work/bin/boardpress")
  fi

  before=$(snapshot "$W")
  start=$(date +%s%N)
  set +e
  (cd "$W/site" && SOURCE_DATE_EPOCH=0 HOME=$W/home timeout -k 5 "$BAD_TIMEOUT" "${run[@]}" "${args[@]}") \
    >"$W/stdout" 2>"$W/stderr.raw"
  got_exit=$?
  set -e
  ms=$((($(date +%s%N) - start) / 1000000))
  after=$(snapshot "$W" | grep -v -e ' ./stdout -> ' -e ' ./stderr.raw -> ' -e '  ./stdout$' -e '  ./stderr.raw$' || true)
  sed "s|$W|@W@|g" "$W/stderr.raw" >"$W/stderr"

  problems=()
  if [ "$got_exit" = 124 ] || [ "$got_exit" = 137 ]; then
    problems+=("did not finish within $BAD_TIMEOUT s")
  elif [ "$got_exit" != "$want_exit" ]; then
    problems+=("exit status $got_exit, expected $want_exit")
  fi
  if ! cmp -s "$W/stderr" "$c/stderr" 2>/dev/null; then
    problems+=("stderr differs:
$(diff -u --label expected --label actual "$c/stderr" "$W/stderr" 2>&1 | sed 's/^/    /' || true)")
  fi
  if [ "$want_exit" != 0 ] && [ "$before" != "$after" ]; then
    problems+=("files changed (the previous site, the sources or \$HOME must stay as they were):
$(diff <(echo "$before") <(echo "$after") | sed 's/^/    /' | head -40 || true)")
  fi
  if [ -f "$c/check.sh" ] && [ "$got_exit" = "$want_exit" ]; then
    if ! out=$(cd "$W/site" && bash -e -c "$(declare -f has lacks); . '$c/check.sh'" 2>&1); then
      problems+=("check.sh failed:
$(echo "$out" | sed 's/^/    /')")
    fi
  fi

  stray=$(find "$W" -maxdepth 3 \( -name '*.tmp-*' -o -name '*.old-*' \) 2>/dev/null || true)
  if [ -n "$stray" ]; then
    problems+=("temporary folders left behind: $stray")
  fi
  if [ "$update" = 1 ]; then
    diff -u --label "$name/stderr (old)" --label "$name/stderr (new)" "$c/stderr" "$W/stderr" || true
    cp "$W/stderr" "$c/stderr"
    if [ "$got_exit" = 1 ]; then rm -f "$c/exit"; else echo "$got_exit" >"$c/exit"; fi
    echo "updated $name (exit $got_exit, $ms ms)"
    return 0
  fi
  if [ ${#problems[@]} -gt 0 ]; then
    echo "FAIL $name ($(cat "$c/about")):"
    for p in "${problems[@]}"; do echo "  $p"; done
    status=1
  else
    echo "$name" >>"$work/passed-$lane"
    if [ -n "${BAD_VERBOSE:-}" ]; then printf 'ok   %-40s %6d ms\n' "$name" "$ms"; fi
  fi
  chmod -R u+rwX "$W" 2>/dev/null || true
  rm -rf "$W"
  return $status
}

# The cases, BAD_JOBS at a time (default 2): lane I runs every BAD_JOBS-th.
JOBS=${BAD_JOBS:-2}
[ "$update" = 1 ] && JOBS=1
fail=0
lanes=()
for ((lane = 0; lane < JOBS; lane++)); do
  (
    f=0
    for ((i = lane; i < ${#cases[@]}; i += JOBS)); do run_case "${cases[$i]}" || f=1; done
    exit $f
  ) &
  lanes+=($!)
done
for p in "${lanes[@]}"; do wait "$p" || fail=1; done
passed=$(cat "$work"/passed-* 2>/dev/null | wc -l)

if [ "$update" = 0 ]; then
  echo "run-bad: $passed of ${#cases[@]} cases passed"
fi
exit $fail

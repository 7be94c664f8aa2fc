#!/usr/bin/env bash
# run.sh — run every libFuzzer harness (tests/fuzz/fuzz_*.c) for FUZZ_SECONDS
# each (default 120), FUZZ_JOBS at a time (default 2). New inputs go to
# build/fuzz/corpus/NAME (the committed seeds in tests/fuzz/corpus/NAME are
# read, never written); crashes to build/fuzz/artifacts/NAME/. Copy a crash
# into tests/fuzz/regressions/NAME/ (named for the bug) once it is fixed.
# Usage: tests/fuzz/run.sh [NAME ...]     (make fuzz)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-120}
FUZZ_JOBS=${FUZZ_JOBS:-2}
mkdir -p "$BUILD/fuzz/log"
if ! make --no-print-directory fuzz-build BUILD="$BUILD" >"$BUILD/fuzz/log/build.txt" 2>&1; then
  cat "$BUILD/fuzz/log/build.txt"
  exit 1
fi

names=("$@")
if [ ${#names[@]} = 0 ]; then
  for f in tests/fuzz/fuzz_*.c; do n=${f##*/fuzz_}; names+=("${n%.c}"); done
fi

# Options per harness: the largest input worth trying, and the dictionary.
opts() {
  case $1 in
    page | yaml) echo "-max_len=65536 -dict=tests/fuzz/dict/yaml.dict" ;;
    markdown) echo "-max_len=65536 -dict=tests/fuzz/dict/markdown.dict" ;;
    site) echo "-max_len=8192 -dict=tests/fuzz/dict/markdown.dict -close_fd_mask=2" ;;
    template) echo "-max_len=16384 -dict=tests/fuzz/dict/template.dict" ;;
    wire) echo "-max_len=1024" ;;
    *) echo "-max_len=256" ;;
  esac
}

one() {
  local name=$1 log=$BUILD/fuzz/log/$1.txt
  mkdir -p "$BUILD/fuzz/corpus/$name" "$BUILD/fuzz/artifacts/$name" "$BUILD/fuzz/log"
  local rc=0 execs
  # shellcheck disable=SC2046
  "$BUILD/fuzz/fuzz_$name" $(opts "$name") -max_total_time="$FUZZ_SECONDS" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/fuzz/artifacts/$name/" \
    "$BUILD/fuzz/corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $rc = 0 ]; then
    printf 'fuzz %-9s %9s execs in %s s, no crash\n' "$name" "${execs:-?}" "$FUZZ_SECONDS"
  else
    printf 'fuzz %-9s FAILED (exit %s) after %s execs; log %s\n' "$name" "$rc" "${execs:-?}" "$log"
    grep -E 'ERROR|SUMMARY|Test unit written|^ *#[0-9]+ .* in ' "$log" | head -25 | sed 's/^/    /' || true
  fi
  return $rc
}

fail=0
pids=()
for name in "${names[@]}"; do
  one "$name" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$FUZZ_JOBS" ]; then
    wait "${pids[0]}" || fail=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
exit $fail

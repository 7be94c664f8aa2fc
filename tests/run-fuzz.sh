#!/usr/bin/env bash
# run-fuzz.sh — make test's share of fuzzing: build the libFuzzer harnesses
# (tests/fuzz/), replay every committed regression input (a crash once found,
# named for its bug) and seed, then fuzz each harness for FUZZ_CI_SECONDS
# (default 10; `make fuzz` runs them longer).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
mkdir -p "$BUILD/fuzz/log"
if ! make --no-print-directory fuzz-build BUILD="$BUILD" >"$BUILD/fuzz/log/build.txt" 2>&1; then
  cat "$BUILD/fuzz/log/build.txt"
  exit 1
fi

fail=0
for src in tests/fuzz/fuzz_*.c; do
  name=${src##*/fuzz_}
  name=${name%.c}
  inputs=()
  for f in tests/fuzz/regressions/"$name"/* tests/fuzz/corpus/"$name"/*; do
    [ -f "$f" ] && inputs+=("$f")
  done
  [ ${#inputs[@]} = 0 ] && continue
  extra=()
  [ "$name" = site ] && extra=(-close_fd_mask=2)
  log=$BUILD/fuzz/log/replay-$name.txt
  if "$BUILD/fuzz/fuzz_$name" "${extra[@]}" -timeout=10 -rss_limit_mb=2048 "${inputs[@]}" >"$log" 2>&1; then
    echo "replay $name: ${#inputs[@]} inputs, no crash"
  else
    echo "replay $name: FAILED; log $log"
    grep -E 'Running:|ERROR|SUMMARY|^ *#[0-9]+ .* in ' "$log" | tail -25 | sed 's/^/    /' || true
    fail=1
  fi
done
FUZZ_SECONDS=${FUZZ_CI_SECONDS:-10} BUILD=$BUILD tests/fuzz/run.sh || fail=1
exit $fail

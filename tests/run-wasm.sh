#!/usr/bin/env bash
# run-wasm.sh — the simulator compiled to WebAssembly gives the native
# build's bits (issue 16). Every content board, the same boards with another
# seed and cut to 30 jobs with a trace, every level state and every chart
# point: the release build writes each board's wire bytes, its binary
# results and its JSON; tests/wasm/compare.js runs the wire bytes in the
# module with generator/web/bp-sim.js and compares (see there for what else it
# checks). And every content proof's shortest counterexample, replayed in
# the module from its choices (boardpress prove --wire, --wire-result).
# The sanitizer build's wire bytes must equal the release build's,
# and the native results must be the pinned ones (tests/wasm/pins.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BP=${BP:-$BUILD/asan/boardpress}
NATIVE=$BUILD/boardpress
WASM=$BUILD/wasm/simcore.wasm
for f in "$NATIVE" "$BP" "$WASM"; do
  [ -e "$f" ] || { echo "run-wasm: $f is missing (make test-build)"; exit 1; }
done
# The module's vsnprintf (sim-core/wasm/libc.c) knows %d %i %u %c %s %%
# with l, ll and z, and nothing else: every format string in sim-core keeps
# within that, or its messages would differ from the native build's.
unknown=$(cat sim-core/*.c sim-core/wasm/*.c | grep -oE '"([^"\\]|\\.)*"' |
  grep -oE '%[-+ #0-9.*]*(hh|h|ll|l|z|j|t|L)?[a-zA-Z%]' | grep -vxE '%(l|ll|z)?[diucs]|%%' || true)
if [ -n "$unknown" ]; then
  echo "run-wasm: sim-core uses conversions the module's vsnprintf lacks:" $unknown
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 tests/wasm/variants.py content >"$tmp/variants.tsv"
# and a board that asks for a precision instead of a number of replications
printf 'until:until\ttests/wasm/until.yaml\n' >>"$tmp/variants.tsv"
# and a back-off with full jitter, with and without a trace
printf 'backoff:backoff\ttests/wasm/backoff.yaml\n' >>"$tmp/variants.tsv"
printf 'backoff:trace\ttests/wasm/backoff.yaml\t--set\ttraffic.jobs=30\t--replications\t1\t--trace\n' >>"$tmp/variants.tsv"
n=0
while IFS=$'\t' read -r -a v; do
  args=("${v[@]:1}")
  "$NATIVE" sim "${args[@]}" --wire >"$tmp/$n.wire"
  "$NATIVE" sim "${args[@]}" --wire-result >"$tmp/$n.res"
  "$NATIVE" sim "${args[@]}" >"$tmp/$n.json"
  "$BP" sim "${args[@]}" --wire >"$tmp/$n.asan"
  cmp -s "$tmp/$n.wire" "$tmp/$n.asan" || { echo "run-wasm: ${v[0]}: release and sanitizer builds write different wire bytes"; exit 1; }
  n=$((n + 1))
done <"$tmp/variants.tsv"
# each proof of the site that finds a run (a counterexample or a witness):
# its board, its run's results and its JSON, for the module to replay
r=0
for f in content/boards/*.yaml; do
  grep -q '^expect: {\(never\|sometimes\):' "$f" || continue
  "$NATIVE" prove "$f" --catalog content/catalog.yaml >"$tmp/$r.pjson"
  grep -q '"choices"' "$tmp/$r.pjson" || continue
  "$NATIVE" prove "$f" --catalog content/catalog.yaml --wire >"$tmp/$r.pwire"
  "$NATIVE" prove "$f" --catalog content/catalog.yaml --wire-result >"$tmp/$r.pres"
  basename "$f" .yaml >>"$tmp/replays.tsv"
  r=$((r + 1))
done
[ "$r" -ge 3 ] || { echo "run-wasm: only $r proofs with a counterexample to replay"; exit 1; }
# the native results themselves, pinned: a change to how the simulator
# computes must change no bit of them (tests/wasm/pins.py; REGEN=1 rewrites)
/usr/bin/python3 tests/wasm/pins.py "$tmp" ${REGEN:+--write}
node tests/wasm/compare.js "$WASM" "$tmp"

#!/usr/bin/env bash
# make regen: show how the golden outputs changed, then rewrite them, and
# pin the simulator's results anew (tests/wasm/pins.tsv).
set -euo pipefail
REGEN=1 bash "$(dirname "$0")/golden/run.sh"
REGEN=1 bash "$(dirname "$0")/run-wasm.sh"

#!/usr/bin/env bash
# make regen: show how the golden outputs changed, then rewrite them.
set -euo pipefail
REGEN=1 bash "$(dirname "$0")/golden/run.sh"

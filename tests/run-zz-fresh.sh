#!/usr/bin/env bash
# The fresh-clone check is slow (a whole second build and test run), so it
# runs only when asked: BOARDPRESS_FRESH=1 make test.
set -euo pipefail
if [ "${BOARDPRESS_FRESH:-0}" != 1 ]; then
  echo "fresh-clone check skipped (BOARDPRESS_FRESH=1 runs it)"
  exit 0
fi
exec bash "$(dirname "$0")/fresh-clone.sh"

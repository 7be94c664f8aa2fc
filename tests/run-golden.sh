#!/usr/bin/env bash
# Golden sites: boardpress output compared file by file (tests/golden/run.sh).
set -euo pipefail
exec bash "$(dirname "$0")/golden/run.sh"

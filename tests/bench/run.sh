#!/usr/bin/env bash
# make bench runs this: the bench is tests/bench/run.py on Debian's python3
# (where python3-simpy3 is installed), whatever python3 comes first in PATH.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 tests/bench/run.py "$@"

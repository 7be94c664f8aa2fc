# tests/lib.sh — the start every test script shares. Source it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It stops the script at the first failing command (set -euo pipefail),
# goes to the repository's root ($root), and sets
#   BUILD   the build tree (default build)
#   BP      the boardpress under test, as an absolute path (default
#           $BUILD/boardpress; make test gives the sanitizer build)
#   SHOTS   tests/browser/screenshots/, where browser tests put pictures
# and gives
#   workdir NAME     $work: a new folder of the script's own under $TMPDIR
#                    (or /tmp), removed when the script exits (a script with
#                    its own EXIT trap removes "$work" there)
#   browser_ready    Debian's Chromium and the npm packages as
#                    tests/browser/package-lock.json pins them
#                    (tests/browser/ready.sh)
#   site_copy SRC DIR  DIR/content/ from SRC, with the real templates/ and
#                    static/ beside it: a site folder to build or serve
# so that any two scripts can run side by side (make test runs two at a
# time): nothing shared in build/ or /tmp, servers on port 0, and each
# browser with its own profile (playwright makes one per launch).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
BP=$(realpath "${BP:-$BUILD/boardpress}")
SHOTS=$root/tests/browser/screenshots

workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/bp-$1.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

browser_ready() {
  bash "$root/tests/browser/ready.sh"
  mkdir -p "$SHOTS"
}

site_copy() {
  mkdir -p "$2"
  cp -r "$1" "$2/content"
  cp -r "$root/templates" "$root/static" "$2/"
}

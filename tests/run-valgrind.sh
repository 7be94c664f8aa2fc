#!/usr/bin/env bash
# run-valgrind.sh — memcheck on the release build (not the sanitizer one):
# a small site with a board, a level with timelines and a chart is built
# twice (the second links unchanged files), checked, simulated with --trace,
# and built once with errors in every stage of loading. Any memory error, or
# any block definitely, indirectly or possibly lost, fails the test.
# What stays "still reachable" is pixman's: its library constructor keeps a
# few blocks (about 12 KB) for the life of the process, before main() runs;
# cairo's and fontconfig's caches are released by draw_shutdown() and
# cmark-gfm's extension registry by md_shutdown(), so no suppression is used.
set -euo pipefail
BUILD=${BUILD:-build}
BP=$(realpath "$BUILD/boardpress")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bp-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
site=$work/site
cp -a "$here/bad/base" "$site"
cd "$site"
mkdir -p content/levels content/charts
cat >content/levels/fix.yaml <<'YAML'
id: fix
title: Check the key
board: boards/mini.yaml
style: toggle
timeline: true
counts: [deliveries, effects, duplicates]
choices:
  - label: ID check
    set: parts.worker.idempotency
    options:
      - {label: "Off", value: none}
      - {label: "On", value: key-in-transaction}
YAML
cat >content/charts/loss.yaml <<'YAML'
id: loss
title: Duplicates against lost acknowledgments
board: boards/mini.yaml
measure: duplicates
x: {label: Acknowledgments lost, set: links.broker.worker.lose_reply, values: [0, 10%, 20%]}
YAML
sed -i 's/jobs: 40/jobs: 12/' content/boards/mini.yaml
cat >content/page.md <<'MD'
---
title: A page
boards: [boards/mini.yaml]
levels: [levels/fix.yaml]
charts: [charts/loss.yaml]
---
Of {{ mini.jobs }} jobs, {{ mini.duplicates | ci }} ran twice ({{ mini.duplicates | goal }}).

| Measure | Value |
|---|---|
| Jobs | {{ mini.jobs }} |

{{ board mini }}

{{ timeline mini }}

{{ level fix }}

{{ chart loss }}

{{ key-numbers }}
MD

vg() { # vg NAME EXPECTED-STATUS ARGS...
  local name=$1 want=$2 status=0
  shift 2
  SOURCE_DATE_EPOCH=0 valgrind -q --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible \
    --num-callers=30 "$BP" "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  if [ "$status" != "$want" ]; then
    echo "valgrind: FAIL: $name exited $status, expected $want"
    cat "$work/$name.err"
    exit 1
  fi
  echo "valgrind: $name: no memory errors, nothing lost (exit $status)"
}

vg build 0 build -q --no-cache
vg rebuild 0 build -q --no-cache
vg check 0 check -q
vg sim 0 sim content/boards/mini.yaml --catalog content/catalog.yaml --trace --set replications=3

# Errors in site.yaml, a page, a board, a level and a template: the error paths free too.
echo "title: [x]" >content/site.yaml
printf -- '---\ntitle: Bad\nboards: [boards/mini.yaml, boards/none.yaml]\norder: x\n---\n{{ mini.nope }}\n' >content/bad.md
sed -i 's/protocol: amqp/protocol: amqq/' content/boards/mini.yaml
sed -i 's/style: toggle/style: switch/' content/levels/fix.yaml
vg bad 1 build -q --no-cache

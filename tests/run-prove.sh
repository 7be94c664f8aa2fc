#!/usr/bin/env bash
# `boardpress prove`: the JSON of a proof and of a counterexample, its
# events as `sim --trace` prints them, minimality, exit codes, bad input.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "prove: FAIL: $*"; exit 1; }
cat_="$root/tests/golden/catalog.yaml"

# Every field of the model's state is in a proof's fingerprint or left out
# for a reason (tests/check_state.py). It must fail on a copy with a new
# field nobody decided on and with a field listed as hashed that the
# fingerprint never reads, and pass on the tree.
python3 "$root/tests/check_state.py" --root "$root" || fail "check_state.py: the tree fails"
mkdir -p "$tmp/state"
cp -r "$root/sim-core" "$tmp/state/"
sed -i 's|^    bool down, pumping;$|&\n    int64_t poll_us;|' "$tmp/state/sim-core/model.h"
sed -i 's|^ \* \[sim_model\] room: .*|&\n * [sim_model] hashed: dl_n.|; s|left out: dl_us dl_n\.|left out: dl_us.|' \
  "$tmp/state/sim-core/model_state.c"
rc=0
out=$(python3 "$root/tests/check_state.py" --root "$tmp/state") || rc=$?
[ "$rc" = 1 ] || fail "check_state.py passed a copy with a new field (exit $rc)"
for want in 'sim-core/model.h:[0-9]*:1: error: sim_hop.poll_us is not in the fingerprint' \
            'sim-core/model_state.c:[0-9]*:1: error: sim_model.dl_n is listed as hashed but'; do
  grep -q "$want" <<<"$out" || fail "check_state.py: no '$want' in:"$'\n'"$out"
done
[ "$(wc -l <<<"$out")" = 2 ] || fail "check_state.py: more than the two lines:"$'\n'"$out"
echo "prove: every field of the state is hashed or left out for a reason"

board() { # board NAME POLICY: a consumer that loses one ack in a hundred
  cat >"$tmp/$1.yaml" <<YAML
id: $1
title: A consumer ($2)
seed: 1
replications: 1
parts:
  - {id: users, kind: users}
  - {id: broker, kind: message-broker}
  - {id: processor, kind: consumer, idempotency: $2, crash_after_effect: 1%}
  - {id: ledger, kind: database}
links:
  - {from: users, to: broker, protocol: http2}
  - {from: broker, to: processor, protocol: amqp, lose_reply: 1%}
  - {from: processor, to: ledger, protocol: sql}
traffic: {from: users, jobs: 100, over: 10 s, op: charge, arrivals: even}
goals:
  duplicates: {max: 0}
YAML
}
board nokey none
board intx key-in-transaction

"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --jobs 2 --faults 2 >"$tmp/a.json"
"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --jobs 2 --faults 0 >"$tmp/b.json"
"$BP" prove "$tmp/intx.yaml" --catalog "$cat_" --jobs 2 --faults 2 >"$tmp/c.json"
"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --jobs 2 --faults 2 --sometimes duplicates >"$tmp/d.json"
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
a, b, c, d = (json.load(open("%s/%s.json" % (t, n))) for n in "abcd")
keys = ["board", "holds", "claim", "measure", "jobs", "faults", "runs", "events", "seconds"]
assert list(a)[:len(keys)] == keys, list(a)
assert a["holds"] is False and a["measure"] == "duplicates" and a["claim"] == "never", a
assert a["jobs"] == 2 and a["faults"] == 2 and a["runs"] > 1
cx = a["counterexample"]
assert cx["faults"] == 1 and cx["value"] >= 1, cx
kinds = [e["kind"] for e in cx["events"]]
assert kinds.count("lost-reply") + kinds.count("crash") == 1, kinds
assert kinds.count("effect") >= 3, kinds
for e in cx["events"]:
    assert set(e) <= {"t_s", "kind", "job", "part", "peer", "detail", "copy"}, e
# one fault fewer: no counterexample, so the one above is the shortest
assert b["holds"] is True and "counterexample" not in b and b["runs"] >= 1, b
assert c["holds"] is True and "counterexample" not in c and c["runs"] > a["runs"], (a, c)
# the budget's prediction, made before the proof ran, is near what it made
assert c["runs"] / 3 <= c["estimate"] <= c["runs"] * 3, c
assert d["holds"] is True and d["claim"] == "sometimes" and d["witness"]["faults"] == 1, d
PY

# the same proof twice: the same runs and the same counterexample
"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --jobs 2 --faults 2 >"$tmp/a2.json"
python3 -c "
import json,sys
a,b=(json.load(open(p)) for p in sys.argv[1:]); a.pop('seconds'); b.pop('seconds')
assert a == b" "$tmp/a.json" "$tmp/a2.json" || fail "a proof is not reproducible"

# A proof counts the runs from a state it has met before instead of
# running them again: it says what replaying every run to its end says,
# on every proof board of the site and on the boards above, its own bounds
# and others, each claim and its opposite.
same() { # same ARGS...: prove ARGS and prove ARGS --every-run print the same but the time
  "$BP" prove "$@" >"$tmp/s.json"
  "$BP" prove "$@" --every-run >"$tmp/p.json"
  python3 -c "
import json,sys
a,b=(json.load(open(p)) for p in sys.argv[1:]); a.pop('seconds'); b.pop('seconds')
assert a == b, (a, b)" "$tmp/s.json" "$tmp/p.json" || fail "counting states changes the proof: prove $*"
}
for b in "$root"/content/boards/prove-*.yaml; do
  cat2="$root/content/catalog.yaml"
  same "$b" --catalog "$cat2"
  m=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["measure"], d["claim"])' "$tmp/s.json")
  set -- $m
  [ "$2" = never ] && other=--sometimes || other=--never
  same "$b" --catalog "$cat2" "$other" "$1" --jobs 2 --faults 1
  same "$b" --catalog "$cat2" --jobs 1 --faults 3
done
for b in nokey intx; do
  for jf in "1 4" "2 3" "3 1" "4 1"; do
    set -- $jf
    same "$tmp/$b.yaml" --catalog "$cat_" --jobs "$1" --faults "$2"
    same "$tmp/$b.yaml" --catalog "$cat_" --jobs "$1" --faults "$2" --sometimes duplicates
  done
done

# bad input: 1 with PATH:LINE:COL; bad usage: 2
set +e
"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --never latency_p99 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a measure that is not a fault count should exit 1, got $rc"
grep -q "nokey.yaml:[0-9]*:[0-9]*: error: a proof needs a fault count" "$tmp/err" || fail "$(cat "$tmp/err")"
"$BP" prove "$tmp/nokey.yaml" --catalog "$cat_" --never ghost_events >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a second-hop measure on one hop should exit 1, got $rc"
grep -q "error: ghost_events needs a board with two hops" "$tmp/err" || fail "$(cat "$tmp/err")"
sed 's/^goals:/goals_x:/; /duplicates: {max: 0}/d' "$tmp/nokey.yaml" >"$tmp/noclaim.yaml"
"$BP" prove "$tmp/noclaim.yaml" --catalog "$cat_" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a board with an unknown key should exit 1, got $rc"
sed '/^goals:/d; /duplicates: {max: 0}/d' "$tmp/nokey.yaml" >"$tmp/noclaim.yaml"
"$BP" prove "$tmp/noclaim.yaml" --catalog "$cat_" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a board that claims nothing should exit 1, got $rc"
grep -q "noclaim.yaml:1:1: error: the board has no claim (expect: {never: MEASURE}) and no goal of at most 0" "$tmp/err" || fail "$(cat "$tmp/err")"
# a board whose claim is its expect: is proved with the claim's own bounds
sed '/^goals:/d; /duplicates: {max: 0}/d' "$tmp/intx.yaml" >"$tmp/claimed.yaml"
echo 'expect: {never: duplicates, jobs: 2, faults: 1}' >>"$tmp/claimed.yaml"
"$BP" prove "$tmp/claimed.yaml" --catalog "$cat_" >"$tmp/e.json" 2>"$tmp/err" || fail "a claim-only board: $(cat "$tmp/err")"
"$BP" prove "$tmp/claimed.yaml" --catalog "$cat_" --faults 2 >"$tmp/f.json" 2>"$tmp/err" || fail "$(cat "$tmp/err")"
python3 - "$tmp" <<'PY' || fail "a board's claim and its bounds are not what prove used"
import json, sys
e, f = (json.load(open("%s/%s.json" % (sys.argv[1], n))) for n in "ef")
assert e["claim"] == "never" and e["measure"] == "duplicates" and e["holds"] is True, e
assert (e["jobs"], e["faults"]) == (2, 1), e
assert (f["jobs"], f["faults"]) == (2, 2) and f["runs"] > e["runs"], (e, f)
PY
"$BP" prove "$tmp/intx.yaml" --catalog "$cat_" --jobs 8 --faults 6 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "a proof over the work budget should exit 1, got $rc"
grep -q "error: the proof of 8 jobs with up to 6 faults needs about [0-9]* runs, more than the work budget" "$tmp/err" || fail "$(cat "$tmp/err")"
"$BP" prove >/dev/null 2>&1; [ $? = 2 ] || fail "prove without a board should exit 2"
"$BP" prove "$tmp/nokey.yaml" --jobs 9 >/dev/null 2>&1; [ $? = 2 ] || fail "--jobs 9 should exit 2"
"$BP" prove "$tmp/nokey.yaml" --never duplicats >/dev/null 2>&1; [ $? = 2 ] || fail "an unknown measure should exit 2"
set -e

# In a page: {{ proof }} states the prover's own count, {{ counterexample }}
# draws the shortest run in every look and names its one fault.
site="$tmp/site"
cp -a "$root/tests/bad/base" "$site"
cp "$cat_" "$site/content/catalog.yaml" 2>/dev/null || true
for b in intx after; do
  pol=key-in-transaction; claim=never
  [ $b = after ] && { pol=key-after-effect; claim=sometimes; }
  board "$b" "$pol"
  sed -i -e '/^goals:/,$d' "$tmp/$b.yaml"
  echo "expect: {$claim: duplicates, jobs: 2, faults: 1}" >>"$tmp/$b.yaml"
  cp "$tmp/$b.yaml" "$site/content/boards/$b.yaml"
done
printf -- '---\ntitle: A page\nboards: [boards/intx.yaml, boards/after.yaml]\n---\n{{ proof intx }}\n\n{{ counterexample after }}\n' >"$site/content/page.md"
(cd "$site" && "$BP" build -q --no-cache --out public) || fail "a site with a proof and a counterexample does not build"
runs=$("$BP" prove "$tmp/intx.yaml" --catalog "$site/content/catalog.yaml" --never duplicates --jobs 2 --faults 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"])')
html="$site/public/page/index.html"
grep -q "data-runs=\"$runs\"" "$html" || fail "the proof does not state the prover's $runs runs: $(grep -o 'bp-proof.*' "$html" | head -c 300)"
# the counterexample's four drawings are in the page, each row an element
# the page's stepper marks
for look in "wide bp-v-light" "wide bp-v-dark" "narrow bp-v-light" "narrow bp-v-dark"; do
  grep -q "<div class=\"bp-v bp-v-$look bp-diagram\"><svg role=\"img\"" "$html" || fail "no inline counterexample drawing bp-v-$look: $(grep -o 'bp-counterexample.*' "$html" | head -c 300)"
done
grep -q 'rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*" fill="none" rx="4" data-row="0"' "$html" || fail "the counterexample's rows carry no data-row"
grep -q 'bp-counterexample"[^>]* data-rows="[^"|]*|' "$html" || fail "the counterexample has no data-rows"

grep -q 'has 1 fault, and no run with fewer has one: a crash of the' "$html" || fail "the counterexample does not name its crash: $(grep -o 'bp-counterexample.*' "$html" | head -c 400)"
# the figure replays in the reader's browser: the module, given the page's
# board bytes and choices (bp-replay.js), gives the proof's own events
for f in simcore.wasm bp-sim.js bp-replay.js; do
  [ -s "$site/public/static/$f" ] || fail "a site with a counterexample has no static/$f"
done
grep -q '<script src="../static/bp-replay.js" defer></script>' "$html" || fail "the page does not load bp-replay.js"
"$BP" prove "$tmp/after.yaml" --catalog "$site/content/catalog.yaml" >"$tmp/after.json"
node - "$root" "$site/public" "$html" "$tmp/after.json" <<'JS' || fail "the page's replay does not give the proof's events"
const fs = require('fs'), [root, pub, html, json] = process.argv.slice(2);
const BpSim = require(root + '/generator/web/bp-sim.js');
const BpReplay = require(root + '/generator/web/bp-replay.js');
const page = fs.readFileSync(html, 'utf8');
const at = (k) => page.match(new RegExp('class="[^"]*bp-counterexample"[^>]*data-' + k + '="([^"]*)"'))[1];
const wire = Buffer.from(at('wire'), 'base64'), choices = Uint8Array.from(at('choices'), Number);
const want = JSON.parse(fs.readFileSync(json, 'utf8')).witness;
if (at('choices') !== want.choices) throw new Error('choices ' + at('choices') + ' vs ' + want.choices);
BpSim.load(fs.readFileSync(pub + '/static/simcore.wasm')).then((sim) => {
  const got = BpSim.decodeResult(BpReplay.run(sim, wire, choices)).trace;
  if (got.length !== want.events.length) throw new Error(got.length + ' events vs ' + want.events.length);
  // the replay steps through the rows the build drew, each once, in order
  const fig = { getAttribute: (k) => at(k.replace(/^data-/, '')) };
  const rows = BpReplay.rowsOf(got, fig), n = at('rows').split('|').length;
  if (!rows || rows.length !== n || rows.some((r, i) => r !== i))
    throw new Error('the replay reaches rows ' + JSON.stringify(rows) + ' of the ' + n + ' drawn');
  got.forEach((e, i) => {
    const w = want.events[i];
    if (e.kind !== w.kind || e.job !== w.job || Math.abs(e.t_us / 1e6 - w.t_s) > 1e-6)
      throw new Error('event ' + i + ': ' + JSON.stringify(e) + ' vs ' + JSON.stringify(w));
  });
}).catch((e) => { console.log(e.message); process.exit(1); });
JS
echo "prove: ok"

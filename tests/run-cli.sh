#!/usr/bin/env bash
# The command line: exit codes, `sim` JSON, --set, --trace, check, watch.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BP=${BP:-$root/build/boardpress}
BP=$(cd "$(dirname "$BP")" && pwd)/$(basename "$BP")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cli: FAIL: $*"; exit 1; }
cat_="$root/tests/golden/catalog.yaml"
board="$root/tests/golden/cases/inline-values/content/boards/lossy.yaml"

# usage errors exit 2
set +e
"$BP" >/dev/null 2>&1; [ $? = 2 ] || fail "no command should exit 2"
"$BP" frobnicate >/dev/null 2>&1; [ $? = 2 ] || fail "unknown command should exit 2"
"$BP" build --jobs 0 >/dev/null 2>&1; [ $? = 2 ] || fail "--jobs 0 should exit 2"
"$BP" sim >/dev/null 2>&1; [ $? = 2 ] || fail "sim without a board should exit 2"
"$BP" sim "$tmp/missing.yaml" --catalog "$cat_" >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "missing board file should exit 1, got $rc"
grep -q "missing.yaml: error: cannot read the board: no such file" "$tmp/err" || fail "missing board message: $(cat "$tmp/err")"
"$BP" --version | grep -q "^boardpress " || fail "--version"
"$BP" --help | grep -q "exit status" || fail "--help"

# sim --wire / --wire-result: the binary forms (sim-core/WIRE.md; tests/run-wasm.sh
# compares them with the WebAssembly module); a full disk is an I/O failure
"$BP" sim "$board" --catalog "$cat_" --wire >"$tmp/b.wire"
"$BP" sim "$board" --catalog "$cat_" --set traffic.jobs=11 --wire >"$tmp/c.wire"
[ "$(head -c 4 "$tmp/b.wire")" = 'BPSW' ] || fail "--wire header"
! cmp -s "$tmp/b.wire" "$tmp/c.wire" || fail "--wire ignores --set"
"$BP" sim "$board" --catalog "$cat_" --wire-result >"$tmp/b.res"
[ "$(head -c 4 "$tmp/b.res")" = BPSR ] || fail "--wire-result header"
if [ -w /dev/full ]; then
  set +e
  "$BP" sim "$board" --catalog "$cat_" --wire-result >/dev/full 2>"$tmp/err"; rc=$?
  set -e
  [ $rc = 3 ] || fail "--wire-result onto a full disk should exit 3, got $rc"
fi

# sim: JSON with the fixed measure names, reproducible, --seed / --replications / --set
"$BP" sim "$board" --catalog "$cat_" >"$tmp/a.json"
"$BP" sim "$board" --catalog "$cat_" >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "sim is not reproducible"
python3 - "$tmp/a.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["board"] == "lossy" and r["seed"] == 3 and r["replications"] == 4, r
keys = ["jobs","deliveries","effects","duplicates","charged_twice","lost_writes","errors",
        "error_rate","completion_time_s","latency_p50_s","latency_p99_s","monthly_cost_usd","events"]
assert list(r["measures"]) == keys, list(r["measures"])
m = r["measures"]
assert m["jobs"] == 200 and m["duplicates"] > 0 and m["effects"] == m["deliveries"]
assert abs(m["duplicates"] - (m["effects"] - m["jobs"])) < 1e-9
assert r["spread"]["duplicates"]["min"] <= m["duplicates"] <= r["spread"]["duplicates"]["max"]
assert r["goals"]["duplicates"] == {"max": 0, "worst": r["spread"]["duplicates"]["max"], "pass": False}
assert r["expect"] == "fail" and r["expect_ok"] is True
# issue 19: exact rates of the fault counts, percentiles' samples, randomness
assert list(r["rates"]) == ["duplicates", "charged_twice", "lost_writes", "errors"], r["rates"]
d = r["rates"]["duplicates"]
assert d["jobs"] == 800 and d["count"] == round(m["duplicates"] * 4) and not d["one_sided"]
assert d["lo"] < d["per_job"] < d["hi"] and d["preferred"] is False
lw = r["rates"]["lost_writes"]
assert lw == {"count": 0, "jobs": 800, "per_job": 0, "lo": 0, "hi": 0.00373766,
              "one_sided": True, "preferred": True}, lw
assert r["deterministic"] is False and r["random_faults"] is True
assert r["latency"]["samples"] >= 190 and r["latency"]["p99_is_max"] is False, r["latency"]
assert "until" not in r and "paired" not in r
PY
# --against: the other board on the same seed and replications, paired
"$BP" sim "$board" --catalog "$cat_" --set parts.worker.idempotency=key-in-transaction \
  --against "$board" >"$tmp/p.json"
python3 - "$tmp/a.json" "$tmp/p.json" <<'PY'
import json, sys
a, p = (json.load(open(f)) for f in sys.argv[1:3])
d = p["paired"]
assert d["against"] == "lossy" and list(d["measures"]) == list(p["measures"]), d
m = d["measures"]
# this board minus the other: the ID check removes every duplicate, and on
# common random numbers the deliveries are the very same
assert m["duplicates"]["mean_diff"] == -a["measures"]["duplicates"], m["duplicates"]
assert m["deliveries"] == {"mean_diff": 0, "ci95": 0, "min": 0, "max": 0}, m["deliveries"]
assert m["completion_time_s"]["ci95"] < a["spread"]["completion_time_s"]["ci95"]
PY
"$BP" sim "$board" --catalog "$cat_" --seed 12 --replications 3 --against "$board" >"$tmp/p2.json"
python3 - "$tmp/p2.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
assert p["seed"] == 12 and p["replications"] == 3
# the same board against itself: every difference is exactly 0
assert all(v == {"mean_diff": 0, "ci95": 0, "min": 0, "max": 0}
           for v in p["paired"]["measures"].values()), p["paired"]
PY
set +e
"$BP" sim "$board" --catalog "$cat_" --against "$board" --wire >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 2 ] || fail "--against with --wire should exit 2, got $rc"
grep -q "^boardpress: error: --against adds to the JSON results; it does not go with --wire" "$tmp/err" || fail "--against --wire message: $(cat "$tmp/err")"
set +e
"$BP" sim "$board" --catalog "$cat_" --against "$tmp/missing.yaml" >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "--against a missing board should exit 1, got $rc"
# replications: {until}: as many as the goal measure's precision needs
sed 's/^replications: 4$/replications: {until: 10%, max: 60}/' "$board" >"$tmp/until.yaml"
"$BP" sim "$tmp/until.yaml" --catalog "$cat_" >"$tmp/u.json"
sed 's/^replications: 4$/replications: {until: 0.1%, max: 12}/' "$board" >"$tmp/until2.yaml"
"$BP" sim "$tmp/until2.yaml" --catalog "$cat_" >"$tmp/u2.json"
python3 - "$tmp/u.json" "$tmp/u2.json" <<'PY'
import json, sys
u, u2 = (json.load(open(f)) for f in sys.argv[1:3])
assert u["until"] == {"target": 0.1, "min": 10, "max": 60, "met": True}, u["until"]
assert 10 <= u["replications"] < 60
for k in u["goals"]: # every goal measure within 10% of its mean
    assert u["spread"][k]["ci95"] <= 0.1 * u["measures"][k], (k, u["spread"][k])
assert u2["until"] == {"target": 0.001, "min": 10, "max": 12, "met": False}, u2["until"]
assert u2["replications"] == 12
PY
"$BP" sim "$board" --catalog "$cat_" --seed 9 --replications 1 --set parts.worker.idempotency=key-in-transaction >"$tmp/c.json"
python3 - "$tmp/c.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["seed"] == 9 and r["replications"] == 1 and "spread" not in r, r
assert r["measures"]["duplicates"] == 0 and r["goals"]["duplicates"]["pass"] is True
PY
set +e
"$BP" sim "$board" --catalog "$cat_" --set parts.wroker.idempotency=none >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "--set on a missing part should exit 1"
grep -qx -e "--set: error: no part 'wroker' on the board; did you mean 'worker'?" "$tmp/err" || fail "--set message: $(cat "$tmp/err")"
set +e
"$BP" sim "$board" --catalog "$cat_" --set parts.worker.idempotency=key-in-transation >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "--set with a bad value should exit 1"
grep -q "unknown idempotency policy 'key-in-transation'; did you mean 'key-in-transaction'?" "$tmp/err" || fail "--set value message: $(cat "$tmp/err")"

# a two-hop board: the second hop's measures in the JSON, --set on the new keys
cat >"$tmp/two.yaml" <<'YAML'
id: two
title: Two hops
seed: 5
replications: 2
parts:
  - {id: users, kind: users}
  - {id: orders, kind: message-broker}
  - {id: shop, kind: consumer, idempotency: key-in-transaction, crash_after_commit: 10%}
  - {id: events, kind: message-broker}
  - {id: mailer, kind: consumer, idempotency: key-in-transaction}
links:
  - {from: users, to: orders, protocol: http2}
  - {from: orders, to: shop, protocol: amqp}
  - {from: shop, to: events, protocol: amqp}
  - {from: events, to: mailer, protocol: amqp}
traffic: {from: users, jobs: 300, over: 30 s}
goals:
  lost_events: {max: 0}
YAML
"$BP" sim "$tmp/two.yaml" --catalog "$cat_" >"$tmp/two-after.json"
"$BP" sim "$tmp/two.yaml" --catalog "$cat_" --set parts.shop.publish=outbox \
  --set parts.shop.relay_every=200ms --set parts.events.dedup_window=sqs-fifo >"$tmp/two-outbox.json"
python3 - "$tmp/two-after.json" "$tmp/two-outbox.json" <<'PY'
import json, sys
after, outbox = (json.load(open(p)) for p in sys.argv[1:3])
second = ["lost_events", "ghost_events", "downstream_deliveries", "downstream_effects",
          "downstream_duplicates", "downstream_lost_writes", "downstream_errors"]
for r in (after, outbox):
    assert list(r["measures"])[-7:] == second, list(r["measures"])
    assert list(r["spread"])[-7:] == second
assert after["measures"]["lost_events"] > 0 and after["goals"]["lost_events"]["pass"] is False
assert outbox["measures"]["lost_events"] == 0 and outbox["goals"]["lost_events"]["pass"] is True
assert outbox["measures"]["downstream_effects"] == 300
PY
set +e
"$BP" sim "$tmp/two.yaml" --catalog "$cat_" --set parts.shop.publish=outbx >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "--set with a bad publish order should exit 1"
grep -q "unknown publish order 'outbx'; did you mean 'outbox'?" "$tmp/err" || fail "--set publish message: $(cat "$tmp/err")"
set +e
"$BP" sim "$board" --catalog "$cat_" --set parts.worker.lease=2s >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ $rc = 1 ] || fail "--set lease without key-claimed-first should exit 1"
grep -q "'lease' applies only with idempotency: key-claimed-first" "$tmp/err" || fail "--set lease message: $(cat "$tmp/err")"
"$BP" sim "$board" --catalog "$cat_" --set parts.worker.idempotency=key-claimed-first --set parts.worker.lease=2s >/dev/null

# --trace on a small board: events in time order
"$BP" sim "$board" --catalog "$cat_" --replications 1 --set traffic.jobs=5 --trace >"$tmp/t.json"
python3 - "$tmp/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["trace"]
assert t and all(a["t_s"] <= b["t_s"] for a, b in zip(t, t[1:]))
assert {e["kind"] for e in t} >= {"arrive", "send", "receive", "effect", "reply"}
assert sum(1 for e in t if e["kind"] == "arrive") == 5
PY

# check writes nothing; build then watch rebuilds once per change
mkdir -p "$tmp/site"
cp -r "$root/tests/golden/cases/inline-values/content" "$tmp/site/content"
cp "$cat_" "$tmp/site/content/"
cp -r "$root/tests/golden/templates" "$root/tests/golden/static" "$tmp/site/"
(cd "$tmp/site" && "$BP" check -q --no-cache)
[ ! -e "$tmp/site/public" ] || fail "check wrote public/"
# (generous bounds: a sanitizer build on a busy machine starts slowly)
(cd "$tmp/site" && BOARDPRESS_WATCH_MAX=1 timeout 300 "$BP" watch --no-cache 2>"$tmp/watch.err" &)
for _ in $(seq 1200); do grep -q "watching" "$tmp/watch.err" 2>/dev/null && break; sleep 0.1; done
sed -i 's/^Mean /Average /' "$tmp/site/content/values.md"
for _ in $(seq 1200); do grep -q "rebuilt in" "$tmp/watch.err" && break; sleep 0.1; done
grep -q "content/values.md changed; rebuilt in" "$tmp/watch.err" || fail "watch: $(cat "$tmp/watch.err")"
grep -q "<p>Average " "$tmp/site/public/values/index.html" || fail "watch did not rebuild the page"
echo "cli: ok"

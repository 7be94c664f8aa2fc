#!/usr/bin/env bash
# seed.sh — (re)write the committed seed corpora tests/fuzz/corpus/NAME/ from
# the site's content/ and templates/ and the bad-input fixtures in tests/bad/.
# Files are named by the hash of their bytes, so running it again only adds.
# Usage (from the repository root): tests/fuzz/seed.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/fuzz/corpus

# put NAME [PREFIX-BYTE] < data: store one input
put() {
  local name=$1 tmp
  tmp=$(mktemp)
  if [ $# -gt 1 ]; then printf "\\x$2" >"$tmp"; fi
  cat >>"$tmp"
  mkdir -p "$out/$name"
  mv "$tmp" "$out/$name/$(sha1sum <"$tmp" | cut -c1-16)"
}

body() { awk 'n >= 2 { print } /^---$/ && n < 2 { n++ }' "$1"; }

for f in content/*.md tests/bad/base/content/*.md tests/bad/*/files/content/*.md; do
  [ -f "$f" ] || continue
  put page <"$f"
  body "$f" | put markdown 00
  body "$f" | put site
done
for f in content/catalog.yaml tests/bad/base/content/catalog.yaml tests/bad/*/files/content/catalog.yaml; do
  [ -f "$f" ] && put yaml 00 <"$f"
done
for f in content/boards/*.yaml tests/bad/base/content/boards/*.yaml tests/bad/*/files/content/boards/*.yaml; do
  [ -f "$f" ] && put yaml 01 <"$f"
done
for f in content/levels/*.yaml tests/bad/*/files/content/levels/*.yaml; do
  [ -f "$f" ] && put yaml 02 <"$f"
done
for f in content/charts/*.yaml tests/bad/*/files/content/charts/*.yaml; do
  [ -f "$f" ] && put yaml 03 <"$f"
done
for f in content/site.yaml tests/bad/*/files/content/site.yaml; do
  [ -f "$f" ] && put yaml 04 <"$f"
done
# boards of the second release: publisher retries into a dedup window, and
# two hops with an outbox, a claimed key and a lost confirm
put yaml 01 <<'YAML'
#set parts.users.message_id=producer
#set links.users.broker.lose_reply=30%
id: pub
title: Publisher retries
parts:
  - {id: users, kind: users, tries: 3, timeout: 200 ms}
  - {id: broker, kind: message-broker, dedup_window: sqs-fifo}
  - {id: worker, kind: consumer, idempotency: key-claimed-first, lease: 2 s, work_median: 1 s, work_p99: 4 s}
links:
  - {from: users, to: broker, protocol: http2, lose_request: 10%}
  - {from: broker, to: worker, protocol: amqp, lose_reply: 20%}
traffic: {from: users, jobs: 30, over: 3 s}
goals:
  duplicates: {max: 0}
YAML
put yaml 01 <<'YAML'
#set parts.shop.publish=before-commit
id: two
title: Two hops
parts:
  - {id: users, kind: users}
  - {id: orders, kind: message-broker}
  - {id: shop, kind: consumer, idempotency: key-in-transaction, crash_after_commit: 20%, crash_after_effect: 10%, publish: outbox, relay_every: 100 ms}
  - {id: events, kind: message-broker, dedup_window: 300 ms}
  - {id: mailer, kind: service, idempotency: none}
  - {id: psp, kind: payment-provider}
links:
  - {from: users, to: orders, protocol: http2}
  - {from: orders, to: shop, protocol: amqp, transactional: true, lose_reply: 10%}
  - {from: shop, to: events, protocol: amqp, lose_reply: 30%, lose_reply_of: [2]}
  - {from: events, to: mailer, protocol: amqp}
  - {from: mailer, to: psp, protocol: http2}
traffic: {from: users, jobs: 30, over: 3 s}
goals:
  lost_events: {max: 0}
  ghost_events: {max: 0}
  downstream_duplicates: {max: 0}
YAML
# a board with overrides, as a level makes them
{ printf '#set parts.worker.idempotency=key-in-transaction\n#set links.broker.worker.lose_reply=50%%\n'
  cat tests/bad/base/content/boards/mini.yaml; } | put yaml 01
for f in templates/*.html templates/partials/*.html tests/bad/base/templates/*.html \
  tests/bad/base/templates/partials/*.html tests/bad/*/files/templates/*.html tests/bad/*/files/templates/partials/*.html; do
  [ -f "$f" ] && put template <"$f"
done
# the board encoding of every content board as the generator writes it
# (needs the release build: make), with a trace and with level-like overrides
bp=${BP:-build/boardpress}
if [ -x "$bp" ]; then
  for f in content/boards/*.yaml tests/bad/base/content/boards/*.yaml; do
    "$bp" sim "$f" --catalog "$(dirname "$f")/../catalog.yaml" --wire | put wire
  done
  "$bp" sim content/boards/mini.yaml --trace --wire | put wire
  "$bp" sim content/boards/every-delivery.yaml --set parts.processor.idempotency=key-in-transaction \
    --set links.broker.processor.lose_reply=50% --replications 3 --wire | put wire
else
  echo "seed.sh: no $bp; the wire corpus is left as it is (run make first)" >&2
fi
for v in "150 ms" "10 s" "5 min" "24 h" "7 d" "1.5 us" "forever" "0 s" "-1 s" "12 USD" "0.5 USD" \
  "20%" "0.2" "1" "100%" "3" "+7" "-0" "999999999999999" "1e3" "10 sec" "0.000001 s" "106751 d" \
  "1.25" "12 EUR" ""; do
  printf '%s' "$v" | put units
done
echo "seed corpora: $(find "$out" -type f | wc -l) files in $out"

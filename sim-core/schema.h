/* schema.h — the one list of a board's fields. Every field of sim_part,
 * sim_link and the board's scalars (with its traffic and prices) is one
 * row here, in the order it travels on the wire (WIRE.md). From these
 * lists come the wire encoder and decoder (wire.c), the loader's schema of
 * part and link settings with their kinds, ranges and units (the
 * generator's load/fields.c), the results cache key (the wire encoding
 * with ids blanked) and the test that changing any field changes that key
 * (tests/unit/test_cache.c).
 *
 * A list is an X-macro taking two macros:
 *   W(member, wire, ctype, aux)
 *       a field on the wire only (set by the loader's own code, or none):
 *       wire is BOOL, INT, ENUM, I64, U64, SIZE, F64, ID or JOBS (WIRE.md);
 *       ctype the member's C type (checked at compile time); aux the
 *       number of values of an ENUM, the member holding a JOBS count, else 0.
 *   S(member, wire, ctype, aux, key, load, kinds, min, max, label, unit, rank, order, help)
 *       a setting a board or the catalog writes as key (a YAML key):
 *       load is how the loader reads it (the generator's FT_ types: INT,
 *       NUMBER, PROB, DURATION, TTL, WINDOW, MONEY, BOOL, IDEM, DELIVERY,
 *       PUBLISH, MSGID, BACKOFF); kinds the part kinds that take it
 *       (SIM_KB_ bits; 0 for a link or traffic setting); min and max an
 *       INT's range; label the page's words after the part's kind; unit
 *       the word after an INT or NUMBER; rank its place in the page's
 *       default key numbers (0: not there); order its place in the lists
 *       people read (help, messages, the catalog), 0, 1, 2, ... without gaps;
 *       help the author's line about it (`boardpress help`, docs/boards.md).
 *
 * To add a setting: one S row where it belongs on the wire, bump
 * SIM_WIRE_VERSION (wire.h) and say so in WIRE.md, then the model code that
 * uses it. Nothing here is read at run time but through those users. */
#ifndef SIM_SCHEMA_H
#define SIM_SCHEMA_H

#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The part kinds that take a setting. */
#define SIM_KB(k) (1u << (unsigned)(k))
#define SIM_KB_USERS SIM_KB(SIM_KIND_USERS)
#define SIM_KB_BROKER SIM_KB(SIM_KIND_BROKER)
#define SIM_KB_HANDLER (SIM_KB(SIM_KIND_CONSUMER) | SIM_KB(SIM_KIND_SERVICE))
#define SIM_KB_PROVIDER SIM_KB(SIM_KIND_PROVIDER)
#define SIM_KB_DB SIM_KB(SIM_KIND_DATABASE)
#define SIM_KB_SIZED (SIM_KB_BROKER | SIM_KB_HANDLER | SIM_KB_DB)

/* sim_part, in wire order. */
#define SIM_PART_FIELDS(W, S)                                                                      \
    W(kind, ENUM, sim_kind, SIM_KIND_COUNT)                                                        \
    S(vcpu, F64, double, 0, "vcpu", NUMBER, SIM_KB_SIZED, 0, 0, "size", "vCPU", 0, 0,              \
      "Virtual CPUs the part runs on; priced per month by the catalog's `price.vcpu`.")            \
    S(gb, F64, double, 0, "gb", NUMBER, SIM_KB_SIZED, 0, 0, "memory", "GB", 0, 1,                  \
      "Memory in GB; priced per month by the catalog's `price.gb`.")                               \
    S(external, BOOL, bool, 0, "external", BOOL, SIM_KB_SIZED | SIM_KB_PROVIDER, 0, 0,             \
      "run by someone else", NULL, 0, 3, "Run by someone else: left out of `monthly_cost`.")       \
    S(fixed_usd_month, F64, double, 0, "price", MONEY, SIM_KB_SIZED, 0, 0,                         \
      "fixed price per month", NULL, 0, 2, "A fixed price per month on top of vCPU and GB.")       \
    S(tries, INT, int, 0, "tries", INT, SIM_KB_USERS | SIM_KB_BROKER, 1, 100, "delivery tries",    \
      "tries", 1, 4,                                                                               \
      "Sends in all before giving up (the first one and the retries). On a broker: "               \
      "deliveries of one message; on users: requests or publishes of one job.")                    \
    S(redelivery_after_us, I64, int64_t, 0, "redelivery_after", BACKOFF, SIM_KB_BROKER, 0, 0,      \
      "redelivers after", NULL, 2, 5,                                                              \
      "How long a broker waits for a consumer's ack before it delivers the "                       \
      "message again: one duration for every try, or a back-off "                                  \
      "`{first: 1 s, factor: 2, max: 1 min, jitter: full}` (try k waits "                          \
      "first × factor^(k−1), at most max; full jitter draws each wait "                         \
      "uniformly below that; first left out is the catalog's, factor 2, "                          \
      "max none, jitter none).")                                                                   \
    W(backoff_factor, F64, double, 0)                                                              \
    W(backoff_max_us, I64, int64_t, 0)                                                             \
    W(backoff_jitter, BOOL, bool, 0)                                                               \
    S(timeout_us, I64, int64_t, 0, "timeout", DURATION, SIM_KB_USERS | SIM_KB_HANDLER, 0, 0,       \
      "waits for a response", NULL, 3, 9,                                                          \
      "How long the part waits for a reply before it sends again (users) or gives the "            \
      "call up (a handler calling a provider).")                                                   \
    S(delivery, ENUM, sim_delivery, SIM_DELIVERY_COUNT, "delivery", DELIVERY, SIM_KB_BROKER, 0, 0, \
      "delivery", NULL, 0, 6,                                                                      \
      "`at-least-once` waits for the ack and redelivers; `at-most-once` counts a "                 \
      "message as done when it is handed over (no retry).")                                        \
    S(message_id, ENUM, sim_message_id, SIM_MESSAGE_ID_COUNT, "message_id", MSGID, SIM_KB_USERS,   \
      0, 0, "message ID of a publish", NULL, 0, 8,                                                 \
      "`producer`: one message ID per job, kept on every retry; `per-publish`: a "                 \
      "new ID for every publish.")                                                                 \
    S(dedup_window_us, I64, int64_t, 0, "dedup_window", WINDOW, SIM_KB_BROKER, 0, 0,               \
      "drops a repeated message ID within", NULL, 5, 7,                                            \
      "A broker drops a publish whose message ID it saw this long ago or less "                    \
      "(`none`: it takes every publish).")                                                         \
    W(dead_letter, INT, int, 0)                                                                    \
    S(concurrency, INT, int, 0, "concurrency", INT, SIM_KB_HANDLER, 1, 10000, "works on at once",  \
      "deliveries", 0, 10, "How many deliveries the handler works on at once.")                    \
    S(work.median_us, I64, int64_t, 0, "work_median", DURATION, SIM_KB_HANDLER, 0, 0,              \
      "work per delivery, median", NULL, 0, 11,                                                    \
      "The handler's own work per delivery, before its effect: the median.")                       \
    S(work.p99_us, I64, int64_t, 0, "work_p99", DURATION, SIM_KB_HANDLER, 0, 0,                    \
      "work per delivery, 99th percentile", NULL, 0, 12,                                           \
      "The same work's 99th percentile (log-normal between the two).")                             \
    S(idempotency, ENUM, sim_idempotency, SIM_IDEM_COUNT, "idempotency", IDEM, SIM_KB_HANDLER, 0,  \
      0, "duplicate check", NULL, 0, 13,                                                           \
      "The handler's duplicate check (see *Idempotency policies*).")                               \
    S(key_ttl_us, I64, int64_t, 0, "key_ttl", TTL, SIM_KB_HANDLER | SIM_KB_PROVIDER, 0, 0,         \
      "keeps keys for", NULL, 4, 14,                                                               \
      "How long a recorded key is kept; a repeat that comes later runs the effect "                \
      "again. On a payment-provider: how long it honours an idempotency key.")                     \
    S(crash_after_effect, F64, double, 0, "crash_after_effect", PROB, SIM_KB_HANDLER, 0, 0,        \
      "crashes after the effect", NULL, 0, 16,                                                     \
      "Share of deliveries after which the handler crashes: after the "                            \
      "effect, before it records the key and replies.")                                            \
    S(crash_after_commit, F64, double, 0, "crash_after_commit", PROB, SIM_KB_HANDLER, 0, 0,        \
      "crashes after the commit", NULL, 0, 17,                                                     \
      "Share of deliveries after which the handler crashes after its "                             \
      "commit, before it publishes its event and replies.")                                        \
    S(restart_us, I64, int64_t, 0, "restart", DURATION, SIM_KB_HANDLER, 0, 0, "restart time",      \
      NULL, 0, 18, "How long a crashed handler takes to come back.")                               \
    S(lease_us, I64, int64_t, 0, "lease", DURATION, SIM_KB_HANDLER, 0, 0,                          \
      "holds a claimed key for", NULL, 6, 15,                                                      \
      "With `key-claimed-first`: how long a claimed key holds other copies off when its "          \
      "owner does not finish.")                                                                    \
    S(publish, ENUM, sim_publish, SIM_PUBLISH_COUNT, "publish", PUBLISH, SIM_KB_HANDLER, 0, 0,     \
      "publishes its event", NULL, 0, 19,                                                          \
      "On a handler that links to a second broker: `after-commit`, `before-commit` or "            \
      "`outbox` (stored with the commit, sent by a relay).")                                       \
    S(relay_every_us, I64, int64_t, 0, "relay_every", DURATION, SIM_KB_HANDLER, 0, 0,              \
      "outbox relay polls every", NULL, 7, 20,                                                     \
      "With `publish: outbox`: how often the relay looks for events to send.")                     \
    S(call.median_us, I64, int64_t, 0, "call_median", DURATION, SIM_KB_PROVIDER, 0, 0,             \
      "call, median", NULL, 8, 21, "A call's time at the provider: the median.")                   \
    S(call.p99_us, I64, int64_t, 0, "call_p99", DURATION, SIM_KB_PROVIDER, 0, 0,                   \
      "call, 99th percentile", NULL, 0, 22,                                                        \
      "A call's 99th percentile (log-normal between the two).")                                    \
    S(fail, F64, double, 0, "fail", PROB, SIM_KB_PROVIDER | SIM_KB(SIM_KIND_CONSUMER), 0, 0,       \
      "failure chance per try", NULL, 0, 23,                                                       \
      "On a payment-provider: share of calls that fail (nothing is charged, the delivery "         \
      "is not acked, so it is retried). On a consumer: share of deliveries its handler "           \
      "fails after the work, before the effect, drawn on every try; the broker delivers "          \
      "again when `redelivery_after` runs out.")                                                   \
    S(write.median_us, I64, int64_t, 0, "write_median", DURATION, SIM_KB_DB, 0, 0,                 \
      "write, median", NULL, 0, 24, "One write's time in the database: the median.")               \
    S(write.p99_us, I64, int64_t, 0, "write_p99", DURATION, SIM_KB_DB, 0, 0,                       \
      "write, 99th percentile", NULL, 0, 25, "One write's 99th percentile.")                       \
    W(id, ID, const char *, 0)

/* sim_link, in wire order. */
#define SIM_LINK_FIELDS(W, S)                                                                      \
    W(from, INT, int, 0)                                                                           \
    W(to, INT, int, 0)                                                                             \
    W(protocol, ENUM, sim_protocol, SIM_PROTO_COUNT)                                               \
    S(rtt_us, I64, int64_t, 0, "rtt", DURATION, 0, 0, 0, "round trip", NULL, 0, 0,                 \
      "One network round trip on the link.")                                                       \
    S(reply_round_trips, F64, double, 0, "reply_round_trips", NUMBER, 0, 0, 0,                     \
      "reply round trips", "RTT", 0, 1,                                                            \
      "How many round trips a reply (an ack, a response) takes to arrive.")                        \
    S(lose_request, F64, double, 0, "lose_request", PROB, 0, 0, 0, "requests lost", NULL, 0, 2,    \
      "Share of sends that never arrive.")                                                         \
    S(lose_reply, F64, double, 0, "lose_reply", PROB, 0, 0, 0, "replies lost", NULL, 0, 3,         \
      "Share of replies lost after the work was done: the sender sends again.")                    \
    W(lose_reply_of, JOBS, const int64_t *, n_lose_reply_of)                                       \
    S(transactional, BOOL, bool, 0, "transactional", BOOL, 0, 0, 0, "transactional receive", NULL, \
      0, 4,                                                                                        \
      "On a broker's delivery link: receive, local effect and ack commit "                         \
      "together, so a lost ack or a crash rolls the effect back. Calls to a "                      \
      "provider are not covered.")

/* sim_board's scalars with its prices and traffic, in wire order (its
 * parts, links and goals follow them on the wire). The traffic's numbers
 * are settings a level may give a range (jobs, over, repeat_share,
 * poison); the loader reads the traffic by its own code. */
#define SIM_BOARD_FIELDS(W, S)                                                                     \
    W(id, ID, const char *, 0)                                                                     \
    W(seed, U64, uint64_t, 0)                                                                      \
    W(replications, INT, int, 0)                                                                   \
    W(until, F64, double, 0)                                                                       \
    W(until_max, INT, int, 0)                                                                      \
    W(expect, ENUM, sim_expect, SIM_EXPECT_FAIL + 1)                                               \
    W(prices.vcpu_usd_month, F64, double, 0)                                                       \
    W(prices.gb_usd_month, F64, double, 0)                                                         \
    W(traffic.from, INT, int, 0)                                                                   \
    S(traffic.jobs, I64, int64_t, 0, "jobs", INT, 0, 1, INT64_MAX, "jobs", "jobs", 0, 0,           \
      "How many jobs arrive in a run.")                                                            \
    S(traffic.over_us, I64, int64_t, 0, "over", DURATION, 0, 0, 0, "over", NULL, 0, 1,             \
      "The time over which they arrive (a duration).")                                             \
    W(traffic.op, ENUM, sim_op, SIM_OP_COUNT)                                                      \
    W(traffic.arrivals, ENUM, sim_arrivals, SIM_ARRIVALS_COUNT)                                    \
    S(traffic.repeat_share, F64, double, 0, "repeat_share", PROB, 0, 0, 0, "repeat share", NULL,   \
      0, 2,                                                                                        \
      "Share of jobs that are legitimate repeats: the same business key and "                      \
      "content as an earlier job, with a new message ID.")                                         \
    S(traffic.poison, F64, double, 0, "poison", PROB, 0, 0, 0, "poison", NULL, 0, 3,               \
      "Share of jobs whose message fails on every delivery, wherever it is handled "               \
      "(a poison message): the broker delivers it `tries` times, then gives up.")

/* What sim_run gets beside the board (sim_wire_request), in wire order. */
#define SIM_REQUEST_FIELDS(W, S)                                                                   \
    W(limits.max_jobs, I64, int64_t, 0)                                                            \
    W(limits.max_events, I64, int64_t, 0)                                                          \
    W(limits.max_board_events, I64, int64_t, 0)                                                    \
    W(limits.max_replications, INT, int, 0)                                                        \
    W(limits.max_trace, SIZE, size_t, 0)                                                           \
    W(want_trace, BOOL, bool, 0)

#endif

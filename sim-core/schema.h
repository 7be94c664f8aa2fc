/* schema.h — a board's types and the one list of its fields: the enums of
 * its values, and every field of sim_part, sim_link, sim_traffic and the
 * board's scalars (with its prices) as one row here, in the order it
 * travels on the wire (WIRE.md), each list beside its struct (checked to
 * have a member for every row and a row for every member). From these
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
 *   S(member, wire, ctype, aux, key, load, kinds, min, max, label, unit, rank, order, help, def,
 * def_source) a setting a board or the catalog writes as key (a YAML key): load is how the loader
 * reads it (the generator's FT_ types: INT, NUMBER, PROB, DURATION, TTL, WINDOW, MONEY, BOOL, IDEM,
 * DELIVERY, PUBLISH, MSGID, BACKOFF); kinds the part kinds that take it (SIM_KB_ bits; 0 for a link
 * or traffic setting); min and max an INT's range; label the page's words after the part's kind;
 * unit the word after an INT or NUMBER; rank its place in the page's default key numbers (0: not
 * there); order its place in the lists people read (help, messages, the catalog), 0, 1, 2, ...
 * without gaps; help the author's line about it (`boardpress help`, docs/boards.md); def NULL, or
 * the default of a part or link setting for every kind or protocol whose catalog section leaves it
 * out, written as the catalog writes a value ("0", "30 s", "none") and read by its code, with
 *       def_source where it comes from, written as a catalog source
 *       ("example: off unless a board asks for it"). With def NULL, every
 *       section that takes the setting must give it.
 *
 * To add a setting: one S row where it belongs on the wire and its member
 * in the struct below the list (the board encoding's version follows from
 * the rows, wire.c), then the model code that uses it. Nothing here is read
 * at run time but through those users. */
#ifndef SIM_SCHEMA_H
#define SIM_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kinds of a board's values (simcore.h has their names). */
typedef enum {
    SIM_KIND_USERS,
    SIM_KIND_BROKER, /* "message-broker" */
    SIM_KIND_CONSUMER,
    SIM_KIND_SERVICE,
    SIM_KIND_PROVIDER, /* "payment-provider" */
    SIM_KIND_DATABASE,
    SIM_KIND_DLQ, /* "dead-letter-queue": where a broker moves a message whose tries ran out */
    SIM_KIND_COUNT
} sim_kind;

typedef enum {
    SIM_PROTO_AMQP,
    SIM_PROTO_HTTP1,
    SIM_PROTO_HTTP2,
    SIM_PROTO_SQL,
    SIM_PROTO_COUNT
} sim_protocol;

typedef enum {
    SIM_IDEM_NONE,
    SIM_IDEM_KEY_AFTER_EFFECT,
    SIM_IDEM_KEY_IN_TRANSACTION,
    SIM_IDEM_PROVIDER_KEY,
    SIM_IDEM_BUSINESS_KEY,
    SIM_IDEM_KEY_CLAIMED_FIRST, /* the key is claimed (unique insert, with a lease) before the
                                   effect */
    SIM_IDEM_COUNT
} sim_idempotency;

typedef enum {
    SIM_DELIVERY_AT_LEAST_ONCE,
    SIM_DELIVERY_AT_MOST_ONCE,
    SIM_DELIVERY_COUNT
} sim_delivery;
typedef enum { SIM_ARRIVALS_POISSON, SIM_ARRIVALS_EVEN, SIM_ARRIVALS_COUNT } sim_arrivals;
typedef enum { SIM_OP_CHARGE, SIM_OP_SET, SIM_OP_COUNT } sim_op;
/* When a handler that links to a second broker publishes its event. */
typedef enum {
    SIM_PUBLISH_AFTER_COMMIT,
    SIM_PUBLISH_BEFORE_COMMIT,
    SIM_PUBLISH_OUTBOX, /* stored with the commit, sent by a relay */
    SIM_PUBLISH_COUNT
} sim_publish;
/* The message ID a publishing users part gives a job's publishes. */
typedef enum {
    SIM_MESSAGE_ID_PRODUCER,    /* one ID per job, kept on every retry */
    SIM_MESSAGE_ID_PER_PUBLISH, /* a new ID for every publish */
    SIM_MESSAGE_ID_COUNT
} sim_message_id;

typedef enum { SIM_EXPECT_NONE, SIM_EXPECT_PASS, SIM_EXPECT_FAIL } sim_expect;

#define SIM_FOREVER INT64_MAX /* key_ttl_us meaning "kept forever" */

/* The rows cover their struct: a struct with one member per row, of the
 * row's C type (a JOBS row's count beside it), must have the real struct's
 * size. A member without a row stops the build here (unless it fits in
 * padding, as a bool after a bool would), a row without its member (or of
 * another type) at its offsetof in wire.c, so no size is kept by hand. */
#define SIM_CAT_(a, b) a##b
#define SIM_CAT(a, b) SIM_CAT_(a, b)
#define SIM_ROW_COUNT_BOOL
#define SIM_ROW_COUNT_INT
#define SIM_ROW_COUNT_ENUM
#define SIM_ROW_COUNT_I64
#define SIM_ROW_COUNT_U64
#define SIM_ROW_COUNT_SIZE
#define SIM_ROW_COUNT_F64
#define SIM_ROW_COUNT_ID
#define SIM_ROW_COUNT_JOBS size_t n;
#define SIM_ROW_SLOT(m, wire, ctype, ...)                                                          \
    struct {                                                                                       \
        ctype v;                                                                                   \
        SIM_ROW_COUNT_##wire                                                                       \
    } SIM_CAT(row, __COUNTER__);
#define SIM_ROWS_COVER(T, rows)                                                                    \
    struct T##_rows {                                                                              \
        rows                                                                                       \
    };                                                                                             \
    _Static_assert(sizeof(struct T##_rows) == sizeof(T),                                           \
                   #T " has a member without its row in schema.h, or not in the rows' order")

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
      "Virtual CPUs the part runs on; priced per month by the catalog's `price.vcpu`.", NULL,      \
      NULL)                                                                                        \
    S(gb, F64, double, 0, "gb", NUMBER, SIM_KB_SIZED, 0, 0, "memory", "GB", 0, 1,                  \
      "Memory in GB; priced per month by the catalog's `price.gb`.", NULL, NULL)                   \
    S(external, BOOL, bool, 0, "external", BOOL, SIM_KB_SIZED | SIM_KB_PROVIDER, 0, 0,             \
      "run by someone else", NULL, 0, 3, "Run by someone else: left out of `monthly_cost`.", NULL, \
      NULL)                                                                                        \
    S(fixed_usd_month, F64, double, 0, "price", MONEY, SIM_KB_SIZED, 0, 0,                         \
      "fixed price per month", NULL, 0, 2, "A fixed price per month on top of vCPU and GB.", NULL, \
      NULL)                                                                                        \
    S(tries, INT, int, 0, "tries", INT, SIM_KB_USERS | SIM_KB_BROKER, 1, 100, "delivery tries",    \
      "tries", 1, 4,                                                                               \
      "Sends in all before giving up (the first one and the retries). On a broker: "               \
      "deliveries of one message; on users: requests or publishes of one job.",                    \
      NULL, NULL)                                                                                  \
    S(redelivery_after_us, I64, int64_t, 0, "redelivery_after", BACKOFF, SIM_KB_BROKER, 0, 0,      \
      "redelivers after", NULL, 2, 5,                                                              \
      "How long a broker waits for a consumer's ack before it delivers the "                       \
      "message again: one duration for every try, or a back-off "                                  \
      "`{first: 1 s, factor: 2, max: 1 min, jitter: full}` (try k waits "                          \
      "first × factor^(k−1), at most max; full jitter draws each wait "                         \
      "uniformly below that; first left out is the catalog's, factor 2, "                          \
      "max none, jitter none).",                                                                   \
      NULL, NULL)                                                                                  \
    W(backoff_factor, F64, double, 0)                                                              \
    W(backoff_max_us, I64, int64_t, 0)                                                             \
    W(backoff_jitter, BOOL, bool, 0)                                                               \
    S(timeout_us, I64, int64_t, 0, "timeout", DURATION, SIM_KB_USERS | SIM_KB_HANDLER, 0, 0,       \
      "waits for a response", NULL, 3, 9,                                                          \
      "How long the part waits for a reply before it sends again (users) or gives the "            \
      "call up (a handler calling a provider).",                                                   \
      NULL, NULL)                                                                                  \
    S(delivery, ENUM, sim_delivery, SIM_DELIVERY_COUNT, "delivery", DELIVERY, SIM_KB_BROKER, 0, 0, \
      "delivery", NULL, 0, 6,                                                                      \
      "`at-least-once` waits for the ack and redelivers; `at-most-once` counts a "                 \
      "message as done when it is handed over (no retry).",                                        \
      NULL, NULL)                                                                                  \
    S(message_id, ENUM, sim_message_id, SIM_MESSAGE_ID_COUNT, "message_id", MSGID, SIM_KB_USERS,   \
      0, 0, "message ID of a publish", NULL, 0, 8,                                                 \
      "`producer`: one message ID per job, kept on every retry; `per-publish`: a "                 \
      "new ID for every publish.",                                                                 \
      NULL, NULL)                                                                                  \
    S(dedup_window_us, I64, int64_t, 0, "dedup_window", WINDOW, SIM_KB_BROKER, 0, 0,               \
      "drops a repeated message ID within", NULL, 5, 7,                                            \
      "A broker drops a publish whose message ID it saw this long ago or less "                    \
      "(`none`: it takes every publish).",                                                         \
      NULL, NULL)                                                                                  \
    W(dead_letter, INT, int, 0)                                                                    \
    S(concurrency, INT, int, 0, "concurrency", INT, SIM_KB_HANDLER, 1, 10000, "works on at once",  \
      "deliveries", 0, 10, "How many deliveries the handler works on at once.", NULL, NULL)        \
    S(work.median_us, I64, int64_t, 0, "work_median", DURATION, SIM_KB_HANDLER, 0, 0,              \
      "work per delivery, median", NULL, 0, 11,                                                    \
      "The handler's own work per delivery, before its effect: the median.", NULL, NULL)           \
    S(work.p99_us, I64, int64_t, 0, "work_p99", DURATION, SIM_KB_HANDLER, 0, 0,                    \
      "work per delivery, 99th percentile", NULL, 0, 12,                                           \
      "The same work's 99th percentile (log-normal between the two).", NULL, NULL)                 \
    S(idempotency, ENUM, sim_idempotency, SIM_IDEM_COUNT, "idempotency", IDEM, SIM_KB_HANDLER, 0,  \
      0, "duplicate check", NULL, 0, 13,                                                           \
      "The handler's duplicate check (see *Idempotency policies*).", NULL, NULL)                   \
    S(key_ttl_us, I64, int64_t, 0, "key_ttl", TTL, SIM_KB_HANDLER | SIM_KB_PROVIDER, 0, 0,         \
      "keeps keys for", NULL, 4, 14,                                                               \
      "How long a recorded key is kept; a repeat that comes later runs the effect "                \
      "again. On a payment-provider: how long it honours an idempotency key.",                     \
      NULL, NULL)                                                                                  \
    S(crash_after_effect, F64, double, 0, "crash_after_effect", PROB, SIM_KB_HANDLER, 0, 0,        \
      "crashes after the effect", NULL, 0, 16,                                                     \
      "Share of deliveries after which the handler crashes: after the "                            \
      "effect, before it records the key and replies.",                                            \
      NULL, NULL)                                                                                  \
    S(crash_after_commit, F64, double, 0, "crash_after_commit", PROB, SIM_KB_HANDLER, 0, 0,        \
      "crashes after the commit", NULL, 0, 17,                                                     \
      "Share of deliveries after which the handler crashes after its "                             \
      "commit, before it publishes its event and replies.",                                        \
      NULL, NULL)                                                                                  \
    S(restart_us, I64, int64_t, 0, "restart", DURATION, SIM_KB_HANDLER, 0, 0, "restart time",      \
      NULL, 0, 18, "How long a crashed handler takes to come back.", NULL, NULL)                   \
    S(lease_us, I64, int64_t, 0, "lease", DURATION, SIM_KB_HANDLER, 0, 0,                          \
      "holds a claimed key for", NULL, 6, 15,                                                      \
      "With `key-claimed-first`: how long a claimed key holds other copies off when its "          \
      "owner does not finish.",                                                                    \
      NULL, NULL)                                                                                  \
    S(publish, ENUM, sim_publish, SIM_PUBLISH_COUNT, "publish", PUBLISH, SIM_KB_HANDLER, 0, 0,     \
      "publishes its event", NULL, 0, 19,                                                          \
      "On a handler that links to a second broker: `after-commit`, `before-commit` or "            \
      "`outbox` (stored with the commit, sent by a relay).",                                       \
      NULL, NULL)                                                                                  \
    S(relay_every_us, I64, int64_t, 0, "relay_every", DURATION, SIM_KB_HANDLER, 0, 0,              \
      "outbox relay polls every", NULL, 7, 20,                                                     \
      "With `publish: outbox`: how often the relay looks for events to send.", NULL, NULL)         \
    S(call.median_us, I64, int64_t, 0, "call_median", DURATION, SIM_KB_PROVIDER, 0, 0,             \
      "call, median", NULL, 8, 21, "A call's time at the provider: the median.", NULL, NULL)       \
    S(call.p99_us, I64, int64_t, 0, "call_p99", DURATION, SIM_KB_PROVIDER, 0, 0,                   \
      "call, 99th percentile", NULL, 0, 22,                                                        \
      "A call's 99th percentile (log-normal between the two).", NULL, NULL)                        \
    S(fail, F64, double, 0, "fail", PROB, SIM_KB_PROVIDER | SIM_KB(SIM_KIND_CONSUMER), 0, 0,       \
      "failure chance per try", NULL, 0, 23,                                                       \
      "On a payment-provider: share of calls that fail (nothing is charged, the delivery "         \
      "is not acked, so it is retried). On a consumer: share of deliveries its handler "           \
      "fails after the work, before the effect, drawn on every try; the broker delivers "          \
      "again when `redelivery_after` runs out.",                                                   \
      NULL, NULL)                                                                                  \
    S(write.median_us, I64, int64_t, 0, "write_median", DURATION, SIM_KB_DB, 0, 0,                 \
      "write, median", NULL, 0, 24, "One write's time in the database: the median.", NULL, NULL)   \
    S(write.p99_us, I64, int64_t, 0, "write_p99", DURATION, SIM_KB_DB, 0, 0,                       \
      "write, 99th percentile", NULL, 0, 25, "One write's 99th percentile.", NULL, NULL)           \
    W(id, ID, const char *, 0)

/* A log-normal duration given by its median and 99th percentile. p99 equal to
 * the median means a constant duration. */
typedef struct {
    int64_t median_us;
    int64_t p99_us;
} sim_latency;

/* One part of a board. Every field is filled (from the board or, where the
 * board leaves it out, from the catalog) before sim_run sees it; fields that
 * do not apply to the part's kind are ignored. */
typedef struct {
    sim_kind kind;
    double vcpu; /* cost basis; 0 for users and external parts */
    double gb;
    bool external;          /* not ours: excluded from monthly cost */
    double fixed_usd_month; /* the kind's fixed price per month, if any */
    /* as a sender (broker to consumer, users to service) */
    int tries;                   /* sends in all, >= 1 */
    int64_t redelivery_after_us; /* broker: no ack by then -> send again (the first wait) */
    double backoff_factor;       /* broker: each further wait is this many times the one before;
                                    0 or 1: every wait is redelivery_after */
    int64_t backoff_max_us;      /* broker: the longest wait; 0: no cap */
    bool backoff_jitter;         /* broker: full jitter: each wait drawn uniformly below it */
    int64_t timeout_us;    /* users/consumer/service: no response by then -> give up on that send */
    sim_delivery delivery; /* broker only */
    sim_message_id message_id; /* users publishing to a broker: the ID of each publish */
    int64_t dedup_window_us;   /* broker: drop a publish whose ID it saw this recently; 0 none,
                                  SIM_FOREVER */
    int dead_letter; /* broker: 1 + the index of the dead-letter-queue part that takes a message
                        whose tries ran out; 0: none, the message is dropped */
    /* as a handler (consumer, service) */
    int concurrency;  /* deliveries worked on at once, >= 1 */
    sim_latency work; /* handler time per delivery before the effect */
    sim_idempotency idempotency;
    int64_t key_ttl_us;        /* how long a recorded key is kept; SIM_FOREVER */
    double crash_after_effect; /* probability per effect */
    double crash_after_commit; /* probability per commit: crash before publishing and replying */
    int64_t restart_us;        /* down time after a crash */
    int64_t lease_us;          /* key-claimed-first: how long a claim holds other copies off */
    sim_publish publish;       /* handler linked to a second broker: when its event goes out */
    int64_t relay_every_us;    /* publish outbox: the relay's polling interval */
    /* as a payment provider */
    sim_latency call; /* provider's time per call */
    double fail;      /* probability a call fails (no charge); on a consumer or service, that
                         its handler fails a delivery after the work, before the effect */
    /* provider key_ttl_us above is the provider's idempotency-key retention */
    /* as a database: the local write of a handler that links to it */
    sim_latency write;
    /* the part's id, used only to name it in sim_board_check messages
     * ("part 'broker' ..."); NULL names it by index ("part 2") */
    const char *id;
} sim_part;

SIM_ROWS_COVER(sim_part, SIM_PART_FIELDS(SIM_ROW_SLOT, SIM_ROW_SLOT));

/* sim_link, in wire order. */
#define SIM_LINK_FIELDS(W, S)                                                                      \
    W(from, INT, int, 0)                                                                           \
    W(to, INT, int, 0)                                                                             \
    W(protocol, ENUM, sim_protocol, SIM_PROTO_COUNT)                                               \
    S(rtt_us, I64, int64_t, 0, "rtt", DURATION, 0, 0, 0, "round trip", NULL, 0, 0,                 \
      "One network round trip on the link.", NULL, NULL)                                           \
    S(reply_round_trips, F64, double, 0, "reply_round_trips", NUMBER, 0, 0, 0,                     \
      "reply round trips", "RTT", 0, 1,                                                            \
      "How many round trips a reply (an ack, a response) takes to arrive.", NULL, NULL)            \
    S(lose_request, F64, double, 0, "lose_request", PROB, 0, 0, 0, "requests lost", NULL, 0, 2,    \
      "Share of sends that never arrive.", NULL, NULL)                                             \
    S(lose_reply, F64, double, 0, "lose_reply", PROB, 0, 0, 0, "replies lost", NULL, 0, 3,         \
      "Share of replies lost after the work was done: the sender sends again.", NULL, NULL)        \
    W(lose_reply_of, JOBS, const int64_t *, n_lose_reply_of)                                       \
    S(transactional, BOOL, bool, 0, "transactional", BOOL, 0, 0, 0, "transactional receive", NULL, \
      0, 4,                                                                                        \
      "On a broker's delivery link: receive, local effect and ack commit "                         \
      "together, so a lost ack or a crash rolls the effect back. Calls to a "                      \
      "provider are not covered.",                                                                 \
      NULL, NULL)

typedef struct {
    int from, to; /* part indices */
    sim_protocol protocol;
    int64_t rtt_us;               /* network round trip of this link */
    double reply_round_trips;     /* reply (ack/response) cost in round trips */
    double lose_request;          /* probability a send never arrives */
    double lose_reply;            /* probability the reply is lost after the work */
    const int64_t *lose_reply_of; /* 1-based job numbers whose first reply is lost */
    size_t n_lose_reply_of;
    bool transactional; /* broker link: receive + local effect + ack commit together */
} sim_link;

SIM_ROWS_COVER(sim_link, SIM_LINK_FIELDS(SIM_ROW_SLOT, SIM_ROW_SLOT));

/* sim_traffic, in wire order: P(member) names a member (for the board's
 * list, traffic.member). */
#define SIM_IN_TRAFFIC(m) traffic.m
#define SIM_TRAFFIC_FIELDS(W, S, P)                                                                \
    W(P(from), INT, int, 0)                                                                        \
    S(P(jobs), I64, int64_t, 0, "jobs", INT, 0, 1, INT64_MAX, "jobs", "jobs", 0, 0,                \
      "How many jobs arrive in a run.", NULL, NULL)                                                \
    S(P(over_us), I64, int64_t, 0, "over", DURATION, 0, 0, 0, "over", NULL, 0, 1,                  \
      "The time over which they arrive (a duration).", NULL, NULL)                                 \
    W(P(op), ENUM, sim_op, SIM_OP_COUNT)                                                           \
    W(P(arrivals), ENUM, sim_arrivals, SIM_ARRIVALS_COUNT)                                         \
    S(P(repeat_share), F64, double, 0, "repeat_share", PROB, 0, 0, 0, "repeat share", NULL, 0, 2,  \
      "Share of jobs that are legitimate repeats: the same business key and "                      \
      "content as an earlier job, with a new message ID.",                                         \
      NULL, NULL)                                                                                  \
    S(P(poison), F64, double, 0, "poison", PROB, 0, 0, 0, "poison", NULL, 0, 3,                    \
      "Share of jobs whose message fails on every delivery, wherever it is handled "               \
      "(a poison message): the broker delivers it `tries` times, then gives up.",                  \
      NULL, NULL)

typedef struct {
    int from; /* part index of the users part */
    int64_t jobs;
    int64_t over_us;
    sim_op op;
    sim_arrivals arrivals;
    double repeat_share; /* share of jobs that legitimately repeat an earlier job */
    double poison;       /* share of jobs whose message fails every delivery, wherever handled */
} sim_traffic;

SIM_ROWS_COVER(sim_traffic, SIM_TRAFFIC_FIELDS(SIM_ROW_SLOT, SIM_ROW_SLOT, SIM_IN_TRAFFIC));

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
    SIM_TRAFFIC_FIELDS(W, S, SIM_IN_TRAFFIC)

/* What sim_run gets beside the board (sim_wire_request), in wire order. */
#define SIM_REQUEST_FIELDS(W, S)                                                                   \
    W(limits.max_jobs, I64, int64_t, 0)                                                            \
    W(limits.max_events, I64, int64_t, 0)                                                          \
    W(limits.max_board_events, I64, int64_t, 0)                                                    \
    W(limits.max_replications, INT, int, 0)                                                        \
    W(limits.max_trace, SIZE, size_t, 0)                                                           \
    W(want_trace, BOOL, bool, 0)

#endif

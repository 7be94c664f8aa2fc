/* simcore.h — the public interface of the boardpress simulator library.
 * A discrete-event model of message delivery (MODEL.md): plain C structs in,
 * a result struct out. No I/O, no globals, deterministic for a given seed. */
#ifndef SIMCORE_H
#define SIMCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIMCORE_VERSION "1.2.0" /* bump when results for the same input change */

/* ------------------------------------------------------------------ enums
 * The kinds of a board's values (sim_kind, sim_protocol, sim_idempotency,
 * sim_delivery, sim_arrivals, sim_op, sim_publish, sim_message_id,
 * sim_expect) and the board's parts, links and traffic (sim_part,
 * sim_link, sim_traffic) are in schema.h, beside the rows of its fields. */
#include "schema.h"

/* Measures, in a fixed order that results and pages keep (names:
 * sim_measure_name). */
typedef enum {
    SIM_M_JOBS,
    SIM_M_DELIVERIES,
    SIM_M_EFFECTS,
    SIM_M_DUPLICATES,
    SIM_M_CHARGED_TWICE,
    SIM_M_LOST_WRITES,
    SIM_M_ERRORS,
    SIM_M_ERROR_RATE,      /* fraction 0..1 */
    SIM_M_COMPLETION_TIME, /* seconds */
    SIM_M_LATENCY_P50,     /* seconds */
    SIM_M_LATENCY_P99,     /* seconds */
    SIM_M_MONTHLY_COST,    /* USD per month */
    SIM_M_EVENTS,
    /* added in the second release: the second hop of a two-hop board */
    SIM_M_LOST_EVENTS,  /* jobs whose first-hop effect stands, event never received */
    SIM_M_GHOST_EVENTS, /* events received that an attempt published, then did not commit */
    SIM_M_DOWNSTREAM_DELIVERIES,  /* second-handler runs */
    SIM_M_DOWNSTREAM_EFFECTS,     /* effects at the second handler */
    SIM_M_DOWNSTREAM_DUPLICATES,  /* second-handler effects beyond the first per job */
    SIM_M_DOWNSTREAM_LOST_WRITES, /* events received for a standing effect, no effect there */
    SIM_M_DOWNSTREAM_ERRORS,      /* jobs whose event the second broker gave up on */
    /* added in the third release: a broker with a dead-letter queue */
    SIM_M_DEAD_LETTERED,   /* messages moved to a dead-letter queue */
    SIM_M_DEAD_LETTER_TIME, /* seconds: median, first delivery to the dead-letter queue */
    SIM_M_COUNT
} sim_measure;

/* What a measure's number is, for formatting and JSON key suffixes. */
typedef enum { SIM_UNIT_COUNT, SIM_UNIT_RATIO, SIM_UNIT_SECONDS, SIM_UNIT_USD_MONTH } sim_unit;

/* Names used in YAML, placeholders and JSON ("message-broker", "amqp",
 * "key-in-transaction", "duplicates" ...). Static strings; never NULL for a
 * valid value. */
const char *sim_kind_name(sim_kind k);
const char *sim_protocol_name(sim_protocol p);
const char *sim_idempotency_name(sim_idempotency i);
const char *sim_delivery_name(sim_delivery d);
const char *sim_arrivals_name(sim_arrivals a);
const char *sim_op_name(sim_op o);
const char *sim_publish_name(sim_publish p);
const char *sim_message_id_name(sim_message_id i);
const char *sim_measure_name(sim_measure m); /* "completion_time" */
sim_unit sim_measure_unit(sim_measure m);
/* The hop a measure needs: 2 for the second hop's (lost_events ...
 * downstream_errors), else 1. A board with fewer hops (sim_board_hops)
 * has no such number: JSON and pages leave it out. */
int sim_measure_hop(sim_measure m);
/* Does board b have measure m: its hop is there (sim_measure_hop) and, for
 * dead_lettered and dead_letter_time, a broker names a dead-letter queue.
 * Pages and JSON leave the others out. */
struct sim_board_s;
bool sim_measure_on(const struct sim_board_s *b, sim_measure m);
/* Name lookups: return the value, or -1 when the name is unknown. */
int sim_kind_from_name(const char *s);
int sim_protocol_from_name(const char *s);
int sim_idempotency_from_name(const char *s);
int sim_delivery_from_name(const char *s);
int sim_arrivals_from_name(const char *s);
int sim_op_from_name(const char *s);
int sim_publish_from_name(const char *s);
int sim_message_id_from_name(const char *s);
int sim_measure_from_name(const char *s);

/* ------------------------------------------------------------------ board */

typedef struct {
    bool has_max, has_min;
    double max, min; /* in the measure's unit (seconds, ratio, USD/month, count) */
} sim_goal;

typedef struct {
    double vcpu_usd_month;
    double gb_usd_month;
} sim_prices;

/* A whole board, ready to run. Arrays are owned by whoever built the board. */
typedef struct sim_board_s {
    const char *id;
    uint64_t seed;
    int replications; /* the number of replications; with until, the first ones */
    /* replications: {until: 2%, max: 200}: after `replications`, keep adding
     * replications until every goal measure's ci95 is at most until × |mean|,
     * or until_max of them ran. 0: run `replications` and stop. */
    double until;
    int until_max;
    sim_part *parts;
    size_t n_parts;
    sim_link *links;
    size_t n_links;
    sim_traffic traffic;
    sim_goal goals[SIM_M_COUNT];
    sim_expect expect;
    sim_prices prices;
} sim_board;

/* ------------------------------------------------------------------ limits */

typedef struct {
    int64_t max_jobs;         /* per board */
    int64_t max_events;       /* per replication */
    int64_t max_board_events; /* all replications of one board together */
    int max_replications;
    size_t max_trace; /* trace entries kept */
} sim_limits;

/* The defaults documented in docs/architecture.md ("Limits") and MODEL.md: 10,000,000 jobs,
 * 200,000,000 events per replication, 1000 replications, 20,000 trace
 * entries. */
sim_limits sim_limits_default(void);

/* Check a board for everything the model cannot run (bad part indices, no
 * handler reachable from the users, cycles, values out of range, limits).
 * Writes one sentence into msg (size n) and returns the index of the part
 * (>= 0), -2 for the board as a whole, or -1 when the board can be run. */
int sim_board_check(const sim_board *b, const sim_limits *lim, char *msg, size_t n,
                    int *link_index);

/* How many hops the board's chain has: 2 when the first handler links to a
 * second broker, 1 otherwise, 0 when the board does not pass the check. */
int sim_board_hops(const sim_board *b);

/* The events one run (replication) of a board may take, before it runs:
 * jobs × (an arrival, the publisher's events, at most 8 events per send,
 * sends being the product of the tries along the chain, and what a second
 * hop's publishing adds), or -1 when the board does not pass the check.
 * *sends_per_job (when not NULL) gets the most sends a job can make; *bounded
 * is true when the result is an upper bound, false when an outbox relay on
 * a link that can lose its publishes or confirms makes it an expectation. */
int64_t sim_events_estimate(const sim_board *b, double *sends_per_job, bool *bounded);

/* ------------------------------------------------------------------ results */

typedef struct {
    double mean, min, max;
    double ci95; /* 95% confidence half-width of the mean; 0 when R == 1 */
} sim_stat;

typedef struct {
    bool present; /* the board set a goal on this measure */
    double worst; /* the worst replication's value for this goal */
    bool pass;
} sim_goal_result;

/* Trace entry kinds, in the order a delivery meets them. */
typedef enum {
    SIM_TR_ARRIVE,        /* a job arrives at the users part */
    SIM_TR_SEND,          /* sender -> handler (delivery or HTTP request), detail: try number */
    SIM_TR_LOST_REQUEST,  /* the send never arrived */
    SIM_TR_RECEIVE,       /* the handler starts on a delivery */
    SIM_TR_SKIP,          /* the ID/key check found it: effect skipped */
    SIM_TR_CALL,          /* handler -> provider call */
    SIM_TR_CALL_LOST,     /* the call's request or response was lost */
    SIM_TR_CALL_FAILED,   /* the provider failed the call */
    SIM_TR_EFFECT,        /* an effect applied (charge or write); detail: the try it happened
                             on, negated for a duplicate (sim_effect_try) */
    SIM_TR_PROVIDER_SKIP, /* provider saw the idempotency key: no new charge */
    SIM_TR_ROLLBACK,      /* a local effect rolled back (transaction) */
    SIM_TR_CRASH,         /* handler crashed after the effect */
    SIM_TR_RESTART,       /* handler back */
    SIM_TR_RECORD_KEY,    /* handled ID recorded */
    SIM_TR_REPLY,         /* handler -> sender ack/response */
    SIM_TR_LOST_REPLY,    /* the ack/response was lost */
    SIM_TR_ACKED,         /* sender received the reply: job succeeded */
    SIM_TR_TIMEOUT,       /* sender gave up waiting for this send */
    SIM_TR_GIVE_UP,       /* tries used up: job is an error */
    SIM_TR_DROPPED,       /* at-most-once: delivery lost for good */
    /* added in the second release */
    SIM_TR_PUBLISH, /* users or a handler (or its relay) publish to a broker; detail: try / 0 / 1 */
    SIM_TR_ACCEPT,  /* the broker took a publish as a new message; detail: its copy number */
    SIM_TR_DEDUP,   /* the broker dropped a publish whose ID it saw within its dedup window */
    SIM_TR_CONFIRM, /* the publisher (users or relay) received the broker's confirm */
    SIM_TR_CLAIM,   /* key-claimed-first: the key is claimed before the effect */
    SIM_TR_HELD,    /* key-claimed-first: another delivery holds the claim; no effect, no reply */
    SIM_TR_OUTBOX,  /* the event is stored in the outbox with the commit */
    /* added in the third release */
    SIM_TR_FAILED, /* the handler failed the delivery before the effect; detail: 1 for a poison
                      message */
    SIM_TR_DEAD_LETTER, /* the broker moved a message whose tries ran out to its dead-letter
                           queue (part: the queue, peer: the broker; detail: tries) */
    SIM_TR_COUNT
} sim_trace_kind;

const char *sim_trace_kind_name(sim_trace_kind k); /* "lost-reply" */

typedef struct {
    int64_t t_us;
    sim_trace_kind kind;
    int64_t job; /* 1-based job number */
    int part;    /* part index where it happens */
    int peer;    /* the other part of a message (-1 if none) */
    int64_t detail;
    int copy; /* which copy of the job's message at this hop's broker, 0-based (0 when the
                 entry is not about a copy, or the job has one) */
} sim_trace_entry;

/* An EFFECT entry's try (1-based, of its copy: the delivery that applied
 * it) and whether the effect is a duplicate; its detail is the try,
 * negated for a duplicate (-3: a duplicate on try 3). */
static inline int64_t sim_effect_try(const sim_trace_entry *e)
{
    return e->detail < 0 ? -e->detail : e->detail;
}
static inline bool sim_effect_duplicate(const sim_trace_entry *e)
{
    return e->detail < 0;
}

typedef struct {
    int replications; /* run: with until, as many as it took */
    sim_stat m[SIM_M_COUNT];
    sim_goal_result goals[SIM_M_COUNT];
    bool all_goals_pass;
    bool expect_ok; /* false when board.expect disagrees with all_goals_pass */
    /* trace of the first replication, when asked for */
    sim_trace_entry *trace;
    size_t n_trace;
    bool trace_truncated;
    /* what a statistician needs besides the means (MODEL.md "Intervals") */
    uint64_t seed;           /* the board's: results pair only on the same streams */
    int64_t latency_samples; /* the fewest succeeded jobs any replication's latency
                                percentiles came from (below 100, p99 is the largest) */
    bool deterministic;      /* no replication drew a random number: every seed gives
                                these values, and the intervals are exact at 0 */
    bool random_faults;      /* some replication drew a chance (a loss, crash, failure or
                                repeat): fault counts vary by seed, not only by timing */
    bool until_met;          /* with until: the precision was reached (else until_max ran) */
    double *values;          /* values[r * SIM_M_COUNT + k]: measure k in replication r */
} sim_result;

/* Why a run was refused or stopped: SIM_OK, or a negative value that
 * comes with a sentence in msg. A caller tells them apart by this value,
 * never by the sentence. */
typedef enum {
    SIM_OK = 0,
    SIM_ERR_BOARD = -1,        /* a board sim_board_check refuses */
    SIM_ERR_MEMORY = -2,       /* not enough memory */
    SIM_ERR_EVENTS = -3,       /* one run needs more than max_events */
    SIM_ERR_BOARD_EVENTS = -4, /* the runs together need more than max_board_events */
    SIM_ERR_TIME = -5,         /* the run lasts longer than simulated time can count */
} sim_status;

/* Run all replications of a board (replication r on its own stream of
 * the seed, MODEL.md "Time and randomness"), and with until as many more
 * as the precision needs. With want_trace, the first replication's events
 * are kept (at most lim->max_trace). Returns SIM_OK (0), or a negative
 * sim_status with a sentence in msg when the board is refused or a limit
 * was hit. The result's trace and values are freed by sim_result_free. */
sim_status sim_run(const sim_board *b, const sim_limits *lim, bool want_trace, sim_result *out,
                   char *msg, size_t n);

void sim_result_free(sim_result *r);

/* Format-independent helpers for callers. */
double sim_monthly_cost(const sim_board *b); /* USD per month, excludes external parts */

/* ------------------------------------------------------------------ intervals
 * For JSON and pages (MODEL.md "Intervals"); the WebAssembly module leaves
 * these out. */

/* How a measure counts faults, for an interval on its rate per job. */
typedef enum {
    SIM_RATE_NONE,    /* not a fault count (jobs, deliveries, times, money ...) */
    SIM_RATE_PER_JOB, /* at most one per job (errors, lost_writes ...): Clopper–Pearson */
    SIM_RATE_EVENTS,  /* may exceed one per job (duplicates ...): Garwood (Poisson) */
} sim_rate_kind;

sim_rate_kind sim_measure_rate_kind(sim_measure m);

/* A count over all replications as a rate per job with an exact 95%
 * interval. At a count of 0 the interval is one-sided: [0, hi] with hi the
 * exact 95% upper bound (about 3 / trials: the rule of three). */
typedef struct {
    int64_t count;  /* over all replications */
    int64_t trials; /* jobs × replications */
    double rate;    /* count / trials */
    double lo, hi;  /* the 95% interval of the rate per job */
    bool one_sided; /* count == 0 */
    bool preferred; /* quote this, not mean ± ci95: the count is below 20 or every
                       replication had the same count (the t interval says nothing
                       then), and faults were drawn by chance (random_faults: a
                       scripted lose_reply_of is counted, not sampled) */
} sim_rate;

/* The interval for count events in trials: Clopper–Pearson when per_job
 * (binomial), else Garwood's for a Poisson count. */
sim_rate sim_rate_of(int64_t count, int64_t trials, bool per_job);

/* The rate of measure m in a result. Returns 0, or -1 when m is not a
 * fault count (SIM_RATE_NONE) or the result has no per-replication values. */
int sim_result_rate(const sim_result *r, sim_measure m, sim_rate *out);

/* sim_rate_of, or what stands in for it: a caller that asks for the same
 * counts again and again may remember its answers (ctx is its own). */
typedef sim_rate (*sim_rate_fn)(void *ctx, int64_t count, int64_t trials, bool per_job);

/* sim_result_rate, with the interval from of(ctx, ...) instead of
 * sim_rate_of (of must answer as sim_rate_of does). */
int sim_result_rate_with(const sim_result *r, sim_measure m, sim_rate_fn of, void *ctx,
                         sim_rate *out);

/* Paired differences of two results run on the same streams (the same seed
 * and number of replications): for each measure, the mean, min, max and
 * 95% t half-width of b − a over the replications. Common random numbers
 * make them far tighter than the two results' own intervals. When every
 * replication's difference is the same, ci95 is 0 and says nothing beyond
 * these runs (for a fault count, quote each board's sim_rate then).
 * Returns 0, or -1 when the results do not pair (different seeds or
 * numbers of replications, or no per-replication values). */
int sim_compare(const sim_result *a, const sim_result *b, sim_stat diff[SIM_M_COUNT]);

#endif

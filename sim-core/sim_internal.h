/* sim_internal.h — what the sim-core files share behind simcore.h: the
 * resolved delivery chain of a board, one replication's raw counters, the
 * growing of arrays and rings, and the statistics helpers. Tests may
 * include it (it is not installed). */
#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Model limits beyond sim_limits (documented in MODEL.md). */
#define SIM_MAX_TRIES 1000
#define SIM_MAX_JOBS ((int64_t)UINT32_MAX - 1) /* job indices are 32-bit */
#define SIM_MAX_CONCURRENCY 100000

/* One hop of a board's chain (MODEL.md "Topology"): a sender that delivers
 * to a handler, and the handler's provider and database. Part and link
 * indices, -1 where the hop has none. */
typedef struct {
    int broker;        /* message-broker, or -1 when the users call the handler (first hop) */
    int sender;        /* broker, or users */
    int handler;       /* consumer or service */
    int provider;      /* payment-provider the handler calls, or -1 */
    int database;      /* database the handler writes to, or -1 */
    int publish_link;  /* into this hop's broker: users -> broker, or the first handler ->
                          the second broker; -1 */
    int delivery_link; /* sender -> handler */
    int call_link;     /* handler -> provider, or -1 */
    int write_link;    /* handler -> database, or -1 */
} sim_hop_topology;

#define SIM_MAX_HOPS 2

/* The delivery chain of a board: one hop, or two when the first handler
 * links to a second broker. */
typedef struct {
    int users; /* traffic.from */
    int n_hops;
    sim_hop_topology hop[SIM_MAX_HOPS];
} sim_topology;

/* sim_board_check, also giving the chain when the board is good. */
int sim_board_check_topology(const sim_board *b, const sim_limits *lim, char *msg, size_t n,
                             int *link_index, sim_topology *topo);

/* One replication's outcome, in integer units. */
typedef struct {
    int64_t jobs, deliveries, effects, duplicates, charged_twice, lost_writes, errors;
    int64_t successes;          /* jobs acknowledged (or finished, at-most-once) */
    int64_t dropped;            /* at-most-once jobs lost on the way */
    int64_t jobs_with_effect;   /* jobs whose effect count is >= 1 at the end */
    int64_t jobs_should_effect; /* charge: every job; set: each business key once */
    int64_t first_arrival_us, last_outcome_us;
    int64_t latency_p50_us, latency_p99_us; /* 0 when no job succeeded */
    int64_t events;
    int64_t draws;   /* random numbers drawn (0: the run is the same for every seed) */
    int64_t chances; /* of them, losses, crashes, failures and repeats drawn */
    /* the publisher and the second hop (MODEL.md) */
    int64_t publishes;        /* users' publishes to the first broker (when simulated) */
    int64_t copies;           /* messages the first broker took (a job's first counts too) */
    int64_t dedup_drops;      /* publishes a broker dropped inside its dedup window */
    int64_t held;             /* key-claimed-first deliveries that found the key claimed */
    int64_t events_published; /* the first handler's event publishes, relay's included */
    int64_t lost_events, ghost_events;
    int64_t downstream_deliveries, downstream_effects, downstream_duplicates;
    int64_t downstream_lost_writes, downstream_errors;
    /* the dead-letter queues (MODEL.md "Messages that keep failing") */
    int64_t dead_lettered;
    int64_t dead_letter_p50_us; /* 0 when none was dead-lettered */
} sim_counts;

/* A growable trace with a cap. */
typedef struct {
    sim_trace_entry *v;
    size_t n, cap, max;
    bool truncated;
} sim_trace_buf;

/* The state of one run, reused across replications (model.c). */
typedef struct sim_model sim_model;

/* Prepare a model for a board that passed sim_board_check_topology.
 * Returns NULL when memory runs out. Free with sim_model_free. */
sim_model *sim_model_new(const sim_board *b, const sim_topology *topo);
void sim_model_free(sim_model *m);
/* Run one replication on the stream with this key (rng_stream_key of the
 * seed and the replication). trace may be NULL. Returns SIM_OK, or
 * SIM_ERR_EVENTS, SIM_ERR_TIME or SIM_ERR_MEMORY with a sentence in msg. */
sim_status sim_model_run(sim_model *m, const sim_limits *lim, uint64_t key, sim_trace_buf *trace,
                         sim_counts *out, char *msg, size_t n);

/* Check the board and run replication r of the given seed (whatever the
 * board's own seed): the test hook for the raw counters. */
int sim_run_counts(const sim_board *b, const sim_limits *lim, uint64_t seed, int r,
                   sim_trace_buf *trace, sim_counts *out, char *msg, size_t n);

/* ---- growing arrays: the one doubling every sim-core array grows by */

/* The capacity an array of cap elements grows to: twice cap, or first
 * when it has none yet. */
static inline size_t sim_grown_cap(size_t cap, size_t first)
{
    return cap ? cap * 2 : first;
}

/* Resize the array whose pointer is at *items_at (any element type's
 * pointer: it is copied in and out with memcpy) to n elements of size
 * bytes. False when memory runs out, the array as it was. */
static inline bool sim_resize(void *items_at, size_t n, size_t size)
{
    void *items;
    memcpy(&items, items_at, sizeof items);
    void *v = realloc(items, n * size);
    if (!v)
        return false;
    memcpy(items_at, &v, sizeof v);
    return true;
}

/* Double the array at *items_at (*cap elements of size bytes; first of
 * them when it has none) and update *cap. False when memory runs out, the
 * array and *cap as they were. */
static inline bool sim_grow(void *items_at, size_t *cap, size_t size, size_t first)
{
    size_t n = sim_grown_cap(*cap, first);
    if (!sim_resize(items_at, n, size))
        return false;
    *cap = n;
    return true;
}

/* Double a ring of n elements of size bytes from *head, its capacity *cap
 * a power of two (first when it has none), into a new array unwrapped:
 * *head becomes 0. False when memory runs out, the ring as it was. (One
 * element at a time: inlined with a constant size, each is one copy of
 * the element type, as a loop over the typed ring makes.) */
static inline bool sim_ring_grow(void *items_at, size_t *head, size_t n, size_t *cap, size_t size,
                                 size_t first)
{
    size_t to = sim_grown_cap(*cap, first);
    char *v = malloc(to * size), *old;
    if (!v)
        return false;
    memcpy(&old, items_at, sizeof old);
    for (size_t i = 0; i < n; i++)
        memcpy(v + i * size, old + ((*head + i) & (*cap - 1)) * size, size);
    free(old);
    memcpy(items_at, &v, sizeof v);
    *cap = to;
    *head = 0;
    return true;
}

/* ---- stats.c */

/* Student t quantile t(0.975, df), df >= 1. */
double sim_t975(int df);
/* mean, min, max and ci95 of n values (n >= 1), v[0], v[stride], ... */
sim_stat sim_stat_of(const double *v, int n, int stride);
/* Nearest-rank percentile (pct in 1..100) of v[0..n), n >= 1: the value of
 * rank ceil(pct * n / 100). Reorders v. */
int64_t sim_percentile(int64_t *v, size_t n, int pct);
/* Both nearest-rank percentiles the measures use, the second search only
 * above the first. Reorders v. */
void sim_p50_p99(int64_t *v, size_t n, int64_t *p50, int64_t *p99);
/* Judge a goal on the replications' values. */
sim_goal_result sim_goal_judge(const sim_goal *g, const sim_stat *s);
/* Fill goals, all_goals_pass and expect_ok of r from its m[]. */
void sim_judge(const sim_board *b, sim_result *r);
/* The measure's value for one replication. */
double sim_measure_value(const sim_counts *c, sim_measure m, double monthly_cost);

#endif

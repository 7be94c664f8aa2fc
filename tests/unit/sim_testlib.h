/* sim_testlib.h — boards for the simulator tests, built as C structs:
 * users -> [broker ->] consumer/service [-> provider] [-> database], with
 * small constant latencies and no faults until a test sets some. */
#ifndef SIM_TESTLIB_H
#define SIM_TESTLIB_H

#include "sim_internal.h"

#include <stdbool.h>
#include <stdint.h>

enum {
    TB_BROKER = 1 << 0,   /* users -> broker -> consumer; without it users -> service */
    TB_PROVIDER = 1 << 1, /* the handler calls a payment-provider (external effect) */
    TB_DATABASE = 1 << 2, /* the handler writes to a database part */
    TB_TWO_HOPS = 1 << 3, /* the handler publishes to a second broker -> consumer */
};

#define TB_MAX 8

/* A board and the storage behind it. Do not copy (the board points into it). */
typedef struct {
    sim_part parts[TB_MAX];
    sim_link links[TB_MAX];
    int64_t lose_reply_of[TB_MAX];
    sim_board b;
    int users, broker, handler, provider, database; /* part indices or -1 */
    int publish, delivery, call, write;             /* link indices or -1 */
    int broker2, handler2;                          /* the second hop's, or -1 */
    int event, delivery2;                           /* handler -> broker2 -> handler2 */
} tb_board;

/* Build a board of the given shape with `jobs` jobs arriving evenly, one
 * every 10 ms; op charge, no de-duplication, one replication, seed 1.
 * Sender: 5 tries, redelivery_after / timeout 1 s. Handler: concurrency 4,
 * work 10 ms, call timeout 2 s, restart 1 s, lease 30 s, relay every
 * 500 ms (publish after-commit). Users publish with producer IDs; brokers
 * keep no dedup window. Links: rtt 2 ms. Provider call 50 ms. Database
 * write 1 ms. TB_TWO_HOPS adds "events" (a broker like the first) and
 * "mailer" (a consumer like the first handler, local effect). */
void tb_init(tb_board *t, unsigned shape, int64_t jobs);

/* The sender part (broker, or users calling a service). */
sim_part *tb_sender(tb_board *t);
sim_part *tb_handler(tb_board *t);
sim_link *tb_delivery(tb_board *t);

/* Give the delivery link lose_reply_of with these 1-based job numbers. */
void tb_lose_reply_of(tb_board *t, const int64_t *jobs, size_t n);
/* The same for another link (one link per board: the storage is shared). */
void tb_lose_reply_of_on(tb_board *t, int link, const int64_t *jobs, size_t n);

/* A sequential stream for tests that make random inputs: draw n of a key
 * (the simulator itself draws by coordinates, rng.h). */
typedef struct {
    uint64_t key, n;
} tb_gen;
void tb_gen_seed(tb_gen *r, uint64_t seed);
double tb_gen_unit(tb_gen *r);
bool tb_gen_chance(tb_gen *r, double p); /* draws even when p is 0 or 1 */
uint64_t tb_gen_below(tb_gen *r, uint64_t n);

/* One replication's raw counters; fails the test when the run fails. */
sim_counts tb_counts(const tb_board *t, uint64_t seed);
/* The same for replication r of that seed. */
sim_counts tb_counts_rep(const tb_board *t, uint64_t seed, int r);

#endif

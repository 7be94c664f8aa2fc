/* test_sim_closed.c — the model against closed forms. With reply-loss
 * probability p, k tries, no de-duplication and no other fault, a job is
 * delivered until a reply gets through or the tries run out, so
 *   duplicates per job  D = min(G, k-1), G geometric: E[D] = p + ... + p^(k-1)
 *   errors per job      Bernoulli(p^k)
 * The second release adds the publisher (the same form for its publishes,
 * lost confirms and per-publish IDs), key-claimed-first after a crash, lost
 * events after the commit, ghost events before it, and the outbox relay.
 * Jobs are independent, so a total over n jobs has n times a job's
 * variance; each total is checked within 5 standard errors of its mean (for
 * these fixed seeds a false failure would be a < 1e-6 event). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <math.h>
#include <stdio.h>

#define JOBS 200000

typedef struct {
    double p;
    int k;
    unsigned shape;
} closed_case;

/* Moments of D = min(G, cap), P(G >= j) = p^j: P(D = j) = p^j (1-p) for
 * j < cap, P(D = cap) = p^cap. Checks the mean against p + ... + p^cap. */
static void trunc_geom(double p, int cap, double *mean, double *var)
{
    double e1 = 0, e2 = 0, pj = 1;
    for (int j = 0; j <= cap; j++) {
        double prob = j < cap ? pj * (1 - p) : pj;
        e1 += j * prob;
        e2 += (double)j * j * prob;
        pj *= p;
    }
    double closed = 0;
    for (int j = 1; j <= cap; j++)
        closed += pow(p, j);
    assert_true(fabs(e1 - closed) < 1e-12); /* the two forms agree */
    *mean = e1;
    *var = e2 - e1 * e1;
}

/* |got - n * mean| within 5 standard errors of a sum of n independent
 * values of that mean and variance. */
static void near(const char *what, int64_t got, double n, double mean, double var)
{
    double tol = 5 * sqrt(n * var) + 1e-9;
    if (fabs((double)got - n * mean) > tol)
        fail_msg("%s: %lld, expected %.1f +- %.1f", what, (long long)got, n * mean, tol);
}

static void check_case(const closed_case *cc, uint64_t seed)
{
    double p = cc->p;
    int k = cc->k;
    double e1, var_d;
    trunc_geom(p, k - 1, &e1, &var_d);
    double perr = pow(p, k);

    tb_board t;
    tb_init(&t, cc->shape, JOBS);
    tb_sender(&t)->tries = k;
    tb_delivery(&t)->lose_reply = p;
    tb_handler(&t)->concurrency = 16;
    sim_counts c = tb_counts(&t, seed);

    double n = JOBS;
    char what[96];
    snprintf(what, sizeof what, "p=%g k=%d shape=%u: duplicates", p, k, cc->shape);
    near(what, c.duplicates, n, e1, var_d);
    snprintf(what, sizeof what, "p=%g k=%d shape=%u: errors", p, k, cc->shape);
    near(what, c.errors, n, perr, perr * (1 - perr));
    /* every delivery runs the effect; deliveries = jobs + duplicates */
    assert_int_equal(c.deliveries, c.effects);
    assert_int_equal(c.effects, c.jobs + c.duplicates);
    assert_int_equal(c.lost_writes, 0);
    assert_int_equal(c.jobs_with_effect, c.jobs);
    /* charged twice: the first reply was lost (k > 1), probability p */
    double twice = k > 1 ? p : 0;
    snprintf(what, sizeof what, "p=%g k=%d shape=%u: charged_twice", p, k, cc->shape);
    near(what, c.charged_twice, n, twice, twice * (1 - twice));
}

static void broker_closed_forms(void **state)
{
    (void)state;
    const closed_case cases[] = {
        {0.2, 5, TB_BROKER},
        {0.5, 3, TB_BROKER},
        {0.1, 2, TB_BROKER},
        {0.3, 1, TB_BROKER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i], 40 + i);
}

static void http_closed_forms(void **state)
{
    (void)state;
    const closed_case cases[] = {
        {0.25, 4, 0},
        {0.5, 2, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i], 50 + i);
}

/* ------------------------------------------------------------ the publisher */

#define PUB_JOBS 100000

/* Users -> broker -> consumer whose publish confirms are lost with
 * probability p, k publishes in all (timeout 1 s, far above the ~3 ms
 * confirm), no other fault. */
static void publisher_board(tb_board *t, double p, int k, sim_message_id ids,
                            sim_idempotency policy)
{
    tb_init(t, TB_BROKER, PUB_JOBS);
    t->parts[t->users].tries = k;
    t->parts[t->users].message_id = ids;
    t->links[t->publish].lose_reply = p;
    tb_handler(t)->idempotency = policy;
    tb_handler(t)->concurrency = 16;
}

/* Per-publish IDs, no de-duplication: every publish is a copy the ID check
 * cannot tell from the first. Publishes N = min(G, k-1) + 1, so duplicates
 * per job are min(G, k-1): p + ... + p^(k-1). */
static void per_publish_ids_duplicate_every_retry(void **state)
{
    (void)state;
    const struct {
        double p;
        int k;
    } cases[] = {{0.2, 5}, {0.5, 3}, {0.1, 2}, {0.3, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double p = cases[i].p, mean, var;
        int k = cases[i].k;
        trunc_geom(p, k - 1, &mean, &var);
        tb_board t;
        publisher_board(&t, p, k, SIM_MESSAGE_ID_PER_PUBLISH, SIM_IDEM_KEY_IN_TRANSACTION);
        sim_counts c = tb_counts(&t, 60 + i);
        char what[96];
        snprintf(what, sizeof what, "per-publish p=%g k=%d: duplicates", p, k);
        near(what, c.duplicates, PUB_JOBS, mean, var);
        /* each publish reached the broker and became a copy, handled once */
        assert_int_equal(c.publishes, c.jobs + c.duplicates);
        assert_int_equal(c.copies, c.publishes);
        assert_int_equal(c.deliveries, c.copies);
        assert_int_equal(c.dedup_drops, 0);
        /* a copy is acknowledged long before the publisher gives up */
        assert_int_equal(c.errors, 0);
        assert_int_equal(c.successes, c.jobs);
        double twice = k > 1 ? p : 0;
        snprintf(what, sizeof what, "per-publish p=%g k=%d: charged_twice", p, k);
        near(what, c.charged_twice, PUB_JOBS, twice, twice * (1 - twice));
    }
}

/* Producer IDs: the consumer's ID check, or a broker window longer than the
 * retry span, catches every copy; without either, the same form as above. */
static void producer_ids_are_caught(void **state)
{
    (void)state;
    const double p = 0.2;
    const int k = 5;
    double mean, var;
    trunc_geom(p, k - 1, &mean, &var);
    tb_board t;
    /* neither: the consumer runs every copy */
    publisher_board(&t, p, k, SIM_MESSAGE_ID_PRODUCER, SIM_IDEM_NONE);
    sim_counts plain = tb_counts(&t, 70);
    near("producer, no check: duplicates", plain.duplicates, PUB_JOBS, mean, var);
    assert_int_equal(plain.copies, plain.publishes);
    /* the consumer's check catches the copies */
    publisher_board(&t, p, k, SIM_MESSAGE_ID_PRODUCER, SIM_IDEM_KEY_IN_TRANSACTION);
    sim_counts c = tb_counts(&t, 70);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.deliveries, c.copies);
    assert_true(c.copies > c.jobs);
    /* a window longer than tries x timeout (5 s): the broker drops them */
    publisher_board(&t, p, k, SIM_MESSAGE_ID_PRODUCER, SIM_IDEM_NONE);
    tb_sender(&t)->dedup_window_us = 10000000;
    c = tb_counts(&t, 70);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.copies, c.jobs);
    assert_int_equal(c.dedup_drops, c.publishes - c.jobs);
    assert_int_equal(c.publishes, plain.publishes); /* the same confirms were lost */
    /* ... but not per-publish IDs: nothing to match */
    publisher_board(&t, p, k, SIM_MESSAGE_ID_PER_PUBLISH, SIM_IDEM_NONE);
    tb_sender(&t)->dedup_window_us = 10000000;
    c = tb_counts(&t, 70);
    near("per-publish, window: duplicates", c.duplicates, PUB_JOBS, mean, var);
    assert_int_equal(c.dedup_drops, 0);
    /* a window shorter than the timeout (1 s) sees no retry inside it: the
     * run is the one without a window */
    publisher_board(&t, p, k, SIM_MESSAGE_ID_PRODUCER, SIM_IDEM_NONE);
    tb_sender(&t)->dedup_window_us = 500000;
    c = tb_counts(&t, 70);
    assert_int_equal(c.dedup_drops, 0);
    assert_int_equal(c.duplicates, plain.duplicates);
    assert_int_equal(c.events, plain.events);
}

/* Lost publishes: each is sent again; with all k lost the user gets an
 * error and the job never reaches the broker (a lost write). */
static void lost_publishes_are_retried(void **state)
{
    (void)state;
    const double p = 0.5;
    const int k = 3;
    tb_board t;
    publisher_board(&t, 0, k, SIM_MESSAGE_ID_PER_PUBLISH, SIM_IDEM_NONE);
    t.links[t.publish].lose_request = p;
    sim_counts c = tb_counts(&t, 71);
    double perr = pow(p, k);
    near("lost publishes: errors", c.errors, PUB_JOBS, perr, perr * (1 - perr));
    assert_int_equal(c.duplicates, 0); /* a lost publish makes no copy */
    assert_int_equal(c.lost_writes, c.errors);
    assert_int_equal(c.copies, c.jobs - c.errors);
    assert_int_equal(c.successes + c.errors, c.jobs);
}

/* ------------------------------------------------------------ key-claimed-first */

#define CLAIM_JOBS 20000

/* A crash leaves the claim: every later try finds it and is held. With a
 * lease longer than the tries, a job whose first attempt crashed is
 * dead-lettered (errors ~ Bernoulli(q)), its effect rolled back; with a
 * lease shorter than redelivery_after, the next try claims again (errors
 * only when all k attempts crash: q^k). Concurrency 1: no other delivery is
 * abandoned by a crash; a job every 20 ms keeps the consumer half idle, so
 * redeliveries do not queue long enough to outlast the lease. */
static void claimed_key_holds_the_job_until_the_lease(void **state)
{
    (void)state;
    const double q = 0.1;
    const int k = 5;
    for (int shortl = 0; shortl < 2; shortl++) {
        tb_board t;
        tb_init(&t, TB_BROKER, CLAIM_JOBS);
        t.b.traffic.over_us = CLAIM_JOBS * 20000;
        sim_part *h = tb_handler(&t);
        h->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
        h->concurrency = 1;
        h->crash_after_effect = q;
        h->restart_us = 10000;
        h->lease_us = shortl ? 500000 : 60000000; /* redelivery_after is 1 s */
        tb_sender(&t)->tries = k;
        sim_counts c = tb_counts(&t, 80 + (uint64_t)shortl);
        double perr = shortl ? pow(q, k) : q;
        near(shortl ? "short lease: errors" : "long lease: errors", c.errors, CLAIM_JOBS, perr,
             perr * (1 - perr));
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.lost_writes, c.errors);
        if (!shortl)
            assert_true(c.held >= (k - 1) * c.errors);
    }
}

/* ------------------------------------------------------------ two hops */

#define HOP_JOBS 40000

static void two_hop_board(tb_board *t, sim_publish publish)
{
    tb_init(t, TB_BROKER | TB_TWO_HOPS, HOP_JOBS);
    tb_handler(t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    tb_handler(t)->publish = publish;
    tb_handler(t)->restart_us = 50000;
    tb_sender(t)->tries = 10; /* sibling deliveries abandoned by crashes still commit */
    t->parts[t->handler2].idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
}

/* After-commit: each job commits once; the commit's delivery crashes
 * before publishing with probability q, and the redelivery finds the key
 * recorded: lost_events ~ Bernoulli(q) per job. */
static void after_commit_loses_q_per_job(void **state)
{
    (void)state;
    const double q = 0.1;
    tb_board t;
    two_hop_board(&t, SIM_PUBLISH_AFTER_COMMIT);
    tb_handler(&t)->crash_after_commit = q;
    sim_counts c = tb_counts(&t, 90);
    assert_int_equal(c.jobs_with_effect, c.jobs);
    near("after-commit: lost_events", c.lost_events, HOP_JOBS, q, q * (1 - q));
    assert_int_equal(c.ghost_events, 0);
    assert_int_equal(c.duplicates, 0);
    /* every event that went out arrived once and took effect */
    assert_int_equal(c.downstream_effects, c.jobs - c.lost_events);
    assert_int_equal(c.downstream_duplicates, 0);
    assert_int_equal(c.downstream_lost_writes, 0);
    assert_int_equal(c.events_published, c.jobs - c.lost_events);
    /* without an ID check the redelivery runs the effect again and
     * publishes: events are lost only when every try crashes */
    tb_handler(&t)->idempotency = SIM_IDEM_NONE;
    c = tb_counts(&t, 90);
    assert_true(c.lost_events < HOP_JOBS * q / 100);
    assert_true(c.duplicates > HOP_JOBS * q / 2);
}

/* Before-commit: every attempt publishes, then rolls back with probability
 * q (a crash after the effect in a key-in-transaction commit). Attempts go
 * on until one commits or k have been made, so ghost events per job are
 * min(G, k): q + ... + q^k. Concurrency 1: no sibling is abandoned. */
static void before_commit_sends_ghosts(void **state)
{
    (void)state;
    const double q = 0.2;
    const int k = 4;
    double mean, var;
    trunc_geom(q, k, &mean, &var);
    tb_board t;
    two_hop_board(&t, SIM_PUBLISH_BEFORE_COMMIT);
    tb_sender(&t)->tries = k;
    tb_handler(&t)->concurrency = 1;
    tb_handler(&t)->crash_after_effect = q;
    tb_handler(&t)->restart_us = 10000;
    sim_counts c = tb_counts(&t, 91);
    near("before-commit: ghost_events", c.ghost_events, HOP_JOBS, mean, var);
    assert_int_equal(c.lost_events, 0);
    assert_int_equal(c.duplicates, 0);
    /* the second handler's ID check takes one event per job: the first,
     * ghost or not */
    assert_int_equal(c.downstream_duplicates, 0);
    assert_int_equal(c.downstream_deliveries, c.events_published);
    assert_int_equal(c.events_published, c.jobs_with_effect + c.ghost_events);
}

/* The outbox: whatever crashes, a standing effect's event arrives, and no
 * event arrives for one that rolled back. */
static void outbox_loses_nothing(void **state)
{
    (void)state;
    tb_board t;
    two_hop_board(&t, SIM_PUBLISH_OUTBOX);
    tb_handler(&t)->crash_after_commit = 0.1;
    tb_handler(&t)->crash_after_effect = 0.1;
    t.links[t.event].lose_request = 0.2;
    t.links[t.event].lose_reply = 0.2;
    sim_counts c = tb_counts(&t, 92);
    assert_true(c.jobs_with_effect > HOP_JOBS - 10);
    assert_int_equal(c.lost_events, 0);
    assert_int_equal(c.ghost_events, 0);
    assert_int_equal(c.downstream_lost_writes, 0);
    assert_int_equal(c.downstream_effects, c.jobs_with_effect);
    assert_int_equal(c.downstream_duplicates, 0);
    /* at least once: without its own check the second handler repeats */
    t.parts[t.handler2].idempotency = SIM_IDEM_NONE;
    c = tb_counts(&t, 92);
    assert_int_equal(c.lost_events, 0);
    assert_true(c.downstream_duplicates > HOP_JOBS / 20);
}

/* The relay publishes each record at every poll until a confirm comes
 * back: copies per record 1 + G, G geometric with P(G >= j) = p^j, so
 * downstream duplicates (no check, no window) are p / (1 - p) per job with
 * variance p / (1 - p)^2. A window W at the second broker drops the
 * copies that come within W of the one it took: with polls R = 500 ms and
 * W = 2 s it takes publish 0, 5, 10, ... (5R > W), so duplicates are
 * floor(G / 5), geometric with ratio r = p^5: r / (1 - r) per job. */
static void outbox_relay_repeats_until_confirmed(void **state)
{
    (void)state;
    const double p = 0.3;
    tb_board t;
    two_hop_board(&t, SIM_PUBLISH_OUTBOX);
    t.parts[t.handler2].idempotency = SIM_IDEM_NONE;
    t.links[t.event].lose_reply = p;
    sim_counts c = tb_counts(&t, 93);
    near("relay: downstream_duplicates", c.downstream_duplicates, HOP_JOBS, p / (1 - p),
         p / ((1 - p) * (1 - p)));
    assert_int_equal(c.events_published, c.jobs + c.downstream_duplicates);
    assert_int_equal(c.downstream_deliveries, c.events_published);
    t.parts[t.broker2].dedup_window_us = 2000000;
    c = tb_counts(&t, 93);
    double r = pow(p, 5);
    near("relay, 2 s window: downstream_duplicates", c.downstream_duplicates, HOP_JOBS, r / (1 - r),
         r / ((1 - r) * (1 - r)));
    assert_int_equal(c.dedup_drops + c.downstream_deliveries, c.events_published);
    t.parts[t.broker2].dedup_window_us = SIM_FOREVER;
    c = tb_counts(&t, 93);
    assert_int_equal(c.downstream_duplicates, 0);
    assert_int_equal(c.dedup_drops, c.events_published - c.jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broker_closed_forms),
        cmocka_unit_test(http_closed_forms),
        cmocka_unit_test(per_publish_ids_duplicate_every_retry),
        cmocka_unit_test(producer_ids_are_caught),
        cmocka_unit_test(lost_publishes_are_retried),
        cmocka_unit_test(claimed_key_holds_the_job_until_the_lease),
        cmocka_unit_test(after_commit_loses_q_per_job),
        cmocka_unit_test(before_commit_sends_ghosts),
        cmocka_unit_test(outbox_loses_nothing),
        cmocka_unit_test(outbox_relay_repeats_until_confirmed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

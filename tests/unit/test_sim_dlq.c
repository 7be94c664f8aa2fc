/* test_sim_dlq.c — a broker's dead-letter queue, against closed forms.
 * With a poison share p, m tries, redelivery_after T and no other fault,
 * the X poison jobs (X near N·p) each take m deliveries and are moved to
 * the queue: deliveries = (N - X) + X·m, dead_lettered = errors = X, and
 * each one's time from its first delivery to the queue is m·T exactly (each
 * try waits its whole timer, and a redelivery is sent the same instant).
 * With back-off {first, factor, max} and no jitter it is the sum of the
 * waits, min(max, first·factor^(k-1)) for k = 1..m; with full jitter each
 * wait is uniform below that, so the median is near half the sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOBS 20000

/* A dead-letter-queue part the broker names; returns its index. */
static int add_dlq(tb_board *t)
{
    int q = (int)t->b.n_parts++;
    memset(&t->parts[q], 0, sizeof t->parts[q]);
    t->parts[q].kind = SIM_KIND_DLQ;
    t->parts[q].id = "dlq";
    t->parts[t->broker].dead_letter = q + 1;
    return q;
}

static void check_poison(double p, int m, int64_t timer_us, uint64_t seed)
{
    tb_board t;
    tb_init(&t, TB_BROKER, JOBS);
    add_dlq(&t);
    t.b.traffic.poison = p;
    tb_sender(&t)->tries = m;
    tb_sender(&t)->redelivery_after_us = timer_us;
    tb_handler(&t)->concurrency = 16;
    sim_counts c = tb_counts(&t, seed);
    int64_t x = c.dead_lettered;
    double tol = 5 * sqrt(JOBS * p * (1 - p));
    if (fabs((double)x - JOBS * p) > tol)
        fail_msg("p=%g m=%d: %lld dead-lettered, expected %.0f +- %.0f", p, m, (long long)x,
                 JOBS * p, tol);
    assert_int_equal(c.deliveries, (JOBS - x) + x * m);
    assert_int_equal(c.errors, x);
    assert_int_equal(c.effects, JOBS - x);
    assert_int_equal(c.dead_letter_p50_us, x > 0 ? m * timer_us : 0);
}

static void poison_to_the_queue(void **state)
{
    (void)state;
    check_poison(0.1, 5, 1000000, 31);
    check_poison(0.3, 3, 250000, 32);
    check_poison(0.05, 1, 2000000, 33);
}

/* A poison message's time to the queue under back-off. */
static sim_counts backoff_counts(int64_t jobs, int m, int64_t first, double factor, int64_t max,
                                 bool jitter)
{
    tb_board t;
    tb_init(&t, TB_BROKER, jobs);
    add_dlq(&t);
    t.b.traffic.poison = 1;
    tb_sender(&t)->tries = m;
    tb_sender(&t)->redelivery_after_us = first;
    tb_sender(&t)->backoff_factor = factor;
    tb_sender(&t)->backoff_max_us = max;
    tb_sender(&t)->backoff_jitter = jitter;
    tb_handler(&t)->concurrency = 64;
    return tb_counts(&t, 7);
}

static void backoff_sums_its_waits(void **state)
{
    (void)state;
    static const struct {
        int m;
        int64_t first;
        double factor;
        int64_t max, sum;
    } cases[] = {
        {5, 1000000, 2, 0, 31000000},         /* 1 + 2 + 4 + 8 + 16 s */
        {5, 1000000, 2, 10000000, 25000000},  /* 1 + 2 + 4 + 8 + 10 s */
        {5, 100000, 3, 2000000, 5300000},     /* 0.1 + 0.3 + 0.9 + 2 + 2 s */
        {4, 1000000, 1.5, 0, 8125000},        /* 1 + 1.5 + 2.25 + 3.375 s */
        {3, 2000000, 0, 0, 6000000},          /* no back-off: m waits of 2 s */
        {3, 2000000, 1, 5000000, 6000000},    /* factor 1: the same */
        {1, 500000, 10, 1000000, 500000},     /* one try: the first wait only */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_counts c = backoff_counts(300, cases[i].m, cases[i].first, cases[i].factor,
                                      cases[i].max, false);
        assert_int_equal(c.dead_lettered, 300);
        assert_int_equal(c.deliveries, 300 * cases[i].m);
        if (c.dead_letter_p50_us != cases[i].sum)
            fail_msg("case %zu: %lld us to the queue, expected %lld", i,
                     (long long)c.dead_letter_p50_us, (long long)cases[i].sum);
    }
    /* full jitter: each wait uniform below its delay; the median of the
     * sum (symmetric about its mean) is near half of 1 + 2 + 4 + 8 + 10 s */
    sim_counts c = backoff_counts(4000, 5, 1000000, 2, 10000000, true);
    assert_int_equal(c.dead_lettered, 4000);
    if (llabs(c.dead_letter_p50_us - 12500000) > 500000)
        fail_msg("jitter: median %lld us to the queue, expected 12.5 s +- 0.5 s",
                 (long long)c.dead_letter_p50_us);
}

/* Without the queue nothing is dead-lettered; the errors are the same. */
static void no_queue_no_dead_letters(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 500);
    t.b.traffic.poison = 1;
    tb_sender(&t)->tries = 3;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.errors, 500);
    assert_int_equal(c.dead_lettered, 0);
    assert_int_equal(c.dead_letter_p50_us, 0);
    add_dlq(&t);
    c = tb_counts(&t, 1);
    assert_int_equal(c.errors, 500);
    assert_int_equal(c.dead_lettered, 500);
    assert_int_equal(c.deliveries, 1500);
    assert_int_equal(c.dead_letter_p50_us, 3000000);
}

/* The trace moves each one to the queue in place of a give-up. */
static void trace_shows_the_move(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 4);
    int q = add_dlq(&t);
    t.b.traffic.poison = 1;
    tb_sender(&t)->tries = 2;
    sim_trace_buf tr = {0};
    tr.max = 1000;
    sim_counts c;
    char msg[256];
    sim_limits lim = sim_limits_default();
    assert_int_equal(sim_run_counts(&t.b, &lim, 1, 0, &tr, &c, msg, sizeof msg), 0);
    size_t moved = 0;
    for (size_t i = 0; i < tr.n; i++) {
        assert_int_not_equal(tr.v[i].kind, SIM_TR_GIVE_UP);
        if (tr.v[i].kind == SIM_TR_DEAD_LETTER) {
            moved++;
            assert_int_equal(tr.v[i].part, q);
            assert_int_equal(tr.v[i].peer, t.broker);
            assert_int_equal(tr.v[i].detail, 2);
        }
    }
    assert_int_equal(moved, 4);
    free(tr.v);
}

static void refused_with(const tb_board *t, const char *want)
{
    char msg[256];
    int link;
    int part = sim_board_check(&t->b, NULL, msg, sizeof msg, &link);
    assert_int_not_equal(part, -1);
    if (!strstr(msg, want))
        fail_msg("check said \"%s\", expected \"%s\"", msg, want);
}

static void bad_queues_are_refused(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    t.parts[t.broker].dead_letter = t.handler + 1;
    refused_with(&t, "dead_letter names part 'processor', a consumer; it must name a "
                     "dead-letter-queue");
    t.parts[t.broker].dead_letter = 40;
    refused_with(&t, "dead_letter names a part that does not exist");
    tb_init(&t, TB_BROKER, 10);
    add_dlq(&t);
    t.parts[t.broker].delivery = SIM_DELIVERY_AT_MOST_ONCE;
    refused_with(&t, "dead_letter needs delivery: at-least-once");
    tb_init(&t, TB_BROKER, 10);
    int q = add_dlq(&t);
    t.links[t.b.n_links] = (sim_link){.from = t.broker, .to = q, .protocol = SIM_PROTO_AMQP};
    t.b.n_links++;
    refused_with(&t, "is a dead-letter-queue: a broker names it with dead_letter");
    tb_init(&t, TB_BROKER, 10);
    tb_sender(&t)->backoff_factor = 0.5;
    refused_with(&t, "redelivery_after's factor must be between 1 and 1000");
    tb_sender(&t)->backoff_factor = 2;
    tb_sender(&t)->backoff_max_us = tb_sender(&t)->redelivery_after_us - 1;
    refused_with(&t, "redelivery_after's max must not be shorter than its first wait");
}

/* The queue's measures are on a board only when a broker names one. */
static void measures_only_with_a_queue(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    assert_false(sim_measure_on(&t.b, SIM_M_DEAD_LETTERED));
    assert_false(sim_measure_on(&t.b, SIM_M_DEAD_LETTER_TIME));
    assert_true(sim_measure_on(&t.b, SIM_M_ERRORS));
    assert_false(sim_measure_on(&t.b, SIM_M_LOST_EVENTS));
    add_dlq(&t);
    assert_true(sim_measure_on(&t.b, SIM_M_DEAD_LETTERED));
    assert_true(sim_measure_on(&t.b, SIM_M_DEAD_LETTER_TIME));
    assert_int_equal(sim_measure_hop(SIM_M_DEAD_LETTERED), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(poison_to_the_queue),
        cmocka_unit_test(backoff_sums_its_waits),
        cmocka_unit_test(no_queue_no_dead_letters),
        cmocka_unit_test(trace_shows_the_move),
        cmocka_unit_test(bad_queues_are_refused),
        cmocka_unit_test(measures_only_with_a_queue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

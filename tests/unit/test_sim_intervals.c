/* test_sim_intervals.c — numbers a statistician would sign (issue 19):
 * exact rate intervals against a reference table, their coverage over 100
 * independent seeds for a common and a rare count, paired differences on
 * common random numbers, what those numbers share between two boards,
 * replications until a precision, and percentiles from few samples. */
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

static sim_result run(const tb_board *t)
{
    sim_result r;
    char msg[256];
    if (sim_run(&t->b, NULL, false, &r, msg, sizeof msg) != 0)
        fail_msg("sim_run: %s", msg);
    return r;
}

static sim_result run_traced(const tb_board *t)
{
    sim_result r;
    char msg[256];
    if (sim_run(&t->b, NULL, true, &r, msg, sizeof msg) != 0)
        fail_msg("sim_run: %s", msg);
    return r;
}

/* ------------------------------------------------------------ the rate intervals */

/* Computed independently with scipy 1.10 (Debian's python3-scipy):
 * per job, beta.ppf(0.025, x, n - x + 1) and beta.ppf(0.975, x + 1, n - x)
 * (Clopper-Pearson); otherwise chi2.ppf(0.025, 2x) / 2n and
 * chi2.ppf(0.975, 2x + 2) / 2n (Garwood). At x = 0 the one-sided 95% upper
 * bound: 1 - 0.05^(1/n) (per job) and -ln(0.05) / n. */
static const struct {
    int64_t x, n;
    bool per_job;
    double lo, hi;
} reference[] = {
    {0, 20000, true, 0, 0.00014977539622296285},
    {0, 1000, true, 0, 0.0029912495450952958},
    {1, 20000, true, 1.2658895979755804e-06, 0.00027855033217451128},
    {3, 1600, true, 0.00038683711421133137, 0.0054696777985874714},
    {7, 1600, true, 0.0017607311435408118, 0.0089932744496817457},
    {20, 100, true, 0.12665555210195586, 0.29184268908862809},
    {50, 100, true, 0.39832112950330106, 0.60167887049669888},
    {99, 100, true, 0.94554061460791938, 0.99974685396702256},
    {100, 100, true, 0.96378330735482354, 1},
    {2206, 20000, true, 0.10599034107613216, 0.11472330114977634},
    {5, 20000000, true, 8.1174324328718432e-08, 5.834165066819936e-07},
    {1000000, 20000000, true, 0.049904523307663456, 0.050095606981330212},
    {0, 20000, false, 0, 0.00014978661367769954},
    {1, 20000, false, 1.2658903992144938e-06, 0.00027858216954694488},
    {3, 1600, false, 0.00038667007680975087, 0.0054795456685889522},
    {26, 1600, false, 0.010615039509747713, 0.023810015051953123},
    {2206, 20000, false, 0.105744752450167, 0.11500100292298411},
    {150, 100, false, 1.2695616130124487, 1.760171660970745},
    {0, 1, false, 0, 2.9957322735539909},
    {12, 20000000, false, 3.1002875543611086e-07, 1.0480792524088481e-06},
    {4000000, 20000000, false, 0.19980405096349121, 0.20019609377630065},
};

static void near_rel(const char *what, double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * fabs(want)))
        fail_msg("%s: %.17g, expected %.17g", what, got, want);
}

static void rates_against_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof reference / sizeof reference[0]; i++) {
        sim_rate r = sim_rate_of(reference[i].x, reference[i].n, reference[i].per_job);
        char what[96];
        snprintf(what, sizeof what, "%lld in %lld (%s) lo", (long long)reference[i].x,
                 (long long)reference[i].n, reference[i].per_job ? "per job" : "events");
        near_rel(what, r.lo, reference[i].lo, 1e-7);
        what[strlen(what) - 2] = 'h';
        what[strlen(what) - 1] = 'i';
        near_rel(what, r.hi, reference[i].hi, 1e-7);
        assert_int_equal(r.count, reference[i].x);
        assert_int_equal(r.trials, reference[i].n);
        assert_true(r.rate == (double)reference[i].x / (double)reference[i].n);
        assert_int_equal(r.one_sided, reference[i].x == 0);
        assert_true(r.lo <= r.rate && r.rate <= r.hi);
    }
    /* the sentence: 0 in 20,000 jobs is at most 1.5 per 10,000 */
    sim_rate z = sim_rate_of(0, 20000, true);
    assert_true(z.hi * 10000 > 1.49 && z.hi * 10000 < 1.51);
    /* nothing to say without trials */
    z = sim_rate_of(0, 0, true);
    assert_true(z.lo == 0 && z.hi == 0 && z.rate == 0);
}

/* Which measures are fault counts, and of which kind. */
static void rate_kinds(void **state)
{
    (void)state;
    assert_int_equal(sim_measure_rate_kind(SIM_M_ERRORS), SIM_RATE_PER_JOB);
    assert_int_equal(sim_measure_rate_kind(SIM_M_LOST_WRITES), SIM_RATE_PER_JOB);
    assert_int_equal(sim_measure_rate_kind(SIM_M_CHARGED_TWICE), SIM_RATE_PER_JOB);
    assert_int_equal(sim_measure_rate_kind(SIM_M_LOST_EVENTS), SIM_RATE_PER_JOB);
    assert_int_equal(sim_measure_rate_kind(SIM_M_DUPLICATES), SIM_RATE_EVENTS);
    assert_int_equal(sim_measure_rate_kind(SIM_M_GHOST_EVENTS), SIM_RATE_EVENTS);
    assert_int_equal(sim_measure_rate_kind(SIM_M_DOWNSTREAM_DUPLICATES), SIM_RATE_EVENTS);
    assert_int_equal(sim_measure_rate_kind(SIM_M_JOBS), SIM_RATE_NONE);
    assert_int_equal(sim_measure_rate_kind(SIM_M_DELIVERIES), SIM_RATE_NONE);
    assert_int_equal(sim_measure_rate_kind(SIM_M_LATENCY_P99), SIM_RATE_NONE);
    assert_int_equal(sim_measure_rate_kind(SIM_M_ERROR_RATE), SIM_RATE_NONE);
}

/* ------------------------------------------------------------ coverage */

/* The closed form of test_sim_closed.c: reply loss p, k tries, no
 * de-duplication and no other fault. A job is an error with probability
 * p^k and has min(G, k-1) duplicates, E = p + ... + p^(k-1). */
static void closed_board(tb_board *t, int64_t jobs, double p, int k, int reps, uint64_t seed)
{
    tb_init(t, TB_BROKER, jobs);
    tb_sender(t)->tries = k;
    tb_delivery(t)->lose_reply = p;
    tb_handler(t)->concurrency = 16;
    t->b.replications = reps;
    t->b.seed = seed;
}

/* The interval a page quotes: the exact rate's, scaled to a run, where the
 * result prefers it; else mean ± ci95. Does it hold the true mean? */
static bool covers(const sim_result *r, sim_measure m, double truth_per_job, bool *used_rate)
{
    sim_rate rt;
    assert_int_equal(sim_result_rate(r, m, &rt), 0);
    *used_rate = rt.preferred;
    if (rt.preferred)
        return rt.lo <= truth_per_job && truth_per_job <= rt.hi;
    double jobs = r->m[SIM_M_JOBS].mean, truth = truth_per_job * jobs;
    return fabs(r->m[m].mean - truth) <= r->m[m].ci95;
}

/* Over 100 independent seeds the 95% interval holds the truth at least 90
 * times, for a common count (duplicates, ~50 a run: the t interval) and a
 * rare one (errors at 0.128 a run over 10 runs, the case: the
 * exact interval, whose coverage there is 99.0%, from scipy). The t
 * interval alone on the rare count covers far fewer (about 72: every seed
 * whose 10 runs all had no error says 0 ± 0): the reason for all this. */
static void intervals_cover_the_truth(void **state)
{
    (void)state;
    int common = 0, rare = 0, rare_t = 0, rate_used = 0;
    double dup_per_job = 0.2 + 0.04 + 0.008 + 0.0016; /* p = 0.2, k = 5 */
    double err_per_job = 0.2 * 0.2 * 0.2 * 0.2;       /* p = 0.2, k = 4: 0.0016 */
    for (uint64_t seed = 1; seed <= 100; seed++) {
        tb_board t;
        bool used;
        closed_board(&t, 200, 0.2, 5, 10, seed);
        sim_result r = run(&t);
        common += covers(&r, SIM_M_DUPLICATES, dup_per_job, &used);
        assert_false(used); /* ~500 duplicates in all: the t interval */
        sim_result_free(&r);

        closed_board(&t, 80, 0.2, 4, 10, 1000 + seed); /* 0.128 errors a run */
        r = run(&t);
        rare += covers(&r, SIM_M_ERRORS, err_per_job, &used);
        rate_used += used;
        double truth = err_per_job * 80;
        rare_t += fabs(r.m[SIM_M_ERRORS].mean - truth) <= r.m[SIM_M_ERRORS].ci95;
        sim_result_free(&r);
    }
    if (common < 90 || rare < 90)
        fail_msg("coverage: common %d, rare %d of 100", common, rare);
    assert_int_equal(rate_used, 100); /* fewer than 20 errors in 800 jobs every time */
    if (rare_t >= 90)
        fail_msg("the t interval covered the rare count %d times: the test shows nothing", rare_t);
    print_message("coverage of 100 seeds: common %d, rare %d (t interval alone: %d)\n", common,
                  rare, rare_t);
}

/* ------------------------------------------------------------ what two boards share */

/* a: poisson arrivals, one ack in five lost, variable work, no check;
 * b: the same with the ID check in the transaction. */
static void lossy_pair(tb_board *a, tb_board *b, int64_t jobs, int reps, uint64_t seed)
{
    tb_init(a, TB_BROKER, jobs);
    a->b.traffic.arrivals = SIM_ARRIVALS_POISSON;
    tb_delivery(a)->lose_reply = 0.2;
    tb_handler(a)->work = (sim_latency){8000, 40000};
    a->b.replications = reps;
    a->b.seed = seed;
    *b = *a;
    b->b.parts = b->parts; /* b's board points into b */
    b->b.links = b->links;
    tb_handler(b)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
}

static bool has_entry(const sim_result *r, sim_trace_kind kind, int64_t job, int64_t detail)
{
    for (size_t i = 0; i < r->n_trace; i++)
        if (r->trace[i].kind == kind && r->trace[i].job == job && r->trace[i].detail == detail)
            return true;
    return false;
}

/* Common random numbers: with the ID check the handler skips every repeat,
 * yet each job arrives at the same time and each try's reply is lost or
 * not exactly as without it; a higher loss keeps every loss of a lower one. */
static void boards_share_their_draws(void **state)
{
    (void)state;
    tb_board a, b;
    lossy_pair(&a, &b, 300, 1, 5);
    sim_result ra = run_traced(&a), rb = run_traced(&b);
    int arrivals = 0, lost = 0;
    for (size_t i = 0; i < ra.n_trace; i++) {
        const sim_trace_entry *e = &ra.trace[i];
        if (e->kind == SIM_TR_ARRIVE) {
            arrivals++;
            bool same = false;
            for (size_t j = 0; j < rb.n_trace && !same; j++)
                same = rb.trace[j].kind == SIM_TR_ARRIVE && rb.trace[j].job == e->job &&
                       rb.trace[j].t_us == e->t_us;
            assert_true(same);
        } else if (e->kind == SIM_TR_LOST_REPLY) {
            lost++;
            assert_true(has_entry(&rb, SIM_TR_LOST_REPLY, e->job, e->detail));
        }
    }
    assert_int_equal(arrivals, 300);
    assert_true(lost > 30);
    assert_true(ra.m[SIM_M_DUPLICATES].mean > 30 && rb.m[SIM_M_DUPLICATES].mean == 0);
    assert_true(ra.m[SIM_M_DELIVERIES].mean == rb.m[SIM_M_DELIVERIES].mean);
    sim_result_free(&rb);
    /* monotone: at 0.3 every reply lost at 0.2 is lost again */
    tb_delivery(&b)->lose_reply = 0.3;
    tb_handler(&b)->idempotency = SIM_IDEM_NONE;
    rb = run_traced(&b);
    for (size_t i = 0; i < ra.n_trace; i++)
        if (ra.trace[i].kind == SIM_TR_LOST_REPLY && ra.trace[i].detail == 1)
            assert_true(has_entry(&rb, SIM_TR_LOST_REPLY, ra.trace[i].job, 1));
    sim_result_free(&ra);
    sim_result_free(&rb);
}

/* ------------------------------------------------------------ paired differences */

/* The same board with and without the ID check on the same streams: the
 * paired difference of a timing measure is far tighter than either
 * board's own interval, and a measure common random numbers make equal
 * differs by exactly 0. */
static void paired_differences_are_tight(void **state)
{
    (void)state;
    tb_board a, b;
    lossy_pair(&a, &b, 400, 20, 11);
    sim_result ra = run(&a), rb = run(&b);
    sim_stat d[SIM_M_COUNT];
    assert_int_equal(sim_compare(&ra, &rb, d), 0);
    /* b - a, replication by replication, against the stored values */
    for (int m = 0; m < SIM_M_COUNT; m++) {
        double v[20];
        for (int r = 0; r < 20; r++)
            v[r] = rb.values[r * SIM_M_COUNT + m] - ra.values[r * SIM_M_COUNT + m];
        sim_stat want = sim_stat_of(v, 20, 1);
        assert_memory_equal(&want, &d[m], sizeof want);
    }
    assert_true(d[SIM_M_DELIVERIES].mean == 0 && d[SIM_M_DELIVERIES].ci95 == 0);
    assert_true(d[SIM_M_DUPLICATES].mean == -ra.m[SIM_M_DUPLICATES].mean);
    double ct = d[SIM_M_COMPLETION_TIME].ci95;
    assert_true(ct > 0);
    if (!(ct * 3 < ra.m[SIM_M_COMPLETION_TIME].ci95 && ct * 3 < rb.m[SIM_M_COMPLETION_TIME].ci95))
        fail_msg("paired ci95 %g against %g and %g", ct, ra.m[SIM_M_COMPLETION_TIME].ci95,
                 rb.m[SIM_M_COMPLETION_TIME].ci95);
    /* results that do not pair */
    sim_result rc;
    b.b.seed = 12;
    rc = run(&b);
    assert_int_equal(sim_compare(&ra, &rc, d), -1);
    sim_result_free(&rc);
    b.b.seed = 11;
    b.b.replications = 19;
    rc = run(&b);
    assert_int_equal(sim_compare(&ra, &rc, d), -1);
    free(rc.values);
    rc.values = NULL;
    assert_int_equal(sim_compare(&rc, &rc, d), -1);
    sim_result_free(&rc);
    sim_result_free(&ra);
    sim_result_free(&rb);
}

/* ------------------------------------------------------------ replications until */

/* until 5%: the first 10, then one at a time until duplicates' half-width
 * is within 5% of their mean; the replications run are the same streams a
 * fixed count would run. An unreachable precision runs max and says so. */
static void replications_until_precise(void **state)
{
    (void)state;
    tb_board t;
    closed_board(&t, 200, 0.2, 5, 10, 3);
    t.b.goals[SIM_M_DUPLICATES] = (sim_goal){.has_max = true, .max = 0};
    t.b.until = 0.05;
    t.b.until_max = 200;
    sim_result r = run(&t);
    int n = r.replications;
    assert_true(n > 10 && n < 200);
    assert_true(r.until_met);
    const sim_stat *s = &r.m[SIM_M_DUPLICATES];
    assert_true(s->ci95 <= 0.05 * s->mean);
    /* one fewer was not precise enough */
    sim_stat before = sim_stat_of(&r.values[SIM_M_DUPLICATES], n - 1, SIM_M_COUNT);
    assert_true(before.ci95 > 0.05 * before.mean);
    /* the same numbers as replications: n */
    tb_board f;
    closed_board(&f, 200, 0.2, 5, n, 3);
    f.b.goals[SIM_M_DUPLICATES] = t.b.goals[SIM_M_DUPLICATES];
    sim_result fixed = run(&f);
    assert_int_equal(fixed.replications, n);
    assert_memory_equal(fixed.m, r.m, sizeof r.m);
    assert_memory_equal(fixed.values, r.values, (size_t)n * SIM_M_COUNT * sizeof *r.values);
    assert_false(fixed.until_met);
    sim_result_free(&fixed);
    sim_result_free(&r);
    /* out of reach: max replications, not met */
    t.b.until = 0.001;
    t.b.until_max = 15;
    r = run(&t);
    assert_int_equal(r.replications, 15);
    assert_false(r.until_met);
    sim_result_free(&r);
    /* a max above the limit is held to it */
    sim_limits lim = sim_limits_default();
    lim.max_replications = 12;
    char msg[256];
    assert_int_equal(sim_run(&t.b, &lim, false, &r, msg, sizeof msg), 0);
    assert_int_equal(r.replications, 12);
    sim_result_free(&r);
}

/* ------------------------------------------------------------ few samples, no randomness */

/* 30 jobs: nearest-rank p99 is the largest latency, and the result says
 * it came from 30 samples. A board without any random draw says it is
 * deterministic; one with a loss is not. */
static void percentiles_know_their_samples(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 30);
    tb_handler(&t)->work = (sim_latency){8000, 40000};
    t.b.replications = 3;
    sim_result r = run_traced(&t);
    assert_int_equal(r.latency_samples, 30);
    assert_false(r.deterministic);
    /* replication 0's p99 against its trace: the largest arrive-to-ack time */
    int64_t arrive[31] = {0}, worst = 0;
    for (size_t i = 0; i < r.n_trace; i++) {
        const sim_trace_entry *e = &r.trace[i];
        if (e->kind == SIM_TR_ARRIVE)
            arrive[e->job] = e->t_us;
        else if (e->kind == SIM_TR_ACKED && e->t_us - arrive[e->job] > worst)
            worst = e->t_us - arrive[e->job];
    }
    assert_true(r.values[SIM_M_LATENCY_P99] == (double)worst / 1e6); /* replication 0 */
    sim_result_free(&r);
    /* constant latencies, even arrivals, no loss: nothing random at all */
    tb_init(&t, TB_BROKER, 30);
    t.b.replications = 4;
    r = run(&t);
    assert_true(r.deterministic);
    assert_true(r.m[SIM_M_COMPLETION_TIME].ci95 == 0);
    assert_false(r.random_faults);
    sim_rate rt;
    assert_int_equal(sim_result_rate(&r, SIM_M_ERRORS, &rt), 0);
    assert_false(rt.preferred); /* exactly 0 on every seed: no interval to quote */
    sim_result_free(&r);
    /* the teaching board: job 2's first ack lost by script, work times
     * drawn: random, but its one duplicate is counted, not sampled */
    tb_init(&t, TB_BROKER, 6);
    static const int64_t lost[] = {2};
    tb_lose_reply_of(&t, lost, 1);
    tb_handler(&t)->work = (sim_latency){5000, 25000};
    r = run(&t);
    assert_false(r.deterministic);
    assert_false(r.random_faults);
    assert_int_equal(sim_result_rate(&r, SIM_M_DUPLICATES, &rt), 0);
    assert_int_equal(rt.count, 1);
    assert_false(rt.preferred);
    sim_result_free(&r);
    /* a chance of loss: the same count is a sample */
    tb_delivery(&t)->lose_reply = 0.01;
    r = run(&t);
    assert_true(r.random_faults);
    assert_int_equal(sim_result_rate(&r, SIM_M_DUPLICATES, &rt), 0);
    assert_true(rt.preferred);
    sim_result_free(&r);
    /* a job that never succeeds leaves its replication without samples */
    tb_init(&t, TB_BROKER, 5);
    tb_delivery(&t)->lose_request = 1;
    tb_sender(&t)->tries = 1;
    r = run(&t);
    assert_int_equal(r.latency_samples, 0);
    assert_true(r.m[SIM_M_LATENCY_P99].mean == 0);
    sim_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_against_reference),
        cmocka_unit_test(rate_kinds),
        cmocka_unit_test(intervals_cover_the_truth),
        cmocka_unit_test(boards_share_their_draws),
        cmocka_unit_test(paired_differences_are_tight),
        cmocka_unit_test(replications_until_precise),
        cmocka_unit_test(percentiles_know_their_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_stats.c — replications folded into a result: mean, min, max,
 * ci95, percentiles, goals on the worst replication, expect, limits. */
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

static void t_quantiles(void **state)
{
    (void)state;
    assert_true(fabs(sim_t975(1) - 12.706204736) < 1e-9);
    assert_true(fabs(sim_t975(4) - 2.776445105) < 1e-9);
    assert_true(fabs(sim_t975(30) - 2.042272456) < 1e-9);
    /* beyond the table: reference values of the t distribution */
    assert_true(fabs(sim_t975(40) - 2.021075390) < 1e-7);
    assert_true(fabs(sim_t975(120) - 1.979930405) < 1e-7);
    assert_true(fabs(sim_t975(999) - 1.962341461) < 1e-7);
}

/* {10, 12, 14}: mean 12, s = 2, ci95 = t(0.975, 2) * 2 / sqrt(3)
 * = 4.302652730 * 1.154700538 = 4.968275... */
static void ci95_by_hand(void **state)
{
    (void)state;
    const double v[] = {10, 14, 12};
    sim_stat s = sim_stat_of(v, 3, 1);
    assert_true(s.mean == 12);
    assert_true(s.min == 10);
    assert_true(s.max == 14);
    assert_true(fabs(s.ci95 - 4.968275) < 1e-6);

    const double one[] = {7.5};
    s = sim_stat_of(one, 1, 1);
    assert_true(s.mean == 7.5 && s.min == 7.5 && s.max == 7.5 && s.ci95 == 0);

    const double same[] = {0.1, 0.1, 0.1};
    s = sim_stat_of(same, 3, 1);
    assert_true(s.mean == 0.1 && s.ci95 == 0);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void nearest_rank_percentiles(void **state)
{
    (void)state;
    int64_t v[] = {50, 10, 40, 20, 30};
    assert_int_equal(sim_percentile(v, 5, 50), 30); /* rank 3 */
    assert_int_equal(sim_percentile(v, 5, 99), 50); /* rank 5 */
    assert_int_equal(sim_percentile(v, 5, 1), 10);  /* rank 1 */
    assert_int_equal(sim_percentile(v, 5, 20), 10); /* rank 1 */
    assert_int_equal(sim_percentile(v, 5, 21), 20); /* rank 2 */
    int64_t one[] = {9};
    assert_int_equal(sim_percentile(one, 1, 99), 9);
    int64_t flat[1000];
    for (int i = 0; i < 1000; i++)
        flat[i] = 7;
    assert_int_equal(sim_percentile(flat, 1000, 50), 7);

    /* against a sort, with many repeated values */
    size_t n = 10001;
    int64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    uint64_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (int64_t)(x >> 54); /* 0..1023 */
    }
    memcpy(b, a, n * sizeof *a);
    qsort(b, n, sizeof *b, cmp64);
    const int pcts[] = {1, 50, 90, 99, 100};
    for (int k = 0; k < 5; k++) {
        size_t rank = ((size_t)pcts[k] * n + 99) / 100;
        int64_t *c = malloc(n * sizeof *c);
        assert_non_null(c);
        memcpy(c, a, n * sizeof *a);
        assert_int_equal(sim_percentile(c, n, pcts[k]), b[rank - 1]);
        free(c);
    }
    /* both at once, the second search above the first: every size from 1
     * (p50 and p99 the same value) to beyond 100, and the big array */
    for (size_t m = 1; m <= n; m = m < 300 ? m + 1 : m * 3 + 1) {
        size_t len = m < n ? m : n;
        int64_t *c = malloc(len * sizeof *c), *sorted = malloc(len * sizeof *sorted);
        assert_non_null(c);
        assert_non_null(sorted);
        memcpy(c, a, len * sizeof *a);
        memcpy(sorted, a, len * sizeof *a);
        qsort(sorted, len, sizeof *sorted, cmp64);
        int64_t p50, p99;
        sim_p50_p99(c, len, &p50, &p99);
        assert_int_equal(p50, sorted[(50 * len + 99) / 100 - 1]);
        assert_int_equal(p99, sorted[(99 * len + 99) / 100 - 1]);
        if (len < 100)
            assert_int_equal(p99, sorted[len - 1]); /* the largest */
        free(c);
        free(sorted);
    }
    free(a);
    free(b);
}

static void goal_judged_on_worst(void **state)
{
    (void)state;
    sim_stat s = {.mean = 2, .min = 0, .max = 5, .ci95 = 1};
    sim_goal gmax = {.has_max = true, .max = 3};
    sim_goal_result r = sim_goal_judge(&gmax, &s);
    assert_true(r.present);
    assert_false(r.pass); /* the mean meets it; the worst does not */
    assert_true(r.worst == 5);
    gmax.max = 5;
    r = sim_goal_judge(&gmax, &s);
    assert_true(r.pass);
    assert_true(r.worst == 5);

    sim_goal gmin = {.has_min = true, .min = 1};
    r = sim_goal_judge(&gmin, &s);
    assert_false(r.pass);
    assert_true(r.worst == 0);
    gmin.min = 0;
    assert_true(sim_goal_judge(&gmin, &s).pass);

    sim_goal both = {.has_max = true, .max = 9, .has_min = true, .min = 1};
    r = sim_goal_judge(&both, &s);
    assert_false(r.pass);
    assert_true(r.worst == 0);

    sim_goal none = {0};
    r = sim_goal_judge(&none, &s);
    assert_false(r.present);
    assert_true(r.pass);
}

/* A lost-ack board over several replications: the spread is real, the
 * goal fails on the worst replication, and expect follows. */
static void run_replications_goals_and_expect(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 200);
    tb_delivery(&t)->lose_reply = 0.2;
    t.b.replications = 5;
    t.b.seed = 7;
    t.b.goals[SIM_M_DUPLICATES] = (sim_goal){.has_max = true, .max = 0};
    t.b.goals[SIM_M_JOBS] = (sim_goal){.has_min = true, .min = 200};
    t.b.expect = SIM_EXPECT_FAIL;
    sim_limits lim = sim_limits_default();
    sim_result res;
    char msg[256];
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), 0);
    assert_int_equal(res.replications, 5);
    assert_null(res.trace);

    /* each replication is one run on its stream of seed 7 */
    double dup[5], sum = 0, lo = 1e18, hi = -1;
    for (int r = 0; r < 5; r++) {
        dup[r] = (double)tb_counts_rep(&t, 7, r).duplicates;
        sum += dup[r];
        lo = dup[r] < lo ? dup[r] : lo;
        hi = dup[r] > hi ? dup[r] : hi;
    }
    sim_stat d = res.m[SIM_M_DUPLICATES];
    assert_true(fabs(d.mean - sum / 5) < 1e-9);
    assert_true(d.min == lo && d.max == hi);
    assert_true(d.max > d.min);
    sim_stat expect = sim_stat_of(dup, 5, 1);
    assert_true(fabs(d.ci95 - expect.ci95) < 1e-12);
    assert_true(d.ci95 > 0);

    assert_true(res.m[SIM_M_JOBS].mean == 200 && res.m[SIM_M_JOBS].ci95 == 0);
    assert_true(res.goals[SIM_M_DUPLICATES].present);
    assert_false(res.goals[SIM_M_DUPLICATES].pass);
    assert_true(res.goals[SIM_M_DUPLICATES].worst == hi);
    assert_true(res.goals[SIM_M_JOBS].pass);
    assert_false(res.goals[SIM_M_ERRORS].present);
    assert_false(res.all_goals_pass);
    assert_true(res.expect_ok); /* expected to fail, and it does */
    sim_result_free(&res);

    t.b.expect = SIM_EXPECT_PASS;
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), 0);
    assert_false(res.expect_ok);
    sim_result_free(&res);
    t.b.expect = SIM_EXPECT_NONE;
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), 0);
    assert_true(res.expect_ok);
    sim_result_free(&res);

    /* with the ID check every goal passes */
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    t.b.expect = SIM_EXPECT_PASS;
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), 0);
    assert_true(res.all_goals_pass);
    assert_true(res.expect_ok);
    sim_result_free(&res);
    t.b.expect = SIM_EXPECT_FAIL;
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), 0);
    assert_false(res.expect_ok);
    sim_result_free(&res);
}

/* The measures in their units, on the deterministic teaching board. */
static void measure_units(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 5);
    static const int64_t lost[] = {3};
    tb_lose_reply_of(&t, lost, 1);
    tb_sender(&t)->tries = 1; /* job 3 is an error */
    sim_result res;
    char msg[256];
    assert_int_equal(sim_run(&t.b, NULL, false, &res, msg, sizeof msg), 0);
    assert_true(res.m[SIM_M_JOBS].mean == 5);
    assert_true(res.m[SIM_M_ERRORS].mean == 1);
    assert_true(res.m[SIM_M_ERROR_RATE].mean == 0.2);
    assert_true(res.m[SIM_M_EFFECTS].mean == 5);
    assert_true(res.m[SIM_M_LOST_WRITES].mean == 0);
    /* job 5 arrives at 40 ms and is acked at 54 ms; job 3 gives up at
     * 21 ms + 1 s */
    assert_true(fabs(res.m[SIM_M_COMPLETION_TIME].mean - 1.021) < 1e-12);
    assert_true(fabs(res.m[SIM_M_LATENCY_P50].mean - 0.014) < 1e-12);
    assert_true(fabs(res.m[SIM_M_LATENCY_P99].mean - 0.014) < 1e-12);
    /* broker 1 vCPU + 1 GB, consumer 2 + 2, at 5 and 1 USD */
    assert_true(res.m[SIM_M_MONTHLY_COST].mean == 18);
    assert_true(res.m[SIM_M_EVENTS].mean > 20);
    sim_result_free(&res);
}

static void monthly_cost_excludes_external_parts(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER | TB_DATABASE, 5);
    t.parts[t.database].vcpu = 1;
    t.parts[t.database].fixed_usd_month = 3.5;
    /* broker 5 + 1, consumer 10 + 2, database 5 + 3.5; provider external */
    assert_true(sim_monthly_cost(&t.b) == 26.5);
    t.parts[t.provider].external = false;
    assert_true(sim_monthly_cost(&t.b) == 66.5);
}

static void event_limit_stops_the_run(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1000);
    sim_limits lim = sim_limits_default();
    lim.max_events = 100;
    sim_result res;
    char msg[256];
    assert_int_equal(sim_run(&t.b, &lim, true, &res, msg, sizeof msg), SIM_ERR_EVENTS);
    assert_string_equal(msg,
                        "the board needs more than 100 events in one run; lower jobs or tries");
    assert_null(res.trace);
    sim_result_free(&res);

    lim = sim_limits_default(); /* the budget of all runs together */
    t.b.replications = 10;
    sim_counts one;
    char m1[64];
    assert_int_equal(sim_run_counts(&t.b, &lim, t.b.seed, 0, NULL, &one, m1, sizeof m1), 0);
    lim.max_board_events = one.events * 5 / 2; /* enough for two runs, not three */
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), SIM_ERR_BOARD_EVENTS);
    char want[200];
    snprintf(want, sizeof want,
             "the board needs more than %lld events across its 10 runs; lower jobs, tries or "
             "replications",
             (long long)lim.max_board_events);
    assert_string_equal(msg, want);
    sim_result_free(&res);
    t.b.replications = 1;

    lim = sim_limits_default(); /* a bad board gives the check's sentence */
    t.b.traffic.jobs = 0;
    assert_int_equal(sim_run(&t.b, &lim, false, &res, msg, sizeof msg), SIM_ERR_BOARD);
    assert_string_equal(msg, "traffic.jobs must be at least 1");
}

static void default_limits(void **state)
{
    (void)state;
    sim_limits l = sim_limits_default();
    assert_int_equal(l.max_jobs, 10000000);
    assert_int_equal(l.max_events, 200000000);
    assert_int_equal(l.max_board_events, 400000000);
    assert_int_equal(l.max_replications, 1000);
    assert_int_equal(l.max_trace, 20000);
    sim_result_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_quantiles),
        cmocka_unit_test(ci95_by_hand),
        cmocka_unit_test(nearest_rank_percentiles),
        cmocka_unit_test(goal_judged_on_worst),
        cmocka_unit_test(run_replications_goals_and_expect),
        cmocka_unit_test(measure_units),
        cmocka_unit_test(monthly_cost_excludes_external_parts),
        cmocka_unit_test(event_limit_stops_the_run),
        cmocka_unit_test(default_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

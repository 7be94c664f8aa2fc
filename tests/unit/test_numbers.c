/* test_numbers.c — how rare counts, their intervals, paired differences
 * and a p99 of few jobs read on a page (render/numbers.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "render/render_internal.h"
#include "gen_testlib.h"

#include <stdlib.h>
#include <string.h>

static void want(buf *b, const char *text)
{
    if (!b->data || strcmp(b->data, text) != 0)
        fail_msg("gave \"%s\", want \"%s\"", b->data ? b->data : "", text);
    buf_free(b);
    buf_init(b);
}

static void rate_phrases(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    /* none in 20 runs of 1,000 payments: the rule of three, 3 / 20,000 */
    sim_rate r = sim_rate_of(0, 20000, false);
    numbers_rate(&b, &r, "payments");
    want(&b, "0 in 20,000 payments (at most 1.5 per 10,000 at 95\xc2\xa0%)");
    r = sim_rate_of(0, 10000, true);
    numbers_rate(&b, &r, "readings");
    want(&b, "0 in 10,000 readings (at most 3 per 10,000 at 95\xc2\xa0%)");
    /* Clopper–Pearson for 12 in 10,000: 0.000620 to 0.002096 */
    r = sim_rate_of(12, 10000, true);
    numbers_rate(&b, &r, "payments");
    want(&b, "12 in 10,000 payments (0.62 to 2.1 per 1,000 at 95\xc2\xa0%)");
    /* a common count moves to a larger unit */
    r = sim_rate_of(300, 1000, false);
    numbers_rate(&b, &r, "payments");
    want(&b, "300 in 1,000 payments (27 to 34 per 100 at 95\xc2\xa0%)");
    /* one in a million: per 1,000,000 or finer */
    r = sim_rate_of(0, 2000000, false);
    numbers_rate(&b, &r, "payments");
    want(&b, "0 in 2,000,000 payments (at most 1.5 per 1,000,000 at 95\xc2\xa0%)");
}

static void diffs(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    sim_stat d = {.mean = -104.7, .min = -115, .max = -96, .ci95 = 4.4};
    numbers_diff(&b, SIM_M_DUPLICATES, &d);
    want(&b, "−104.7 ± 4.4");
    d = (sim_stat){.mean = 1, .min = 1, .max = 1, .ci95 = 0};
    numbers_diff(&b, SIM_M_DUPLICATES, &d);
    want(&b, "+1 in every run");
    d = (sim_stat){.mean = 0.25, .min = 0.1, .max = 0.4, .ci95 = 0.05};
    numbers_diff(&b, SIM_M_COMPLETION_TIME, &d);
    want(&b, "+250 ms ± 50 ms");
    d = (sim_stat){0};
    numbers_diff(&b, SIM_M_LOST_WRITES, &d);
    want(&b, "0 in every run");
}

/* A board result of reps runs of jobs jobs, duplicates per run given. */
static void fake(bp_variant *sb, bp_board *bd, const double *dups, int reps, double jobs,
                 bool random_faults, uint64_t seed)
{
    memset(sb, 0, sizeof *sb);
    memset(bd, 0, sizeof *bd);
    bd->id = "b";
    sb->board = bd;
    sim_result *r = &sb->result;
    r->replications = reps;
    r->seed = seed;
    r->random_faults = random_faults;
    r->latency_samples = (int64_t)jobs;
    r->values = calloc((size_t)reps * SIM_M_COUNT, sizeof *r->values);
    sim_stat st = {.min = dups[0], .max = dups[0]};
    for (int i = 0; i < reps; i++) {
        r->values[(size_t)i * SIM_M_COUNT + SIM_M_JOBS] = jobs;
        r->values[(size_t)i * SIM_M_COUNT + SIM_M_DUPLICATES] = dups[i];
        st.mean += dups[i] / reps;
        st.min = dups[i] < st.min ? dups[i] : st.min;
        st.max = dups[i] > st.max ? dups[i] : st.max;
    }
    st.ci95 = st.min == st.max ? 0 : 1; /* only whether it is 0 matters here */
    r->m[SIM_M_JOBS] = (sim_stat){.mean = jobs, .min = jobs, .max = jobs};
    r->m[SIM_M_DUPLICATES] = st;
}

static void ci_of_rare_counts(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    bp_variant sb;
    bp_board bd;
    double zero[20] = {0};
    fake(&sb, &bd, zero, 20, 1000, true, 7);
    /* the t interval would say "0 ± 0" */
    numbers_ci(&b, &sb, SIM_M_DUPLICATES);
    want(&b, "0 (at most 0.15 at 95\xc2\xa0%)");
    free(sb.result.values);

    /* 3 duplicates in 20 runs: Garwood on 3 events, per run of 1,000 */
    double few[20] = {1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
    fake(&sb, &bd, few, 20, 1000, true, 7);
    numbers_ci(&b, &sb, SIM_M_DUPLICATES);
    want(&b, "0.15 (0.031 to 0.44 at 95\xc2\xa0%)");
    free(sb.result.values);

    /* scripted faults (counted, not drawn): the t interval stands */
    fake(&sb, &bd, zero, 20, 1000, false, 7);
    numbers_ci(&b, &sb, SIM_M_DUPLICATES);
    want(&b, "0 ± 0");
    free(sb.result.values);

    /* a common count keeps mean ± half-width */
    double many[20];
    for (int i = 0; i < 20; i++)
        many[i] = 100 + (i % 5);
    fake(&sb, &bd, many, 20, 1000, true, 7);
    numbers_ci(&b, &sb, SIM_M_DUPLICATES);
    if (!strstr(b.data, " ± ") || strstr(b.data, "at 95"))
        fail_msg("a common count gave \"%s\"", b.data);
    buf_free(&b);
    free(sb.result.values);
}

static void pairs_and_p99(void **state)
{
    (void)state;
    bp_variant a, c;
    bp_board ba, bc;
    double x[4] = {10, 12, 11, 9}, y[4] = {2, 3, 2, 1};
    fake(&a, &ba, x, 4, 50, true, 7);
    fake(&c, &bc, y, 4, 50, true, 7);
    ba.id = "a";
    bc.id = "c";
    sim_stat d[SIM_M_COUNT];
    char why[512];
    assert_int_equal(numbers_pair(&a, &c, d, why, sizeof why), 0);
    assert_true(d[SIM_M_DUPLICATES].mean == -8.5);
    assert_true(d[SIM_M_DUPLICATES].min == -9 && d[SIM_M_DUPLICATES].max == -8);
    c.result.seed = 8;
    assert_int_equal(numbers_pair(&a, &c, d, why, sizeof why), -1);
    assert_non_null(strstr(why, "different random streams"));
    c.result.seed = 7;
    c.result.replications = 3;
    assert_int_equal(numbers_pair(&a, &c, d, why, sizeof why), -1);
    assert_non_null(strstr(why, "different numbers of runs"));

    buf b;
    buf_init(&b);
    numbers_p99_note(&b, &a, SIM_M_LATENCY_P99); /* 50 jobs: the largest */
    want(&b, " (the slowest of 50 payments)");
    numbers_p99_note(&b, &a, SIM_M_LATENCY_P50);
    assert_null(b.data && b.len ? b.data : NULL);
    a.result.latency_samples = 100;
    numbers_p99_note(&b, &a, SIM_M_LATENCY_P99);
    assert_true(b.len == 0);
    buf_free(&b);
    free(a.result.values);
    free(c.result.values);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rate_phrases),
        cmocka_unit_test(diffs),
        cmocka_unit_test(ci_of_rare_counts),
        cmocka_unit_test(pairs_and_p99),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

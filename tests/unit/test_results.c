/* test_results.c — the rates run/results.c remembers (results_rate): the
 * same answer as sim_result_rate's, field for field, asked once or again,
 * for a per-job and a Poisson count of the same numbers, past the table's
 * fill, and from several threads at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/results.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A result of reps replications of jobs jobs each, whose measure m counts
 * count in all (in the first replication; 0 in the others). */
static sim_result result_of(int reps, int64_t jobs, sim_measure m, int64_t count)
{
    sim_result r;
    memset(&r, 0, sizeof r);
    r.replications = reps;
    r.random_faults = true;
    r.m[SIM_M_JOBS].mean = (double)jobs;
    r.m[m].min = 0;
    r.m[m].max = (double)count;
    r.values = calloc((size_t)reps * SIM_M_COUNT, sizeof *r.values);
    assert_non_null(r.values);
    r.values[m] = (double)count;
    return r;
}

static void same_rate(const sim_result *r, sim_measure m)
{
    sim_rate want, got;
    assert_int_equal(sim_result_rate(r, m, &want), 0);
    for (int again = 0; again < 2; again++) {
        memset(&got, 0xa5, sizeof got);
        assert_int_equal(results_rate(r, m, &got), 0);
        assert_true(got.count == want.count && got.trials == want.trials);
        assert_true(got.rate == want.rate && got.lo == want.lo && got.hi == want.hi);
        assert_true(got.one_sided == want.one_sided && got.preferred == want.preferred);
    }
}

/* The counts 0 to 40 of 100 to 700 jobs, as errors (per job) and as
 * duplicates (Poisson): the same numbers, other intervals. */
static void rates_as_worked_out(void **state)
{
    (void)state;
    for (int64_t jobs = 100; jobs <= 700; jobs += 200)
        for (int64_t count = 0; count <= 40; count++) {
            sim_measure ms[2] = {SIM_M_ERRORS, SIM_M_DUPLICATES};
            for (int k = 0; k < 2; k++) {
                sim_result r = result_of(5, jobs, ms[k], count);
                same_rate(&r, ms[k]);
                sim_result_free(&r);
            }
        }
    /* not a fault count, or no values kept: -1, as sim_result_rate */
    sim_result r = result_of(1, 10, SIM_M_DUPLICATES, 1);
    sim_rate rt;
    assert_int_equal(results_rate(&r, SIM_M_DELIVERIES, &rt), -1);
    free(r.values);
    r.values = NULL;
    assert_int_equal(results_rate(&r, SIM_M_DUPLICATES, &rt), -1);
}

/* More distinct counts than the table keeps: the rest still right. */
static void more_rates_than_kept(void **state)
{
    (void)state;
    for (int64_t count = 1; count <= 2600; count++) {
        sim_result r = result_of(1, 1000000, SIM_M_DUPLICATES, count);
        same_rate(&r, SIM_M_DUPLICATES);
        sim_result_free(&r);
    }
}

static void *ask_rates(void *arg)
{
    int64_t jobs = *(const int64_t *)arg;
    for (int64_t count = 1; count <= 60; count++) {
        sim_result r = result_of(2, jobs, SIM_M_LOST_WRITES, count);
        same_rate(&r, SIM_M_LOST_WRITES);
        sim_result_free(&r);
    }
    return NULL;
}

/* Four threads asking for the same new counts at once. */
static void rates_from_threads(void **state)
{
    (void)state;
    pthread_t t[4];
    int64_t jobs = 4321;
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, ask_rates, &jobs), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_as_worked_out),
        cmocka_unit_test(more_rates_than_kept),
        cmocka_unit_test(rates_from_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_rng.c — the random stream and its distributions: reproducible,
 * seed-sensitive, and with the moments and quantiles they are built for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rng.h"
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>

static void same_seed_same_stream(void **state)
{
    (void)state;
    sim_rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        assert_true(rng_next(&a) == rng_next(&b));
    /* and the distributions draw from it identically */
    for (int i = 0; i < 1000; i++)
        assert_true(rng_normal(&a) == rng_normal(&b));
}

static void different_seeds_differ(void **state)
{
    (void)state;
    sim_rng a, b;
    for (uint64_t s = 0; s < 50; s++) {
        rng_seed(&a, s);
        rng_seed(&b, s + 1);
        int same = 0;
        for (int i = 0; i < 100; i++)
            same += rng_next(&a) == rng_next(&b);
        assert_int_equal(same, 0);
    }
}

/* The stream is fixed forever: results on every machine depend on it.
 * Reference values computed independently (Python) from the published
 * splitmix64 and xoshiro256** definitions. */
static void stream_is_pinned(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 1);
    assert_true(r.s[0] == 0x910a2dec89025cc1ULL);
    assert_true(r.s[1] == 0xbeeb8da1658eec67ULL);
    assert_true(r.s[2] == 0xf893a2eefb32555eULL);
    assert_true(r.s[3] == 0x71c18690ee42c90bULL);
    assert_true(rng_next(&r) == 0xb3f2af6d0fc710c5ULL);
    assert_true(rng_next(&r) == 0x853b559647364ceaULL);
    assert_true(rng_next(&r) == 0x92f89756082a4514ULL);
}

static void uniform_range_and_mean(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 3);
    double sum = 0;
    int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = rng_uniform(&r);
        assert_true(u >= 0 && u < 1);
        sum += u;
    }
    /* mean 1/2, sd of the mean sqrt(1/12/n) = 0.00065 */
    assert_true(fabs(sum / n - 0.5) < 5 * 0.00065);
}

static void below_is_uniform(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 4);
    int counts[7] = {0};
    int n = 70000;
    for (int i = 0; i < n; i++) {
        uint64_t x = rng_below(&r, 7);
        assert_true(x < 7);
        counts[x]++;
    }
    for (int k = 0; k < 7; k++) /* 10000 each, sd 93 */
        assert_in_range(counts[k], 10000 - 5 * 93, 10000 + 5 * 93);
    assert_true(rng_below(&r, 1) == 0);
}

static void exponential_mean(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 5);
    int n = 200000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double x = rng_exponential(&r, 250.0);
        assert_true(x >= 0);
        sum += x;
    }
    /* sd of the mean = 250 / sqrt(n) = 0.56 */
    assert_true(fabs(sum / n - 250.0) < 5 * 0.56);
    assert_true(rng_exponential(&r, 0) == 0);
}

static void normal_moments(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 6);
    int n = 200000;
    double s1 = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double z = rng_normal(&r);
        s1 += z;
        s2 += z * z;
    }
    double mean = s1 / n, var = s2 / n - mean * mean;
    assert_true(fabs(mean) < 5 / sqrt(n));
    assert_true(fabs(var - 1) < 5 * sqrt(2.0 / n));
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Log-normal from a median and a p99: the sample quantiles land on them. */
static void lognormal_median_and_p99(void **state)
{
    (void)state;
    const sim_latency cases[] = {{150000, 600000}, {10000, 11000}, {2000, 200000}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sim_dist d;
        dist_init(&d, cases[c]);
        sim_rng r;
        rng_seed(&r, 7 + c);
        size_t n = 100000;
        int64_t *v = malloc(n * sizeof *v);
        assert_non_null(v);
        for (size_t i = 0; i < n; i++)
            v[i] = dist_draw(&d, &r);
        qsort(v, n, sizeof *v, cmp64);
        double med = (double)v[n / 2], p99 = (double)v[n * 99 / 100];
        /* the quantiles' relative sampling error is about sigma * 1.25/sqrt(n)
         * at the median and sigma * 3.8/sqrt(n) at p99: well under 3% */
        assert_true(fabs(med / (double)cases[c].median_us - 1) < 0.03);
        assert_true(fabs(p99 / (double)cases[c].p99_us - 1) < 0.06);
        free(v);
    }
}

static void constant_latency_draws_nothing(void **state)
{
    (void)state;
    sim_dist d;
    dist_init(&d, (sim_latency){150000, 150000});
    sim_rng r, before;
    rng_seed(&r, 9);
    before = r;
    for (int i = 0; i < 10; i++)
        assert_int_equal(dist_draw(&d, &r), 150000);
    assert_memory_equal(&r, &before, sizeof r);
    dist_init(&d, (sim_latency){0, 0});
    assert_int_equal(dist_draw(&d, &r), 0);
}

static void bernoulli_rate(void **state)
{
    (void)state;
    sim_rng r, before;
    rng_seed(&r, 10);
    int n = 100000, hits = 0;
    for (int i = 0; i < n; i++)
        hits += rng_bernoulli(&r, 0.2);
    assert_in_range(hits, 20000 - 5 * 126, 20000 + 5 * 126);
    before = r;
    assert_false(rng_bernoulli(&r, 0));
    assert_true(rng_bernoulli(&r, 1));
    assert_memory_equal(&r, &before, sizeof r); /* 0 and 1 draw nothing */
}

/* Our exp and log agree with the C library to a few ulp. */
static void own_exp_and_log_are_accurate(void **state)
{
    (void)state;
    sim_rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 100000; i++) {
        double x = sim_exp((rng_uniform(&r) - 0.5) * 80); /* e^-40 .. e^40 */
        double l = sim_log(x), ref = log(x);
        assert_true(fabs(l - ref) <= 4e-16 * fmax(1, fabs(ref)));
        double y = (rng_uniform(&r) - 0.5) * 1400;
        double e = sim_exp(y), eref = exp(y);
        assert_true(fabs(e - eref) <= 4e-16 * eref);
    }
    assert_true(sim_log(1.0) == 0.0);
    assert_true(sim_exp(0.0) == 1.0);
    assert_true(fabs(sim_log(2.0) - 0.69314718055994530942) < 1e-16);
    assert_true(sim_exp(1000) == HUGE_VAL);
    assert_true(sim_exp(-1000) == 0);
    assert_true(sim_log(0) == -HUGE_VAL);
    /* the edges: subnormal inputs and results */
    const double tiny[] = {5e-324, 1e-310, 2.2250738585072014e-308, 1e300};
    for (int i = 0; i < 4; i++)
        assert_true(fabs(sim_log(tiny[i]) - log(tiny[i])) <= 4e-16 * fabs(log(tiny[i])));
    assert_true(fabs(sim_exp(-740) - exp(-740)) <= 1e-3 * exp(-740));
    assert_true(fabs(sim_exp(709) - exp(709)) <= 4e-16 * exp(709));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_stream),
        cmocka_unit_test(different_seeds_differ),
        cmocka_unit_test(stream_is_pinned),
        cmocka_unit_test(uniform_range_and_mean),
        cmocka_unit_test(below_is_uniform),
        cmocka_unit_test(exponential_mean),
        cmocka_unit_test(normal_moments),
        cmocka_unit_test(lognormal_median_and_p99),
        cmocka_unit_test(constant_latency_draws_nothing),
        cmocka_unit_test(bernoulli_rate),
        cmocka_unit_test(own_exp_and_log_are_accurate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_rng.c — the counter-based stream and its distributions:
 * reproducible, pinned to published definitions, streams of distinct
 * seeds and replications that share nothing, draws at neighbouring
 * coordinates that are uncorrelated, and distributions with the moments
 * and quantiles they are built for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rng.h"
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The stream is fixed forever: results on every machine depend on it.
 * Reference values computed independently (Python) from the definitions
 * in MODEL.md; rng_mix is SplitMix64's output function, whose published
 * first output for seed 1234567 is 6457827717110365317. */
static void stream_is_pinned(void **state)
{
    (void)state;
    assert_true(rng_mix(1234567 + RNG_GAMMA) == 6457827717110365317ULL);
    uint64_t k = rng_stream_key(1, 0);
    assert_true(k == 0xe217e7ac4d85e060ULL);
    assert_true(rng_stream_key(1, 1) == 0x62e921f36838dacaULL);
    uint64_t s = rng_site(k, 7);
    assert_true(s == 0x82357d17c977877bULL);
    assert_true(rng_bits(s, 3, 0) == 0xe8940fae28f33b08ULL);
    assert_true(rng_bits(s, 3, 1) == 0xb93eff7b82e8e326ULL);
    assert_true(rng_bits(s, 21, 0) == 0x1e4e56587ef0ee68ULL);
    /* the same coordinates give the same numbers, whatever was drawn before */
    assert_true(rng_uniform(k, 7, 3) == rng_uniform(k, 7, 3));
    assert_true(rng_uniform(k, 7, 3) == (double)(0xe8940fae28f33b08ULL >> 11) * 0x1.0p-53);
}

/* Issue 19: replication r used to run on seed + r, so boards with seeds 41
 * and 43 shared 18 of 20 streams. Every (seed, replication) pair of the
 * first 1000 seeds and 1000 replications now has its own key. */
static void distinct_seeds_share_no_stream(void **state)
{
    (void)state;
    size_t n = 1000 * 1000, i = 0;
    uint64_t *keys = malloc(n * sizeof *keys);
    assert_non_null(keys);
    for (uint64_t seed = 0; seed < 1000; seed++)
        for (uint64_t r = 0; r < 1000; r++)
            keys[i++] = rng_stream_key(seed, r);
    qsort(keys, n, sizeof *keys, cmp_u64);
    for (i = 1; i < n; i++)
        assert_true(keys[i] != keys[i - 1]);
    free(keys);
    /* and a seed near UINT64_MAX does not wrap onto seed 0 */
    for (uint64_t r = 0; r < 1000; r++)
        for (uint64_t q = 0; q < 4; q++)
            assert_true(rng_stream_key(UINT64_MAX - q, r) != rng_stream_key(0, r));
    /* the example: no draw of seed 41's 20 replications appears
     * among seed 43's (the first 200 jobs' arrival draws of each) */
    size_t m = 20 * 200;
    uint64_t *a = malloc(m * sizeof *a);
    assert_non_null(a);
    i = 0;
    for (uint64_t r = 0; r < 20; r++)
        for (uint64_t job = 0; job < 200; job++)
            a[i++] = rng_bits(rng_site(rng_stream_key(41, r), job), 0, 0);
    qsort(a, m, sizeof *a, cmp_u64);
    for (uint64_t r = 0; r < 20; r++)
        for (uint64_t job = 0; job < 200; job++) {
            uint64_t x = rng_bits(rng_site(rng_stream_key(43, r), job), 0, 0);
            assert_null(bsearch(&x, a, m, sizeof *a, cmp_u64));
        }
    free(a);
}

/* Pearson correlation of n pairs. */
static double correlation(const double *x, const double *y, int n)
{
    double mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxy = 0, sxx = 0, syy = 0;
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxy / sqrt(sxx * syy);
}

/* Chi-square of pairs binned on a 10 x 10 grid (99 degrees of freedom:
 * mean 99, sd 14; 170 is beyond the 1e-6 tail). */
static double grid_chi2(const double *x, const double *y, int n)
{
    int cells[100] = {0};
    for (int i = 0; i < n; i++)
        cells[(int)(x[i] * 10) * 10 + (int)(y[i] * 10)]++;
    double e = n / 100.0, chi2 = 0;
    for (int c = 0; c < 100; c++)
        chi2 += (cells[c] - e) * (cells[c] - e) / e;
    return chi2;
}

/* What the model puts side by side in its coordinates: neighbouring jobs,
 * a job's first and second try (high bits of who), two purposes at one
 * site, the same coordinates in neighbouring replications and seeds. Each
 * pair of draws is uncorrelated (|r| < 5 / sqrt(n)) and fills the unit
 * square evenly. */
static void neighbouring_coordinates_are_independent(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    uint64_t k = rng_stream_key(7, 0), k1 = rng_stream_key(7, 1), k8 = rng_stream_key(8, 0);
    for (int pair = 0; pair < 6; pair++) {
        for (uint32_t j = 0; j < N; j++) {
            uint64_t who = (uint64_t)j | (uint64_t)1 << 48; /* job j, copy 0, try 1 */
            x[j] = rng_uniform(k, who, 21);
            switch (pair) {
            case 0: /* the next job */
                y[j] = rng_uniform(k, who + 1, 21);
                break;
            case 1: /* the next try */
                y[j] = rng_uniform(k, who + ((uint64_t)1 << 48), 21);
                break;
            case 2: /* another purpose */
                y[j] = rng_uniform(k, who, 22);
                break;
            case 3: /* the next replication */
                y[j] = rng_uniform(k1, who, 21);
                break;
            case 4: /* the next seed */
                y[j] = rng_uniform(k8, who, 21);
                break;
            default: /* the next copy */
                y[j] = rng_uniform(k, who + ((uint64_t)1 << 32), 21);
                break;
            }
        }
        double r = correlation(x, y, N);
        if (fabs(r) > 5 / sqrt(N))
            fail_msg("pair %d: correlation %g", pair, r);
        double chi2 = grid_chi2(x, y, N);
        if (chi2 > 170)
            fail_msg("pair %d: chi-square %g on 99 degrees of freedom", pair, chi2);
    }
    free(x);
    free(y);
}

static void uniform_range_and_mean(void **state)
{
    (void)state;
    uint64_t k = rng_stream_key(3, 0);
    double sum = 0;
    int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = rng_uniform(k, (uint64_t)i, 5);
        assert_true(u >= 0 && u < 1);
        sum += u;
    }
    /* mean 1/2, sd of the mean sqrt(1/12/n) = 0.00065 */
    assert_true(fabs(sum / n - 0.5) < 5 * 0.00065);
}

static void below_is_uniform(void **state)
{
    (void)state;
    uint64_t k = rng_stream_key(4, 0);
    int counts[7] = {0};
    int n = 70000;
    for (int i = 0; i < n; i++) {
        uint64_t x = rng_below(k, (uint64_t)i, 2, 7);
        assert_true(x < 7);
        counts[x]++;
    }
    for (int c = 0; c < 7; c++) /* 10000 each, sd 93 */
        assert_in_range(counts[c], 10000 - 5 * 93, 10000 + 5 * 93);
    assert_true(rng_below(k, 0, 2, 1) == 0);
}

static void exponential_mean(void **state)
{
    (void)state;
    uint64_t k = rng_stream_key(5, 0);
    int n = 200000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double x = rng_exponential(k, (uint64_t)i, 0, 250.0);
        assert_true(x >= 0);
        sum += x;
    }
    /* sd of the mean = 250 / sqrt(n) = 0.56 */
    assert_true(fabs(sum / n - 250.0) < 5 * 0.56);
    assert_true(rng_exponential(k, 0, 0, 0) == 0);
}

/* The quantile against the standard normal's (scipy.stats.norm.ppf,
 * computed independently): within Acklam's 1.15e-9 relative error, from
 * the smallest u a draw can have (2^-54) to the largest. */
static void normal_quantile_against_reference(void **state)
{
    (void)state;
    const struct {
        double u, z;
    } ref[] = {
        {0x1.0p-54, -8.2923610758135968},    {1e-12, -7.0344838253011313},
        {1e-06, -4.7534243088228987},        {0.001, -3.0902323061678132},
        {0.02, -2.053748910631823},          {0.02425, -1.9729610513118849},
        {0.1, -1.2815515655446004},          {0.3, -0.52440051270804089},
        {0.7, 0.52440051270804067},          {0.975, 1.959963984540054},
        {0.99, 2.3263478740408408},          {0.999999, 4.7534243088170873},
        {1 - 0x1.0p-54, 8.2923610758135968},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        double z = sim_normal_quantile(ref[i].u);
        if (fabs(z - ref[i].z) > 1.15e-9 * fabs(ref[i].z))
            fail_msg("u %g: %.17g, expected %.17g", ref[i].u, z, ref[i].z);
    }
    assert_true(sim_normal_quantile(0.5) == 0);
    /* monotone: a larger uniform never gives a smaller normal */
    double prev = -HUGE_VAL;
    for (int i = 1; i < 100000; i++) {
        double z = sim_normal_quantile(i / 100000.0);
        assert_true(z >= prev);
        prev = z;
    }
}

static void normal_moments(void **state)
{
    (void)state;
    uint64_t k = rng_stream_key(6, 0);
    int n = 200000;
    double s1 = 0, s2 = 0, s4 = 0;
    for (int i = 0; i < n; i++) {
        double z = rng_normal(k, (uint64_t)i, 4);
        s1 += z;
        s2 += z * z;
        s4 += z * z * z * z;
    }
    double mean = s1 / n, var = s2 / n - mean * mean;
    assert_true(fabs(mean) < 5 / sqrt(n));
    assert_true(fabs(var - 1) < 5 * sqrt(2.0 / n));
    assert_true(fabs(s4 / n - 3) < 5 * sqrt(96.0 / n)); /* E z^4 = 3, var z^4 = 96 */
}

/* Log-normal from a median and a p99: the sample quantiles land on them. */
static void lognormal_median_and_p99(void **state)
{
    (void)state;
    const sim_latency cases[] = {{150000, 600000}, {10000, 11000}, {2000, 200000}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sim_dist d;
        dist_init(&d, cases[c]);
        uint64_t k = rng_stream_key(7 + c, 0);
        size_t n = 100000;
        int64_t *v = malloc(n * sizeof *v);
        assert_non_null(v);
        for (size_t i = 0; i < n; i++)
            v[i] = dist_draw(&d, k, i, 1);
        qsort(v, n, sizeof *v, cmp64);
        double med = (double)v[n / 2], p99 = (double)v[n * 99 / 100];
        /* the quantiles' relative sampling error is about sigma * 1.25/sqrt(n)
         * at the median and sigma * 3.8/sqrt(n) at p99: well under 3% */
        assert_true(fabs(med / (double)cases[c].median_us - 1) < 0.03);
        assert_true(fabs(p99 / (double)cases[c].p99_us - 1) < 0.06);
        free(v);
    }
}

/* Inversion keeps durations in step across boards: the same draw with a
 * larger median or p99 is never shorter. */
static void lognormal_draws_are_monotone_in_their_settings(void **state)
{
    (void)state;
    sim_dist slow, fast, wide;
    dist_init(&fast, (sim_latency){100000, 300000});
    dist_init(&slow, (sim_latency){200000, 600000});
    dist_init(&wide, (sim_latency){100000, 900000});
    uint64_t k = rng_stream_key(12, 0);
    for (uint64_t i = 0; i < 10000; i++) {
        int64_t f = dist_draw(&fast, k, i, 1);
        assert_true(dist_draw(&slow, k, i, 1) >= f);
        if (f >= 100000) /* above the median a wider spread is longer */
            assert_true(dist_draw(&wide, k, i, 1) >= f);
    }
}

static void constant_latency_is_constant(void **state)
{
    (void)state;
    sim_dist d;
    dist_init(&d, (sim_latency){150000, 150000});
    for (uint64_t i = 0; i < 10; i++)
        assert_int_equal(dist_draw(&d, 9, i, 1), 150000);
    dist_init(&d, (sim_latency){0, 0});
    assert_int_equal(dist_draw(&d, 9, 0, 1), 0);
}

/* Our exp and log agree with the C library to about an ulp (fdlibm's
 * algorithms are within 1 ulp of the correctly rounded value), also for
 * logarithms near 1, where the result is small. */
static void own_exp_and_log_are_accurate(void **state)
{
    (void)state;
    uint64_t k = rng_stream_key(11, 0);
    for (int i = 0; i < 100000; i++) {
        double x = sim_exp((rng_uniform(k, (uint64_t)i, 0) - 0.5) * 80); /* e^-40 .. e^40 */
        double l = sim_log(x), ref = log(x);
        assert_true(fabs(l - ref) <= 4e-16 * fmax(1, fabs(ref)));
        double near1 = 0.75 + rng_uniform(k, (uint64_t)i, 2) * 0.5; /* log in -0.29 .. 0.22 */
        double l1 = sim_log(near1), ref1 = log(near1);
        assert_true(fabs(l1 - ref1) <= 2.3e-16 * fabs(ref1));
        double y = (rng_uniform(k, (uint64_t)i, 1) - 0.5) * 1400;
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
        cmocka_unit_test(stream_is_pinned),
        cmocka_unit_test(distinct_seeds_share_no_stream),
        cmocka_unit_test(neighbouring_coordinates_are_independent),
        cmocka_unit_test(uniform_range_and_mean),
        cmocka_unit_test(below_is_uniform),
        cmocka_unit_test(exponential_mean),
        cmocka_unit_test(normal_quantile_against_reference),
        cmocka_unit_test(normal_moments),
        cmocka_unit_test(lognormal_median_and_p99),
        cmocka_unit_test(lognormal_draws_are_monotone_in_their_settings),
        cmocka_unit_test(constant_latency_is_constant),
        cmocka_unit_test(own_exp_and_log_are_accurate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

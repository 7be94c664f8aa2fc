/* test_sim_closed.c — the model against closed forms. With reply-loss
 * probability p, k tries, no de-duplication and no other fault, a job is
 * delivered until a reply gets through or the tries run out, so
 *   duplicates per job  D = min(G, k-1), G geometric: E[D] = p + ... + p^(k-1)
 *   errors per job      Bernoulli(p^k)
 * Totals over n jobs are checked within 5 standard errors. */
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

static void check_case(const closed_case *cc, uint64_t seed)
{
    double p = cc->p;
    int k = cc->k;
    /* moments of D: P(D = j) = p^j (1-p) for j < k-1, P(D = k-1) = p^(k-1) */
    double e1 = 0, e2 = 0, pj = 1;
    for (int j = 0; j < k; j++) {
        double prob = j < k - 1 ? pj * (1 - p) : pj;
        e1 += j * prob;
        e2 += (double)j * j * prob;
        pj *= p;
    }
    double closed = 0;
    for (int j = 1; j < k; j++)
        closed += pow(p, j);
    assert_true(fabs(e1 - closed) < 1e-12); /* the two forms agree */
    double var_d = e2 - e1 * e1;
    double perr = pow(p, k);

    tb_board t;
    tb_init(&t, cc->shape, JOBS);
    tb_sender(&t)->tries = k;
    tb_delivery(&t)->lose_reply = p;
    tb_handler(&t)->concurrency = 16;
    sim_counts c = tb_counts(&t, seed);

    double n = JOBS;
    double dup_tol = 5 * sqrt(n * var_d) + 1e-9;
    double err_tol = 5 * sqrt(n * perr * (1 - perr)) + 1e-9;
    char what[96];
    snprintf(what, sizeof what, "p=%g k=%d shape=%u", p, k, cc->shape);
    if (fabs((double)c.duplicates - n * e1) > dup_tol)
        fail_msg("%s: duplicates %lld, expected %.1f +- %.1f", what, (long long)c.duplicates,
                 n * e1, dup_tol);
    if (fabs((double)c.errors - n * perr) > err_tol)
        fail_msg("%s: errors %lld, expected %.1f +- %.1f", what, (long long)c.errors, n * perr,
                 err_tol);
    /* every delivery runs the effect; deliveries = jobs + duplicates */
    assert_int_equal(c.deliveries, c.effects);
    assert_int_equal(c.effects, c.jobs + c.duplicates);
    assert_int_equal(c.lost_writes, 0);
    assert_int_equal(c.jobs_with_effect, c.jobs);
    /* charged twice: the first reply was lost (k > 1), probability p */
    double twice = k > 1 ? p : 0;
    double twice_tol = 5 * sqrt(n * twice * (1 - twice)) + 1e-9;
    if (fabs((double)c.charged_twice - n * twice) > twice_tol)
        fail_msg("%s: charged_twice %lld, expected %.1f +- %.1f", what, (long long)c.charged_twice,
                 n * twice, twice_tol);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broker_closed_forms),
        cmocka_unit_test(http_closed_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_fail.c — messages that keep failing, against closed forms. With
 * a poison share p and m tries, and no other fault, a poison job is handled
 * m times and never takes effect, every other job once:
 *   deliveries = N(1 - p) + N·p·m, and the N·p poison jobs are errors.
 * A handler's own `fail: q` is drawn on every try, so a job is handled
 * min(G, m) times, G geometric with P(G >= j) = q^(j-1), and is an error
 * with probability q^m. Totals are checked exactly against the jobs the run
 * made poison, and that count within 5 standard errors of N·p. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define JOBS 20000

static void near(const char *what, int64_t got, double n, double mean, double var)
{
    double tol = 5 * sqrt(n * var) + 1e-9;
    if (fabs((double)got - n * mean) > tol)
        fail_msg("%s: %lld, expected %.1f +- %.1f", what, (long long)got, n * mean, tol);
}

static sim_trace_buf trace_of(const tb_board *t, sim_counts *c)
{
    sim_trace_buf tr = {0};
    tr.max = 10000;
    char msg[256];
    sim_limits lim = sim_limits_default();
    if (sim_run_counts(&t->b, &lim, t->b.seed, 0, &tr, c, msg, sizeof msg) != 0)
        fail_msg("run failed: %s", msg);
    return tr;
}

static size_t count_kind(const sim_trace_buf *tr, sim_trace_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->n; i++)
        n += tr->v[i].kind == k;
    return n;
}

/* poison share p, m tries: deliveries = (N - X) + X·m for the X poison
 * jobs, X = N·p within its binomial spread; nothing else goes wrong. */
static void check_poison(unsigned shape, double p, int m, uint64_t seed)
{
    tb_board t;
    tb_init(&t, shape, JOBS);
    t.b.traffic.poison = p;
    tb_sender(&t)->tries = m;
    tb_handler(&t)->concurrency = 16;
    sim_counts c = tb_counts(&t, seed);
    int64_t x = c.errors; /* every poison job runs out of tries, no other does */
    char what[96];
    snprintf(what, sizeof what, "poison p=%g m=%d shape=%u: poison jobs", p, m, shape);
    near(what, x, JOBS, p, p * (1 - p));
    assert_int_equal(c.deliveries, (JOBS - x) + x * m);
    assert_int_equal(c.effects, JOBS - x);
    assert_int_equal(c.successes, JOBS - x);
    assert_int_equal(c.lost_writes, x);
    assert_int_equal(c.duplicates, 0);
}

static void poison_closed_form(void **state)
{
    (void)state;
    check_poison(TB_BROKER, 0.1, 5, 11);
    check_poison(TB_BROKER, 0.3, 3, 12);
    check_poison(TB_BROKER, 0.5, 1, 13);
    check_poison(TB_BROKER | TB_PROVIDER, 0.2, 4, 14); /* fails before the call */
    check_poison(TB_BROKER | TB_DATABASE, 0.2, 2, 15); /* ... and before the write */
    check_poison(0, 0.25, 3, 16);                      /* users calling a service */
}

/* p = 1 and 0 draw nothing: exact. */
static void poison_all_and_none(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 100);
    t.b.traffic.poison = 1;
    tb_sender(&t)->tries = 4;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 400);
    assert_int_equal(c.errors, 100);
    assert_int_equal(c.effects, 0);
    assert_int_equal(c.draws, 0);
    t.b.traffic.poison = 0;
    c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 100);
    assert_int_equal(c.errors, 0);
    assert_int_equal(c.effects, 100);
}

/* The handler's own fail: drawn again on every try. */
static void fail_closed_form(void **state)
{
    (void)state;
    const struct {
        double q;
        int m;
    } cases[] = {{0.2, 5}, {0.5, 3}, {0.3, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double q = cases[i].q;
        int m = cases[i].m;
        tb_board t;
        tb_init(&t, TB_BROKER, JOBS);
        tb_handler(&t)->fail = q;
        tb_sender(&t)->tries = m;
        tb_handler(&t)->concurrency = 16;
        sim_counts c = tb_counts(&t, 20 + i);
        /* deliveries per job D = min(G, m): E[D] = sum_{j<m} q^j */
        double e1 = 0, e2 = 0;
        for (int j = 1; j <= m; j++) {
            double pr = j < m ? pow(q, j - 1) * (1 - q) : pow(q, m - 1);
            e1 += j * pr;
            e2 += (double)j * j * pr;
        }
        double perr = pow(q, m);
        char what[96];
        snprintf(what, sizeof what, "fail q=%g m=%d: deliveries", q, m);
        near(what, c.deliveries, JOBS, e1, e2 - e1 * e1);
        snprintf(what, sizeof what, "fail q=%g m=%d: errors", q, m);
        near(what, c.errors, JOBS, perr, perr * (1 - perr));
        assert_int_equal(c.effects, JOBS - c.errors); /* a failure is before the effect */
        assert_int_equal(c.duplicates, 0);
    }
}

/* A poison message's trace: each try is received, fails after the work
 * with detail 1, and times out; the last gives up after m timers. */
static void poison_trace(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1);
    t.b.traffic.poison = 1;
    tb_sender(&t)->tries = 3;
    sim_counts c;
    sim_trace_buf tr = trace_of(&t, &c);
    assert_int_equal(count_kind(&tr, SIM_TR_RECEIVE), 3);
    assert_int_equal(count_kind(&tr, SIM_TR_FAILED), 3);
    assert_int_equal(count_kind(&tr, SIM_TR_EFFECT), 0);
    assert_int_equal(count_kind(&tr, SIM_TR_REPLY), 0);
    assert_int_equal(count_kind(&tr, SIM_TR_GIVE_UP), 1);
    int64_t first_send = -1;
    for (size_t i = 0; i < tr.n; i++) {
        const sim_trace_entry *e = &tr.v[i];
        if (e->kind == SIM_TR_SEND && first_send < 0)
            first_send = e->t_us;
        if (e->kind == SIM_TR_FAILED) {
            assert_int_equal(e->detail, 1);
            assert_int_equal(e->part, t.handler);
        }
        if (e->kind == SIM_TR_GIVE_UP) /* three timers of 1 s each */
            assert_int_equal(e->t_us - first_send, 3000000);
    }
    free(tr.v);
}

/* A failing delivery under key-claimed-first gives its claim back, so the
 * next try is not held off by its own claim. */
static void failed_claim_is_given_back(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 200);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
    tb_handler(&t)->fail = 0.5;
    sim_counts c = tb_counts(&t, 3);
    assert_int_equal(c.held, 0);
    assert_int_equal(c.effects, c.jobs - c.errors);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(poison_closed_form),         cmocka_unit_test(poison_all_and_none),
        cmocka_unit_test(fail_closed_form),           cmocka_unit_test(poison_trace),
        cmocka_unit_test(failed_claim_is_given_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* interval.c — the summaries a statistician would sign (MODEL.md
 * "Intervals"): exact intervals on the per-job rate of a fault count
 * (Clopper–Pearson, Garwood), and paired differences of two results run
 * on the same streams. Built on sim-core's own log and exp, so the numbers
 * are the same on every machine. The WebAssembly module does not export
 * any of it, so none of it is linked there. */
#include "rng.h"
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>

#define ALPHA 0.05 /* 95% intervals */

/* ------------------------------------------------------------------ special functions */

/* log(1 + x) without losing x's digits when |x| is small (Goldberg). */
static double log1p_(double x)
{
    double u = 1 + x;
    return u == 1 ? x : sim_log(u) * x / (u - 1);
}

/* exp(x) - 1, likewise (Kahan). */
static double expm1_(double x)
{
    double u = sim_exp(x);
    if (u == 1)
        return x;
    double l = sim_log(u);
    return l == 0 ? x : (u - 1) * x / l;
}

/* ln Γ(x), x >= 1 (all the intervals need): Lanczos (g = 7, 9 terms),
 * relative error about 1e-15. */
static double lgamma_(double x)
{
    static const double c[9] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                                771.32342877765313,   -176.61502916214059,   12.507343278686905,
                                -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    x -= 1;
    double a = c[0], t = x + 7.5;
    for (int i = 1; i < 9; i++)
        a += c[i] / (x + i);
    return 0.91893853320467274 + (x + 0.5) * sim_log(t) - t + sim_log(a);
}

#define TINY 1e-300 /* keeps Lentz's c and d off zero */

/* One step of Lentz's method for a continued fraction b0 + a1/(b1 + a2/(b2
 * + ...)): with the next term a/b, update c and d; returns the factor the
 * fraction's value takes (Numerical Recipes 5.2). */
static double lentz(double *c, double *d, double a, double b)
{
    *d = b + a * *d;
    if (fabs(*d) < TINY)
        *d = TINY;
    *c = b + a / *c;
    if (fabs(*c) < TINY)
        *c = TINY;
    *d = 1 / *d;
    return *c * *d;
}

/* Regularized lower incomplete gamma P(a, x), a > 0, x >= 0: the series
 * below a + 1, Lentz's continued fraction for Q above (Numerical Recipes
 * 6.2). */
static double gamma_p(double a, double x)
{
    if (x <= 0)
        return 0;
    double lead = a * sim_log(x) - x - lgamma_(a);
    if (x < a + 1) {
        double term = 1 / a, sum = term;
        for (int n = 1; n < 100000; n++) {
            term *= x / (a + n);
            sum += term;
            if (fabs(term) < fabs(sum) * 1e-16)
                break;
        }
        return sum * sim_exp(lead);
    }
    double b = x + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
    for (int n = 1; n < 100000; n++) {
        b += 2;
        double del = lentz(&c, &d, -n * (n - a), b);
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return 1 - sim_exp(lead) * h;
}

/* The continued fraction of the incomplete beta (Numerical Recipes 6.4). */
static double beta_cf(double a, double b, double x)
{
    double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < TINY)
        d = TINY;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 1000000; m++) {
        int m2 = 2 * m;
        h *= lentz(&c, &d, m * (b - m) * x / ((qam + m2) * (a + m2)), 1);
        double del = lentz(&c, &d, -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), 1);
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return h;
}

/* Regularized incomplete beta I_x(a, b), a, b > 0. */
static double beta_i(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lead = lgamma_(a + b) - lgamma_(a) - lgamma_(b) + a * sim_log(x) + b * log1p_(-x);
    if (x < (a + 1) / (a + b + 2))
        return sim_exp(lead) * beta_cf(a, b, x) / a;
    return 1 - sim_exp(lead) * beta_cf(b, a, 1 - x) / b;
}

/* The x in (lo, hi) where the increasing f(x) - target changes sign, by
 * bisection to a relative 1e-15 (lo and hi bracket it): about 50 steps
 * plus one per halving of the answer below 1. */
static double solve(double (*f)(double, const double *), const double *arg, double target,
                    double lo, double hi)
{
    for (int i = 0; i < 1200; i++) {
        double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi || hi - lo <= 1e-15 * hi)
            break;
        if (f(mid, arg) < target)
            lo = mid;
        else
            hi = mid;
    }
    return lo + (hi - lo) / 2;
}

static double gamma_p_at(double x, const double *a)
{
    return gamma_p(a[0], x);
}

static double beta_i_at(double x, const double *ab)
{
    return beta_i(ab[0], ab[1], x);
}

/* ------------------------------------------------------------------ rates */

sim_rate_kind sim_measure_rate_kind(sim_measure m)
{
    switch (m) {
    case SIM_M_CHARGED_TWICE:
    case SIM_M_LOST_WRITES:
    case SIM_M_ERRORS:
    case SIM_M_LOST_EVENTS:
    case SIM_M_DOWNSTREAM_LOST_WRITES:
    case SIM_M_DOWNSTREAM_ERRORS:
        return SIM_RATE_PER_JOB;
    case SIM_M_DUPLICATES:
    case SIM_M_GHOST_EVENTS:
    case SIM_M_DOWNSTREAM_DUPLICATES:
    case SIM_M_DEAD_LETTERED: /* a job's several copies may each be dead-lettered */
        return SIM_RATE_EVENTS;
    default:
        return SIM_RATE_NONE;
    }
}

sim_rate sim_rate_of(int64_t count, int64_t trials, bool binomial)
{
    sim_rate r = {count, trials, 0, 0, 0, false, false};
    if (trials <= 0 || count < 0)
        return r;
    double x = (double)count, n = (double)trials;
    r.rate = x / n;
    if (count == 0) { /* one-sided: the rule of three, exactly */
        r.one_sided = true;
        r.hi = binomial ? -expm1_(sim_log(ALPHA) / n) : -sim_log(ALPHA) / n;
        return r;
    }
    if (binomial) {
        double lo_ab[2] = {x, n - x + 1}, hi_ab[2] = {x + 1, n - x};
        r.lo = solve(beta_i_at, lo_ab, ALPHA / 2, 0, 1);
        r.hi = count >= trials ? 1 : solve(beta_i_at, hi_ab, 1 - ALPHA / 2, 0, 1);
    } else {
        /* Garwood: the Poisson means whose tails leave alpha / 2 each side */
        double lo_a = x, hi_a = x + 1;
        double top = x + 10 * sqrt(x) + 50; /* P(hi_a, top) > 1 - alpha / 2 */
        r.lo = solve(gamma_p_at, &lo_a, ALPHA / 2, 0, top) / n;
        r.hi = solve(gamma_p_at, &hi_a, 1 - ALPHA / 2, 0, top) / n;
    }
    return r;
}

int sim_result_rate_with(const sim_result *r, sim_measure m, sim_rate_fn of, void *ctx,
                         sim_rate *out)
{
    sim_rate_kind kind = sim_measure_rate_kind(m);
    int reps = r->replications;
    if (kind == SIM_RATE_NONE || !r->values || reps < 1)
        return -1;
    double sum = 0; /* whole numbers below 2^53: exact */
    for (int i = 0; i < reps; i++)
        sum += r->values[(size_t)i * SIM_M_COUNT + m];
    int64_t trials = (int64_t)r->m[SIM_M_JOBS].mean * reps;
    bool per_job = kind == SIM_RATE_PER_JOB;
    *out = of ? of(ctx, (int64_t)sum, trials, per_job) : sim_rate_of((int64_t)sum, trials, per_job);
    out->preferred = r->random_faults && (out->count < 20 || r->m[m].min == r->m[m].max);
    return 0;
}

int sim_result_rate(const sim_result *r, sim_measure m, sim_rate *out)
{
    return sim_result_rate_with(r, m, NULL, NULL, out);
}

/* ------------------------------------------------------------------ paired differences */

int sim_compare(const sim_result *a, const sim_result *b, sim_stat diff[SIM_M_COUNT])
{
    int reps = a->replications;
    if (reps < 1 || b->replications != reps || a->seed != b->seed || !a->values || !b->values)
        return -1;
    double *d = malloc((size_t)reps * sizeof *d);
    if (!d)
        return -1;
    for (int k = 0; k < SIM_M_COUNT; k++) {
        for (int i = 0; i < reps; i++) {
            size_t at = (size_t)i * SIM_M_COUNT + (size_t)k;
            d[i] = b->values[at] - a->values[at];
        }
        diff[k] = sim_stat_of(d, reps, 1);
    }
    free(d);
    return 0;
}

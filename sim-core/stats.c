/* stats.c — what the replications add up to: mean, min, max and the 95%
 * confidence half-width (Student t), nearest-rank percentiles by selection,
 * goals judged on the worst replication, and the expect check. */
#include "sim_internal.h"

#include <math.h>

/* t(0.975, df) for df = 1..30 (exact to 9 decimals). */
static const double t975_table[30] = {
    12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
    2.364624252,  2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
    2.160368656,  2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
    2.093024054,  2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
    2.059538553,  2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
};

double sim_t975(int df)
{
    if (df < 1)
        return 0;
    if (df <= 30)
        return t975_table[df - 1];
    /* Cornish-Fisher expansion around z(0.975); within 3e-8 for df > 30. */
    double z = 1.959963984540054, v = df;
    double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
    return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v) +
           (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v);
}

sim_stat sim_stat_of(const double *v, int n, int stride)
{
    sim_stat s = {0, 0, 0, 0};
    if (n < 1)
        return s;
    double sum = 0;
    s.min = s.max = v[0];
    for (int i = 0; i < n; i++) {
        double x = v[(size_t)i * (size_t)stride];
        sum += x;
        if (x < s.min)
            s.min = x;
        if (x > s.max)
            s.max = x;
    }
    if (s.min == s.max) { /* exact, without rounding noise from the sum */
        s.mean = s.min;
        return s;
    }
    s.mean = sum / n;
    double ss = 0;
    for (int i = 0; i < n; i++) {
        double d = v[(size_t)i * (size_t)stride] - s.mean;
        ss += d * d;
    }
    s.ci95 = sim_t975(n - 1) * sqrt(ss / (n - 1) / n);
    return s;
}

static void swap64(int64_t *a, int64_t *b)
{
    int64_t t = *a;
    *a = *b;
    *b = t;
}

static int64_t median3(int64_t a, int64_t b, int64_t c)
{
    if (a > b)
        swap64(&a, &b);
    if (b > c)
        b = c;
    return a > b ? a : b;
}

/* The k-th smallest of v[lo..hi) (lo <= k < hi), everything from lo on
 * being at least everything before lo. Afterwards v[k] holds it, nothing
 * before k is larger and nothing after k is smaller. */
static int64_t select_k(int64_t *v, size_t lo, size_t hi, size_t k)
{
    /* Quickselect with a three-way partition, so runs of equal latencies
     * (constant durations) finish in one pass. Median-of-three pivots:
     * expected O(n) on latencies, which are not adversarial. */
    while (hi - lo > 1) {
        int64_t p = median3(v[lo], v[lo + (hi - lo) / 2], v[hi - 1]);
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (v[i] < p)
                swap64(&v[lt++], &v[i++]);
            else if (v[i] > p)
                swap64(&v[i], &v[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return p;
    }
    return v[lo];
}

/* The 0-based index of the nearest rank ceil(pct * n / 100). */
static size_t rank_index(size_t n, int pct)
{
    size_t rank = ((size_t)pct * n + 99) / 100;
    return rank > 0 ? rank - 1 : 0;
}

int64_t sim_percentile(int64_t *v, size_t n, int pct)
{
    return select_k(v, 0, n, rank_index(n, pct));
}

void sim_p50_p99(int64_t *v, size_t n, int64_t *p50, int64_t *p99)
{
    size_t k50 = rank_index(n, 50), k99 = rank_index(n, 99);
    *p50 = select_k(v, 0, n, k50);
    /* p99 lies after p50, among the values at least as large: half the work */
    *p99 = k99 > k50 ? select_k(v, k50 + 1, n, k99) : *p50;
}

sim_goal_result sim_goal_judge(const sim_goal *g, const sim_stat *s)
{
    sim_goal_result r = {false, 0, true};
    if (!g->has_max && !g->has_min)
        return r;
    r.present = true;
    bool max_ok = !g->has_max || s->max <= g->max;
    bool min_ok = !g->has_min || s->min >= g->min;
    r.pass = max_ok && min_ok;
    /* the replication that comes closest to failing (or fails) */
    if (!max_ok || (g->has_max && min_ok))
        r.worst = s->max;
    else
        r.worst = s->min;
    return r;
}

void sim_judge(const sim_board *b, sim_result *r)
{
    r->all_goals_pass = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        r->goals[m] = sim_goal_judge(&b->goals[m], &r->m[m]);
        if (r->goals[m].present && !r->goals[m].pass)
            r->all_goals_pass = false;
    }
    switch (b->expect) {
    case SIM_EXPECT_PASS:
        r->expect_ok = r->all_goals_pass;
        break;
    case SIM_EXPECT_FAIL:
        r->expect_ok = !r->all_goals_pass;
        break;
    default:
        r->expect_ok = true;
        break;
    }
}

double sim_measure_value(const sim_counts *c, sim_measure m, double monthly_cost)
{
    switch (m) {
    case SIM_M_JOBS:
        return (double)c->jobs;
    case SIM_M_DELIVERIES:
        return (double)c->deliveries;
    case SIM_M_EFFECTS:
        return (double)c->effects;
    case SIM_M_DUPLICATES:
        return (double)c->duplicates;
    case SIM_M_CHARGED_TWICE:
        return (double)c->charged_twice;
    case SIM_M_LOST_WRITES:
        return (double)c->lost_writes;
    case SIM_M_ERRORS:
        return (double)c->errors;
    case SIM_M_ERROR_RATE:
        return c->jobs > 0 ? (double)c->errors / (double)c->jobs : 0;
    case SIM_M_COMPLETION_TIME:
        return (double)(c->last_outcome_us - c->first_arrival_us) / 1e6;
    case SIM_M_LATENCY_P50:
        return (double)c->latency_p50_us / 1e6;
    case SIM_M_LATENCY_P99:
        return (double)c->latency_p99_us / 1e6;
    case SIM_M_MONTHLY_COST:
        return monthly_cost;
    case SIM_M_EVENTS:
        return (double)c->events;
    case SIM_M_LOST_EVENTS:
        return (double)c->lost_events;
    case SIM_M_GHOST_EVENTS:
        return (double)c->ghost_events;
    case SIM_M_DOWNSTREAM_DELIVERIES:
        return (double)c->downstream_deliveries;
    case SIM_M_DOWNSTREAM_EFFECTS:
        return (double)c->downstream_effects;
    case SIM_M_DOWNSTREAM_DUPLICATES:
        return (double)c->downstream_duplicates;
    case SIM_M_DOWNSTREAM_LOST_WRITES:
        return (double)c->downstream_lost_writes;
    case SIM_M_DOWNSTREAM_ERRORS:
        return (double)c->downstream_errors;
    case SIM_M_DEAD_LETTERED:
        return (double)c->dead_lettered;
    case SIM_M_DEAD_LETTER_TIME:
        return (double)c->dead_letter_p50_us / 1e6;
    default:
        return 0;
    }
}

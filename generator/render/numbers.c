/* numbers.c — how a measured number reads when the bare mean would claim
 * more than the runs show (sim-core/MODEL.md "Intervals"):
 *   a rare count    "0 in 10,000 payments (at most 3 per 10,000 at 95 %)"
 *   its mean ± ci   "0 (at most 0.15 at 95 %)", in the mean's own unit
 *   a paired diff   "−104.7 ± 4.4" (b − a on the same runs)
 *   a p99 of few    "2.1 s (the slowest of 20 payments)"
 * Used by the value placeholders (expand.c) and the compare table
 * (compare.c). */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "run/results.h"

#include <math.h>
#include <stdio.h>

/* An integer with thousands separators: "20,000". */
static void put_grouped(buf *out, int64_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lld", (long long)(n < 0 ? -n : n));
    if (n < 0)
        buf_putc(out, '-');
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf_putc(out, ',');
        buf_putc(out, digits[i]);
    }
}

/* A bound to two significant digits, without exponent: "3", "1.5", "21",
 * "0.31", "140". */
static void put_bound(buf *out, double x)
{
    char s[64];
    double ax = fabs(x);
    if (ax >= 10)
        snprintf(s, sizeof s, "%.0f", x);
    else if (ax == 0)
        snprintf(s, sizeof s, "0");
    else {
        int decimals = 1 - (int)floor(log10(ax)); /* two significant digits */
        snprintf(s, sizeof s, "%.*f", decimals, x);
        /* "3.0" -> "3", "0.30" -> "0.3" */
        char *e = s;
        while (*e)
            e++;
        if (decimals > 0) {
            while (e > s && e[-1] == '0')
                *--e = '\0';
            if (e > s && e[-1] == '.')
                *--e = '\0';
        }
    }
    buf_puts(out, s);
}

void numbers_rate(buf *out, const sim_rate *rt, const char *nouns)
{
    /* per 100, 1,000, 10,000 ... units of traffic: the smallest scale at which the
     * upper bound is at least 1 */
    int64_t scale = 100;
    while (scale < 1000000000 && rt->hi * (double)scale < 1)
        scale *= 10;
    put_grouped(out, rt->count);
    buf_puts(out, " in ");
    put_grouped(out, rt->trials);
    buf_printf(out, " %s (", nouns);
    if (rt->one_sided) {
        buf_puts(out, "at most ");
    } else {
        put_bound(out, rt->lo * (double)scale);
        buf_puts(out, " to ");
    }
    put_bound(out, rt->hi * (double)scale);
    buf_puts(out, " per ");
    put_grouped(out, scale);
    buf_puts(out, " " NUMBERS_AT95 ")");
}

int numbers_preferred_rate(const bp_variant *b, sim_measure m, sim_rate *rt)
{
    return results_rate(&b->result, m, rt) == 0 && rt->preferred ? 0 : -1;
}

void numbers_ci(buf *out, const bp_variant *b, sim_measure m)
{
    const sim_stat *st = &b->result.m[m];
    sim_rate rt;
    bool rate = numbers_preferred_rate(b, m, &rt) == 0 && b->result.replications > 0;
    /* a mean and its spread in one unit, the larger one's: "1.7 s ± 0.7 s" */
    double like = fmax(fabs(st->mean), st->ci95);
    if (!rate && b->result.replications > 1)
        fmt_measure_like(out, m, st->mean, like);
    else
        fmt_measure(out, m, st->mean);
    if (rate) {
        /* the exact interval of the rate, in the mean's unit (per run) */
        double jobs_per_run = (double)rt.trials / b->result.replications;
        buf_puts(out, " (");
        if (rt.one_sided) {
            buf_puts(out, "at most ");
        } else {
            put_bound(out, rt.lo * jobs_per_run);
            buf_puts(out, " to ");
        }
        put_bound(out, rt.hi * jobs_per_run);
        buf_puts(out, " " NUMBERS_AT95 ")");
        return;
    }
    if (b->result.replications > 1) {
        buf_puts(out, " ± ");
        fmt_measure_like(out, m, st->ci95, like);
    }
}

void numbers_diff(buf *out, sim_measure m, const sim_stat *d)
{
    double mean = d->mean;
    if (fabs(mean) < 1e-12)
        mean = 0;
    buf_puts(out, mean > 0 ? "+" : mean < 0 ? "−" : "");
    /* a difference and its spread in one unit, the larger one's */
    double like = d->min == d->max ? fabs(mean) : fmax(fabs(mean), d->ci95);
    fmt_measure_like(out, m, fabs(mean), like);
    if (d->min == d->max) {
        buf_puts(out, " in every run");
    } else {
        buf_puts(out, " ± ");
        fmt_measure_like(out, m, d->ci95, like);
    }
}

int numbers_pair(const bp_variant *a, const bp_variant *b, sim_stat diff[SIM_M_COUNT], char *why,
                 size_t n)
{
    if (a->result.seed != b->result.seed) {
        snprintf(why, n,
                 "boards '%s' (seed %llu) and '%s' (seed %llu) run on different random "
                 "streams; give them the same seed to compare them run by run",
                 b->board->id, (unsigned long long)b->result.seed, a->board->id,
                 (unsigned long long)a->result.seed);
        return -1;
    }
    if (a->result.replications != b->result.replications) {
        snprintf(why, n,
                 "boards '%s' (%d runs) and '%s' (%d runs) ran different numbers of runs; "
                 "a run-by-run difference needs the same",
                 b->board->id, b->result.replications, a->board->id, a->result.replications);
        return -1;
    }
    if (sim_compare(&a->result, &b->result, diff) != 0) {
        snprintf(why, n, "boards '%s' and '%s' kept no per-run values to pair", b->board->id,
                 a->board->id);
        return -1;
    }
    return 0;
}

void numbers_p99_note(buf *out, const bp_variant *b, sim_measure m)
{
    if (m == SIM_M_LATENCY_P99 && b->result.latency_samples > 0 &&
        b->result.latency_samples < 100) {
        buf_puts(out, " (the slowest of ");
        put_grouped(out, b->result.latency_samples);
        buf_printf(out, " %s)", board_noun(b->board, true));
    }
}

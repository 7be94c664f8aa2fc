/* results.c — JSON for measured results; stable key order, locale-free
 * numbers (fmt_json_number), so two builds write identical bytes. */
#include "run/results.h"
#include "base/fmt.h"

#include <pthread.h>
#include <string.h>

/* ------------------------------------------------------------ remembered rates */

/* Intervals worked out so far, by (count, trials, per_job), in an open
 * addressing table; once it is half full, further ones are worked out each
 * time (a site has a few hundred distinct counts). A count of 0 has a
 * closed form and is not kept. One table for the process: sim_rate_of is
 * a pure function, so what it holds is right for every site and build. */
#define RATE_SLOTS 4096u

typedef struct {
    bool used, per_job;
    sim_rate rate; /* as sim_rate_of gave it (its count and trials are the key) */
} rate_slot;

static pthread_mutex_t rate_lock = PTHREAD_MUTEX_INITIALIZER;
static rate_slot rate_slots[RATE_SLOTS];
static size_t rate_kept;

/* The slot holding the key, or the empty one where it goes. Lock held. */
static rate_slot *rate_slot_of(int64_t count, int64_t trials, bool per_job)
{
    uint64_t key[3] = {(uint64_t)count, (uint64_t)trials, per_job};
    size_t i = (size_t)hash64(key, sizeof key, 0) & (RATE_SLOTS - 1);
    while (rate_slots[i].used &&
           (rate_slots[i].rate.count != count || rate_slots[i].rate.trials != trials ||
            rate_slots[i].per_job != per_job))
        i = (i + 1) & (RATE_SLOTS - 1);
    return &rate_slots[i];
}

static sim_rate remembered_rate(void *ctx, int64_t count, int64_t trials, bool per_job)
{
    (void)ctx;
    if (count == 0)
        return sim_rate_of(count, trials, per_job);
    pthread_mutex_lock(&rate_lock);
    rate_slot *s = rate_slot_of(count, trials, per_job);
    bool known = s->used;
    sim_rate r = s->rate;
    pthread_mutex_unlock(&rate_lock);
    if (known)
        return r;
    /* worked out unlocked: another thread may do the same one meanwhile,
     * with the same answer */
    r = sim_rate_of(count, trials, per_job);
    pthread_mutex_lock(&rate_lock);
    s = rate_slot_of(count, trials, per_job);
    if (!s->used && rate_kept < RATE_SLOTS / 2) {
        *s = (rate_slot){true, per_job, r};
        rate_kept++;
    }
    pthread_mutex_unlock(&rate_lock);
    return r;
}

int results_rate(const sim_result *r, sim_measure m, sim_rate *out)
{
    return sim_result_rate_with(r, m, remembered_rate, NULL, out);
}

const char *results_key(sim_measure m)
{
    static const char *const keys[SIM_M_COUNT] = {
        "jobs",
        "deliveries",
        "effects",
        "duplicates",
        "charged_twice",
        "lost_writes",
        "errors",
        "error_rate",
        "completion_time_s",
        "latency_p50_s",
        "latency_p99_s",
        "monthly_cost_usd",
        "events",
        "lost_events",
        "ghost_events",
        "downstream_deliveries",
        "downstream_effects",
        "downstream_duplicates",
        "downstream_lost_writes",
        "downstream_errors",
        "dead_lettered",
        "dead_letter_time_s",
    };
    return (int)m >= 0 && m < SIM_M_COUNT ? keys[m] : "";
}

static void *copy_of(const void *p, size_t bytes)
{
    if (!p || !bytes)
        return NULL;
    void *c = xmalloc(bytes);
    memcpy(c, p, bytes);
    return c;
}

void results_copy(sim_result *dst, const sim_result *src)
{
    *dst = *src;
    dst->trace = copy_of(src->trace, src->n_trace * sizeof *src->trace);
    dst->values =
        copy_of(src->values, (size_t)src->replications * SIM_M_COUNT * sizeof *src->values);
}

static void key(buf *b, const char *k)
{
    buf_putc(b, '"');
    buf_json_str(b, k, strlen(k));
    buf_puts(b, "\":");
}

static void str(buf *b, const char *s)
{
    buf_putc(b, '"');
    buf_json_str(b, s, strlen(s));
    buf_putc(b, '"');
}

/* "rates": each fault count's rate per job with its exact 95% interval. */
static void rates_json(buf *b, const sim_result *r, const sim_board *hops)
{
    buf_puts(b, ",\"rates\":{");
    bool first = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        sim_rate rt;
        if (!sim_measure_on(hops, (sim_measure)m) || results_rate(r, (sim_measure)m, &rt) != 0)
            continue;
        if (!first)
            buf_putc(b, ',');
        first = false;
        key(b, results_key((sim_measure)m));
        buf_printf(b, "{\"count\":%lld,\"jobs\":%lld,\"per_job\":", (long long)rt.count,
                   (long long)rt.trials);
        fmt_json_significant(b, rt.rate);
        buf_puts(b, ",\"lo\":");
        fmt_json_significant(b, rt.lo);
        buf_puts(b, ",\"hi\":");
        fmt_json_significant(b, rt.hi);
        buf_printf(b, ",\"one_sided\":%s,\"preferred\":%s}", rt.one_sided ? "true" : "false",
                   rt.preferred ? "true" : "false");
    }
    buf_putc(b, '}');
}

/* {NAME: {min, max, ci95}} of each measure the board has, with the mean
 * first as "mean_diff" for differences. */
static void stats_json(buf *b, const sim_stat *st, const sim_board *hops, bool diff)
{
    buf_putc(b, '{');
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (!sim_measure_on(hops, (sim_measure)m))
            continue;
        if (m)
            buf_putc(b, ',');
        key(b, results_key((sim_measure)m));
        buf_putc(b, '{');
        if (diff) {
            buf_puts(b, "\"mean_diff\":");
            fmt_json_number(b, st[m].mean);
            buf_putc(b, ',');
        }
        buf_puts(b, "\"min\":");
        fmt_json_number(b, st[m].min);
        buf_puts(b, ",\"max\":");
        fmt_json_number(b, st[m].max);
        buf_puts(b, ",\"ci95\":");
        fmt_json_number(b, st[m].ci95);
        buf_putc(b, '}');
    }
    buf_putc(b, '}');
}

/* "paired": this result minus the other's, replication by replication. */
static void paired_json(buf *b, const results_pair *pair, const sim_result *r,
                        const sim_board *hops)
{
    sim_stat d[SIM_M_COUNT];
    if (sim_compare(pair->result, r, d) != 0)
        return; /* the caller ran both on the same streams; nothing to pair otherwise */
    buf_puts(b, ",\"paired\":{\"against\":");
    str(b, pair->board->id);
    buf_puts(b, ",\"measures\":");
    stats_json(b, d, hops, true);
    buf_putc(b, '}');
}

void results_trace_json(buf *b, const bp_board *board, const sim_trace_entry *v, size_t n)
{
    buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        const sim_trace_entry *e = &v[i];
        if (i)
            buf_putc(b, ',');
        buf_puts(b, "{\"t_s\":");
        fmt_json_number(b, (double)e->t_us / 1e6);
        buf_puts(b, ",\"kind\":");
        str(b, sim_trace_kind_name(e->kind));
        buf_printf(b, ",\"job\":%lld,\"part\":", (long long)e->job);
        str(b, board->parts[e->part].id);
        if (e->peer >= 0) {
            buf_puts(b, ",\"peer\":");
            str(b, board->parts[e->peer].id);
        }
        buf_printf(b, ",\"detail\":%lld", (long long)e->detail);
        if (e->copy > 0) /* a later copy of the job's message (0-based) */
            buf_printf(b, ",\"copy\":%d", e->copy);
        buf_putc(b, '}');
    }
    buf_putc(b, ']');
}

void results_json(buf *b, const bp_board *board, const sim_result *r, bool with_trace)
{
    results_json_with(b, board, r, with_trace, NULL);
}

void results_json_with(buf *b, const bp_board *board, const sim_result *r, bool with_trace,
                       const results_pair *pair)
{
    const sim_board *hops = &board->sim; /* the measures it has: sim_measure_on */
    buf_putc(b, '{');
    key(b, "board");
    str(b, board->id);
    buf_putc(b, ',');
    key(b, "title");
    str(b, board->title);
    buf_printf(b, ",\"seed\":%llu,\"replications\":%d,", (unsigned long long)board->sim.seed,
               r->replications);
    if (board->sim.until > 0) {
        buf_puts(b, "\"until\":{\"target\":");
        fmt_json_number(b, board->sim.until);
        buf_printf(b, ",\"min\":%d,\"max\":%d,\"met\":%s},", board->sim.replications,
                   board->sim.until_max, r->until_met ? "true" : "false");
    }
    key(b, "measures");
    buf_putc(b, '{');
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (!sim_measure_on(hops, (sim_measure)m))
            continue; /* the board has no second hop */
        if (m)
            buf_putc(b, ',');
        key(b, results_key((sim_measure)m));
        fmt_json_number(b, r->m[m].mean);
    }
    buf_putc(b, '}');
    if (r->replications > 1) {
        buf_puts(b, ",\"spread\":");
        stats_json(b, r->m, hops, false);
    }
    rates_json(b, r, hops);
    buf_puts(b, ",\"goals\":{");
    bool first = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &board->sim.goals[m];
        if (!r->goals[m].present)
            continue;
        if (!first)
            buf_putc(b, ',');
        first = false;
        key(b, results_key((sim_measure)m));
        buf_putc(b, '{');
        if (g->has_max) {
            buf_puts(b, "\"max\":");
            fmt_json_number(b, g->max);
            buf_putc(b, ',');
        }
        if (g->has_min) {
            buf_puts(b, "\"min\":");
            fmt_json_number(b, g->min);
            buf_putc(b, ',');
        }
        buf_puts(b, "\"worst\":");
        fmt_json_number(b, r->goals[m].worst);
        buf_printf(b, ",\"pass\":%s}", r->goals[m].pass ? "true" : "false");
    }
    buf_printf(b, "},\"all_goals_pass\":%s", r->all_goals_pass ? "true" : "false");
    if (board->sim.expect != SIM_EXPECT_NONE)
        buf_printf(b, ",\"expect\":\"%s\",\"expect_ok\":%s",
                   board->sim.expect == SIM_EXPECT_PASS ? "pass" : "fail",
                   r->expect_ok ? "true" : "false");
    buf_printf(b,
               ",\"deterministic\":%s,\"random_faults\":%s,\"latency\":{\"samples\":%lld,"
               "\"p99_is_max\":%s}",
               r->deterministic ? "true" : "false", r->random_faults ? "true" : "false",
               (long long)r->latency_samples, r->latency_samples < 100 ? "true" : "false");
    if (pair)
        paired_json(b, pair, r, hops);
    if (with_trace) {
        buf_puts(b, ",\"trace\":");
        results_trace_json(b, board, r->trace, r->n_trace);
        buf_printf(b, ",\"trace_truncated\":%s", r->trace_truncated ? "true" : "false");
    }
    buf_putc(b, '}');
}

void results_display(buf *b, const bp_board *board, const sim_result *r)
{
    buf_puts(b, ",\"display\":{");
    const sim_board *hops = &board->sim; /* the measures it has: sim_measure_on */
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (!sim_measure_on(hops, (sim_measure)m))
            continue;
        buf v;
        buf_init(&v);
        fmt_measure(&v, (sim_measure)m, r->m[m].mean);
        buf_printf(b, "%s\"%s\":\"", m ? "," : "", sim_measure_name((sim_measure)m));
        buf_json_str(b, v.data, v.len);
        buf_putc(b, '"');
        buf_free(&v);
    }
    buf_putc(b, '}');
}

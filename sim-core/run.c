/* run.c — sim_run: check the board, run its replications on one reused
 * model (replication r on its key, rng_stream_key; with until, as many as
 * the goal measures' precision needs), and fold them into the result. */
#include "model.h"
#include "proof.h"
#include "rng.h"
#include "sim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double sim_monthly_cost(const sim_board *b)
{
    double usd = 0;
    for (size_t i = 0; i < b->n_parts; i++) {
        const sim_part *p = &b->parts[i];
        if (!p->external)
            usd += p->vcpu * b->prices.vcpu_usd_month + p->gb * b->prices.gb_usd_month +
                   p->fixed_usd_month;
    }
    return usd;
}

/* The statistics of the first reps replications (vals[r * SIM_M_COUNT +
 * k]) into st; true when every goal measure's 95% half-width is within
 * until × |mean| (with until 0, when each goal measure's replications
 * agree). */
static bool summarize(const sim_board *b, const double *vals, int reps, sim_stat *st)
{
    bool precise = true;
    for (int k = 0; k < SIM_M_COUNT; k++) {
        st[k] = sim_stat_of(&vals[k], reps, SIM_M_COUNT);
        if ((b->goals[k].has_max || b->goals[k].has_min) &&
            !(st[k].ci95 <= b->until * fabs(st[k].mean)))
            precise = false;
    }
    return precise;
}

sim_status sim_run(const sim_board *b, const sim_limits *lim, bool want_trace, sim_result *out,
                   char *msg, size_t n)
{
    return sim_run_choices(b, lim, want_trace, NULL, 0, out, msg, n);
}

sim_status sim_run_choices(const sim_board *b, const sim_limits *lim, bool want_trace,
                           const uint8_t *choices, size_t n_choices, sim_result *out, char *msg, size_t n)
{
    memset(out, 0, sizeof *out);
    if (msg && n)
        msg[0] = '\0';
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    sim_topology t;
    int link;
    if (sim_board_check_topology(b, lim, msg, n, &link, &t) != -1)
        return SIM_ERR_BOARD;

    /* with until, room for until_max replications; run the first ones, then
     * one more at a time until the goal measures are precise enough */
    int reps = b->replications;
    int cap = b->until > 0 && b->until_max > reps ? b->until_max : reps;
    if (cap > lim->max_replications) /* reps is not (sim_board_check) */
        cap = lim->max_replications;
    sim_model *m = sim_model_new(b, &t);
    sim_choices ch = {0};
    if (m && choices)
        m->drive = &ch;
    double *vals = malloc((size_t)cap * SIM_M_COUNT * sizeof *vals);
    sim_trace_buf trace = {NULL, 0, 0, lim->max_trace, false};
    sim_status rc = SIM_ERR_MEMORY;
    if (!m || !vals) {
        snprintf(msg, n, "not enough memory to simulate %lld jobs", (long long)b->traffic.jobs);
        goto done;
    }
    double cost = sim_monthly_cost(b);
    /* Each run may take max_events; all of them together max_board_events,
     * so many replications of a heavy board cannot run for minutes. */
    int64_t budget = lim->max_board_events > 0 ? lim->max_board_events : INT64_MAX;
    out->deterministic = true;
    out->latency_samples = INT64_MAX;
    int r = 0;
    for (;; r++) {
        if (r >= reps) { /* the first ones ran: stop, or add one */
            bool precise = summarize(b, vals, r, out->m);
            if (precise || r == cap) {
                out->until_met = precise && b->until > 0;
                break;
            }
        }
        sim_counts c;
        sim_trace_buf *tb = r == 0 && want_trace ? &trace : NULL;
        sim_limits run_lim = *lim;
        bool board_bound = budget < run_lim.max_events;
        if (board_bound)
            run_lim.max_events = budget;
        choice_begin(&ch, choices, n_choices);
        rc = sim_model_run(m, &run_lim, rng_stream_key(b->seed, (uint64_t)r), tb, &c, msg, n);
        if (rc != SIM_OK) {
            if (board_bound && rc == SIM_ERR_EVENTS) {
                snprintf(msg, n,
                         "the board needs more than %lld events across its %d runs; lower "
                         "jobs, tries or replications",
                         (long long)lim->max_board_events, cap);
                rc = SIM_ERR_BOARD_EVENTS;
            }
            goto done;
        }
        if (ch.oom) {
            snprintf(msg, n, "not enough memory to simulate the board");
            rc = SIM_ERR_MEMORY;
            goto done;
        }
        budget -= c.events;
        for (int k = 0; k < SIM_M_COUNT; k++)
            vals[r * SIM_M_COUNT + k] = sim_measure_value(&c, (sim_measure)k, cost);
        if (c.draws)
            out->deterministic = false;
        if (c.chances)
            out->random_faults = true;
        if (c.successes < out->latency_samples)
            out->latency_samples = c.successes;
    }
    out->replications = r;
    sim_judge(b, out);
    out->seed = b->seed;
    out->values = vals;
    vals = NULL;
    out->trace = trace.v;
    out->n_trace = trace.n;
    out->trace_truncated = trace.truncated;
    trace.v = NULL;
    rc = SIM_OK;
done:
    free(trace.v);
    free(vals);
    choice_free(&ch);
    sim_model_free(m);
    return rc;
}

void sim_result_free(sim_result *r)
{
    if (!r)
        return;
    free(r->trace);
    free(r->values);
    r->values = NULL;
    r->trace = NULL;
    r->n_trace = 0;
    r->trace_truncated = false;
}

/* proof.c — sim_prove: every run of a small board within a fault bound,
 * each a list of choices replayed through the model (choice.h), explored
 * breadth-first by number of faults; and sim_replay, one such run again. */
#include "proof.h"

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run to make: the choices up to and including the one it changes. */
typedef struct {
    uint8_t *c;
    size_t n;
} prefix;

typedef struct {
    prefix *v;
    size_t n, cap;
} prefix_list;

typedef struct {
    const sim_board *b;
    const sim_limits *lim;
    const sim_prove_opts *o;
    sim_model *m;
    sim_choices ch;
    double cost;
    prefix_list *level; /* level[f]: runs to make with f faults */
    size_t n_levels;
    bool oom;
} prover;

sim_board sim_prove_board(const sim_board *b, int jobs)
{
    sim_board p = *b;
    if (jobs > 0 && b->traffic.jobs > 0) {
        p.traffic.jobs = jobs;
        p.traffic.over_us = (int64_t)((double)b->traffic.over_us * jobs / (double)b->traffic.jobs);
    }
    p.replications = 1;
    p.until = 0;
    return p;
}

/* Queue the run that follows pick[0..at) and then takes option opt at at. */
static void push(prover *p, size_t f, const uint8_t *pick, size_t at, uint8_t opt)
{
    if (f >= p->n_levels) {
        size_t n = f + 1;
        prefix_list *l = realloc(p->level, n * sizeof *l);
        if (!l) {
            p->oom = true;
            return;
        }
        memset(l + p->n_levels, 0, (n - p->n_levels) * sizeof *l);
        p->level = l;
        p->n_levels = n;
    }
    prefix_list *l = &p->level[f];
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        prefix *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    uint8_t *c = malloc(at + 1);
    if (!c) {
        p->oom = true;
        return;
    }
    memcpy(c, pick, at);
    c[at] = opt;
    l->v[l->n++] = (prefix){c, at + 1};
}

/* One run following want[0..n_want); this run's choices are then in p->ch. */
static int run_one(prover *p, const uint8_t *want, size_t n_want, sim_trace_buf *tb, sim_counts *c,
                   char *msg, size_t n)
{
    choice_begin(&p->ch, want, n_want);
    if (sim_model_run(p->m, p->lim, 0, tb, c, msg, n) != 0)
        return -1;
    if (p->ch.oom) {
        snprintf(msg, n, "not enough memory to prove the board");
        return -1;
    }
    return 0;
}

/* The runs the first run's choice points predict: every combination of its
 * durations and traffic choices, times its ways to place up to k faults. */
static double estimate(const sim_choices *ch, int k)
{
    double free_ways = 1, faults = 0;
    for (size_t i = 0; i < ch->n; i++) {
        if (ch->kind[i] == CH_FAULT)
            faults++;
        else
            free_ways *= ch->opts[i];
    }
    double ways = 0, binom = 1;
    for (int i = 0; i <= k && i <= faults; i++) {
        ways += binom;
        binom = binom * (faults - i) / (i + 1);
    }
    return free_ways * ways;
}

static int check_opts(const sim_board *b, const sim_prove_opts *o, char *msg, size_t n)
{
    if ((int)o->measure < 0 || o->measure >= SIM_M_COUNT ||
        sim_measure_rate_kind(o->measure) == SIM_RATE_NONE) {
        snprintf(msg, n,
                 "a proof needs a fault count (duplicates, charged_twice, lost_writes, "
                 "lost_events, ghost_events ...)");
        return -1;
    }
    if (!sim_measure_on(b, o->measure)) {
        snprintf(msg, n, "%s needs a board with %s", sim_measure_name(o->measure),
                 sim_measure_hop(o->measure) > 1 ? "two hops" : "a dead-letter queue");
        return -1;
    }
    if (o->jobs < 1 || o->jobs > SIM_PROVE_MAX_JOBS) {
        snprintf(msg, n, "a proof takes 1 to %d jobs, not %d", SIM_PROVE_MAX_JOBS, o->jobs);
        return -1;
    }
    if (o->faults < 0 || o->faults > SIM_PROVE_MAX_FAULTS) {
        snprintf(msg, n, "a proof takes 0 to %d faults, not %d", SIM_PROVE_MAX_FAULTS, o->faults);
        return -1;
    }
    return 0;
}

/* runs: the prediction, or (over) how many ran before the budget ran out */
static int too_big(const prover *p, int64_t runs, bool over, char *msg, size_t n)
{
    snprintf(msg, n,
             "the proof of %d jobs with up to %d faults needs %s%lld runs, more than the "
             "work budget allows; lower jobs or faults",
             p->o->jobs, p->o->faults, over ? "over " : "about ", (long long)runs);
    return -1;
}

/* Explore level f: each run, its measure, and the runs that differ from it
 * in one later choice. */
static int explore_level(prover *p, size_t f, sim_proof *out, char *msg, size_t n)
{
    const sim_prove_opts *o = p->o;
    int64_t budget = p->lim->max_board_events > 0 ? p->lim->max_board_events : INT64_MAX;
    while (f < p->n_levels && p->level[f].n > 0) {
        prefix_list *l = &p->level[f];
        prefix pf = l->v[--l->n];
        sim_counts c;
        int rc = run_one(p, pf.c, pf.n, NULL, &c, msg, n);
        free(pf.c);
        if (rc != 0)
            return -1;
        out->executions++;
        out->events += c.events;
        bool within = f <= (size_t)o->faults;
        if (within)
            out->runs++;
        if (out->executions == 1) {
            double e = estimate(&p->ch, o->faults);
            out->estimate = e < 9e18 ? (int64_t)e : INT64_MAX;
            double work = (double)out->estimate * (double)(c.events > 0 ? c.events : 1);
            if ((o->max_runs > 0 && out->estimate > o->max_runs) || work > (double)budget)
                return too_big(p, out->estimate, false, msg, n);
        }
        if ((o->max_runs > 0 && out->executions > o->max_runs) || out->events > budget)
            return too_big(p, out->executions, true, msg, n);
        double v = sim_measure_value(&c, o->measure, p->cost);
        if (within && v > 0 && (!out->found || c.events < out->cx_events)) {
            free(out->choices);
            out->choices = malloc(p->ch.n ? p->ch.n : 1);
            if (!out->choices) {
                snprintf(msg, n, "not enough memory to prove the board");
                return -1;
            }
            memcpy(out->choices, p->ch.pick, p->ch.n);
            out->n_choices = p->ch.n;
            out->found = true;
            out->cx_faults = (int)f;
            out->cx_events = c.events;
            out->cx_value = v;
        }
        for (size_t i = pf.n; i < p->ch.n; i++)
            for (uint32_t opt = 1; opt < p->ch.opts[i]; opt++) {
                size_t nf = f + (p->ch.kind[i] == CH_FAULT);
                if (nf <= (size_t)o->faults || o->brute)
                    push(p, nf, p->ch.pick, i, (uint8_t)opt);
            }
        if (p->oom) {
            snprintf(msg, n, "not enough memory to prove the board");
            return -1;
        }
    }
    return 0;
}

/* A model of a board that passes the check, or NULL with a sentence. */
static sim_model *driven_model(const sim_board *b, const sim_limits *lim, char *msg, size_t n)
{
    sim_topology t;
    int link;
    if (sim_board_check_topology(b, lim, msg, n, &link, &t) != -1)
        return NULL;
    sim_model *m = sim_model_new(b, &t);
    if (!m)
        snprintf(msg, n, "not enough memory to simulate the board");
    return m;
}

int sim_prove_estimate(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o,
                       int64_t *runs, int64_t *events, char *msg, size_t n)
{
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    if (sim_board_hops(b) == 0) { /* the check's sentence */
        sim_model_free(driven_model(b, lim, msg, n));
        return -1;
    }
    if (check_opts(b, o, msg, n) != 0)
        return -1;
    prover p = {b, lim, o, driven_model(b, lim, msg, n), {0}, 0, NULL, 0, false};
    if (!p.m)
        return -1;
    p.m->drive = &p.ch;
    sim_counts c;
    int rc = run_one(&p, NULL, 0, NULL, &c, msg, n);
    if (rc == 0) {
        double e = estimate(&p.ch, o->faults);
        *runs = e < 9e18 ? (int64_t)e : INT64_MAX;
        double per = (double)sim_events_estimate(b, NULL, NULL);
        double w = e * (per > (double)c.events ? per : (double)c.events);
        *events = w < 9e18 ? (int64_t)w : INT64_MAX;
    }
    choice_free(&p.ch);
    sim_model_free(p.m);
    return rc;
}

int sim_prove(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o, sim_proof *out,
              char *msg, size_t n)
{
    memset(out, 0, sizeof *out);
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    if (sim_board_hops(b) == 0) { /* the check's sentence */
        sim_model_free(driven_model(b, lim, msg, n));
        return -1;
    }
    if (check_opts(b, o, msg, n) != 0)
        return -1;
    out->jobs = o->jobs;
    out->faults = o->faults;
    prover p = {b, lim, o, driven_model(b, lim, msg, n), {0}, sim_monthly_cost(b), NULL, 0, false};
    int rc = -1;
    if (!p.m)
        goto done;
    p.m->drive = &p.ch;
    uint8_t none = 0;
    push(&p, 0, &none, 0, 0); /* the first run: every choice its first option */
    if (p.oom) {
        snprintf(msg, n, "not enough memory to prove the board");
        goto done;
    }
    p.level[0].v[0].n = 0;
    for (size_t f = 0; f < p.n_levels; f++) {
        if (explore_level(&p, f, out, msg, n) != 0)
            goto done;
        if (out->found && !o->brute)
            break;
    }
    out->holds = o->sometimes ? out->found : !out->found;
    if (out->found) {
        double vals[SIM_M_COUNT];
        if (sim_replay(b, lim, out->choices, out->n_choices, &out->trace, &out->n_trace, vals, msg,
                       n) != 0)
            goto done;
        out->trace_truncated = out->n_trace >= lim->max_trace;
    }
    rc = 0;
done:
    for (size_t f = 0; f < p.n_levels; f++) {
        for (size_t i = 0; i < p.level[f].n; i++)
            free(p.level[f].v[i].c);
        free(p.level[f].v);
    }
    free(p.level);
    choice_free(&p.ch);
    sim_model_free(p.m);
    if (rc != 0)
        sim_proof_free(out);
    return rc;
}

void sim_proof_free(sim_proof *p)
{
    if (!p)
        return;
    free(p->choices);
    free(p->trace);
    p->choices = NULL;
    p->trace = NULL;
    p->n_choices = p->n_trace = 0;
}

int sim_replay(const sim_board *b, const sim_limits *lim, const uint8_t *choices, size_t n_choices,
               sim_trace_entry **trace, size_t *n_trace, double *measures, char *msg, size_t n)
{
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    sim_model *m = driven_model(b, lim, msg, n);
    if (!m)
        return -1;
    sim_choices ch = {0};
    m->drive = &ch;
    choice_begin(&ch, choices, n_choices);
    sim_trace_buf tb = {NULL, 0, 0, lim->max_trace, false};
    sim_counts c;
    int rc = sim_model_run(m, lim, 0, trace ? &tb : NULL, &c, msg, n);
    if (rc == 0 && ch.oom) {
        snprintf(msg, n, "not enough memory to simulate the board");
        rc = -1;
    }
    if (rc == 0 && measures) {
        double cost = sim_monthly_cost(b);
        for (int k = 0; k < SIM_M_COUNT; k++)
            measures[k] = sim_measure_value(&c, (sim_measure)k, cost);
    }
    if (rc == 0 && trace) {
        *trace = tb.v;
        *n_trace = tb.n;
        tb.v = NULL;
    }
    free(tb.v);
    choice_free(&ch);
    sim_model_free(m);
    return rc;
}

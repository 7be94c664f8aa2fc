/* proof.c — sim_prove: every run of a small board within a fault bound,
 * each a list of choices replayed through the model (choice.h), explored
 * breadth-first by number of faults; and sim_replay, one such run again. */
#include "proof.h"

#include "model.h"
#include "rng.h"

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

#define N_FAULTS (SIM_PROVE_MAX_FAULTS + 1)

/* A state met before: the runs from it, by the faults they add. */
typedef struct {
    int64_t runs[N_FAULTS], events[N_FAULTS]; /* events after the state */
    int64_t max_events;                       /* the most events after it in one run */
    int r_max;                                /* the faults it was explored for */
} memo_entry;

/* The memo's index: a state's fingerprint. */
typedef struct {
    uint64_t fp[2];
} memo_key;

/* A state whose runs are being explored: the totals when it was met. */
typedef struct {
    uint64_t fp[2];
    int faults;     /* taken before it */
    int64_t events; /* before it */
    size_t at;      /* choices before it */
    int64_t runs0[N_FAULTS], events0[N_FAULTS];
    int64_t max_events; /* the most events of a run from it so far */
} open_state;

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
    /* the counting explorer (explore_states) */
    memo_key *keys;    /* open addressing, at most half full */
    uint32_t *slot_of; /* per key: its entry + 1, 0 for a free key */
    memo_entry *memo;  /* the entries, in the order they came */
    size_t keys_cap, memo_n, memo_cap;
    open_state *open;
    size_t n_open, open_cap;
    size_t last_n;                            /* choices before the run's last event */
    size_t states_from;                       /* a run's states from this choice on are new */
    bool cut;                                 /* the run ended at a state met before */
    int64_t runs[N_FAULTS], events[N_FAULTS]; /* by faults, the runs counted so far */
    int64_t work_runs, work_events;           /* what the model ran */
    uint64_t tmp[2048];                       /* model_fingerprint's room */
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
        if (!sim_resize(&p->level, n, sizeof *p->level)) {
            p->oom = true;
            return;
        }
        memset(p->level + p->n_levels, 0, (n - p->n_levels) * sizeof *p->level);
        p->n_levels = n;
    }
    prefix_list *l = &p->level[f];
    if (l->n == l->cap) {
        if (!sim_grow(&l->v, &l->cap, sizeof *l->v, 64)) {
            p->oom = true;
            return;
        }
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

/* The ways to place at most k faults on f chances. */
static double placements(double f, int k)
{
    double ways = 0, binom = 1;
    for (int i = 0; i <= k && i <= f; i++) {
        ways += binom;
        binom = binom * (f - i) / (i + 1);
    }
    return ways;
}

/* The size of the tree of runs, before it is explored, by Knuth's
 * estimator (Knuth 1975, "Estimating the efficiency of backtrack
 * programs") with importance sampling: a walk from the fault-free run down
 * to a run with no children, each step to one child drawn with probability
 * q (a fixed key: the same estimate every time), counts 1 + 1/q1 +
 * 1/(q1 q2) + ...; its mean over walks is the tree's size, whatever the q.
 * The q are in proportion to a guess of each child's subtree: the
 * combinations of the run's choices after the changed one (every option of
 * each duration and traffic choice, every placement of the faults left),
 * so the walks agree the closer the guess is. ESTIMATE_WALKS walks; *events
 * likewise the events of all runs, *first the fault-free run's. Returns 0,
 * or -1 with a sentence. */
#define ESTIMATE_WALKS 32
static int estimate(prover *p, double *runs, double *events, int64_t *first, char *msg, size_t n)
{
    const uint64_t key = rng_stream_key(31, 0);
    const int k_max = p->o->faults;
    const bool all = p->o->brute;
    uint8_t *want = NULL;
    double *guess = NULL;
    size_t cap = 0;
    double sum_runs = 0, sum_events = 0;
    int rc = 0;
    for (int w = 0; w < ESTIMATE_WALKS && rc == 0; w++) {
        size_t n_want = 0;
        int f = 0;
        double weight = 1;
        for (uint32_t depth = 0;; depth++) {
            sim_counts c;
            if ((rc = run_one(p, want, n_want, NULL, &c, msg, n)) != 0)
                break;
            if (w == 0 && depth == 0)
                *first = c.events;
            sum_runs += weight;
            sum_events += weight * (double)c.events;
            const sim_choices *ch = &p->ch;
            if (ch->n > cap) {
                if (!sim_resize(&guess, ch->n, sizeof *guess) || !sim_resize(&want, ch->n, 1)) {
                    snprintf(msg, n, "not enough memory to prove the board");
                    rc = -1;
                    break;
                }
                cap = ch->n;
            }
            /* guess[i]: one child's subtree at choice i, 0 past the bound */
            double free_ways = 1, total = 0;
            int fault_points = 0;
            for (size_t i = ch->n; i-- > n_want;) {
                int nf = f + (ch->kind[i] == CH_FAULT);
                guess[i] = nf <= k_max || all
                               ? free_ways * placements(fault_points, all ? fault_points : k_max - nf)
                               : 0;
                total += guess[i] * (ch->opts[i] - 1);
                if (ch->kind[i] == CH_FAULT)
                    fault_points++;
                else if (free_ways < 1e300)
                    free_ways *= ch->opts[i];
            }
            if (total == 0)
                break;
            double r = rng_uniform(key, (uint64_t)w, depth) * total;
            size_t i = n_want;
            while (i + 1 < ch->n && r >= guess[i] * (ch->opts[i] - 1)) {
                r -= guess[i] * (ch->opts[i] - 1);
                i++;
            }
            while (guess[i] == 0) /* rounding past the last child */
                i--;
            uint32_t opt = 1 + (uint32_t)(r / guess[i]);
            if (opt >= ch->opts[i])
                opt = ch->opts[i] - 1u;
            weight *= total / guess[i];
            f += ch->kind[i] == CH_FAULT;
            memcpy(want, ch->pick, i); /* past the prefix every pick is option 0 */
            want[i] = (uint8_t)opt;
            n_want = i + 1;
        }
    }
    free(want);
    free(guess);
    *runs = sum_runs / ESTIMATE_WALKS;
    *events = sum_events / ESTIMATE_WALKS;
    return rc;
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
            if (p->ch.n) /* a run with no choice has no list */
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

#ifndef SIM_REPLAY_ONLY /* the WebAssembly module replays, never proves (choice.h) */
/* ------------------------------------------------- counting by states */

/* The memo's key for fp: its own, or the free one where it goes. */
static size_t memo_find(const prover *p, const uint64_t fp[2])
{
    size_t mask = p->keys_cap - 1;
    for (size_t i = fp[0] & mask;; i = (i + 1) & mask)
        if (!p->slot_of[i] || (p->keys[i].fp[0] == fp[0] && p->keys[i].fp[1] == fp[1]))
            return i;
}

static memo_entry *memo_get(const prover *p, const uint64_t fp[2])
{
    if (!p->keys_cap)
        return NULL;
    uint32_t at = p->slot_of[memo_find(p, fp)];
    return at ? &p->memo[at - 1] : NULL;
}

/* Room for one more entry; false when memory runs out, or past
 * MEMO_MAX entries (about 80 MB: a state not kept is explored again). */
#define MEMO_MAX ((size_t)1 << 19)
static bool memo_room(prover *p)
{
    if (p->memo_n >= MEMO_MAX)
        return false;
    if (p->memo_n == p->memo_cap) {
        if (!sim_grow(&p->memo, &p->memo_cap, sizeof *p->memo, 1024))
            return false;
    }
    if (2 * (p->memo_n + 1) <= p->keys_cap)
        return true;
    size_t cap = p->keys_cap ? p->keys_cap * 2 : 4096, old_cap = p->keys_cap;
    memo_key *keys = malloc(cap * sizeof *keys), *old_keys = p->keys;
    uint32_t *slot_of = calloc(cap, sizeof *slot_of), *old_slot = p->slot_of;
    if (!keys || !slot_of) {
        free(keys);
        free(slot_of);
        return false;
    }
    p->keys = keys;
    p->slot_of = slot_of;
    p->keys_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old_slot[i]) {
            size_t k = memo_find(p, old_keys[i].fp);
            keys[k] = old_keys[i];
            slot_of[k] = old_slot[i];
        }
    free(old_keys);
    free(old_slot);
    return true;
}

/* The state on top is explored: its runs go into the memo, its most
 * events to the state below it. */
static void close_state(prover *p)
{
    open_state *s = &p->open[--p->n_open];
    if (p->n_open > 0 && s->max_events > p->open[p->n_open - 1].max_events)
        p->open[p->n_open - 1].max_events = s->max_events;
    int r_max = p->o->faults - s->faults;
    int64_t runs = 0;
    for (int r = 0; r <= r_max; r++)
        runs += p->runs[s->faults + r] - s->runs0[r];
    if (runs < 2)
        return; /* one run: met again, its rest is cheaper run than remembered */
    if (!memo_room(p))
        return; /* not remembered: met again, it is explored again */
    size_t k = memo_find(p, s->fp);
    if (!p->slot_of[k]) {
        p->keys[k].fp[0] = s->fp[0];
        p->keys[k].fp[1] = s->fp[1];
        p->slot_of[k] = (uint32_t)++p->memo_n;
    }
    memo_entry *e = &p->memo[p->slot_of[k] - 1];
    e->r_max = r_max;
    e->max_events = s->max_events - s->events;
    for (int r = 0; r <= r_max; r++) {
        e->runs[r] = p->runs[s->faults + r] - s->runs0[r];
        e->events[r] = p->events[s->faults + r] - s->events0[r] - e->runs[r] * s->events;
    }
}

/* One run's runs counted: n runs with f faults, of events events in all,
 * the most in one run most. */
static void count_runs(prover *p, int f, int64_t n, int64_t events, int64_t most)
{
    p->runs[f] += n;
    p->events[f] += events;
    if (p->n_open > 0 && most > p->open[p->n_open - 1].max_events)
        p->open[p->n_open - 1].max_events = most;
}

/* choice.h's at_event: at each state of a run past the choice it changed,
 * a state met before ends the run, its runs counted from the memo; a new
 * one is opened. */
static bool at_state(void *ctx, sim_model *m, const void *next)
{
    prover *p = ctx;
    /* looked up only after an event that chose nothing (an ack, a
     * timer): where runs that went apart meet again, mostly; after a
     * choice the state is new more often than not */
    size_t last = p->last_n;
    p->last_n = p->ch.n;
    if (p->ch.n < p->states_from || p->ch.n != last || p->oom)
        return false;
    uint64_t fp[2];
    if (!model_fingerprint(m, next, p->tmp, sizeof p->tmp, fp))
        return false;
    int f = p->ch.faults, need = p->o->faults - f;
    int64_t before = m->k.events - 1; /* next is counted already */
    memo_entry *e = memo_get(p, fp);
    if (e && e->r_max >= need && before + e->max_events <= p->lim->max_events) {
        for (int r = 0; r <= need; r++)
            count_runs(p, f + r, e->runs[r], e->events[r] + e->runs[r] * before,
                       before + e->max_events);
        p->cut = true;
        return true;
    }
    if (p->n_open == p->open_cap) {
        if (!sim_grow(&p->open, &p->open_cap, sizeof *p->open, 64)) {
            p->oom = true;
            return false;
        }
    }
    open_state *s = &p->open[p->n_open++];
    s->fp[0] = fp[0];
    s->fp[1] = fp[1];
    s->faults = f;
    s->events = before;
    s->at = p->ch.n;
    s->max_events = 0;
    for (int r = 0; r <= need; r++) {
        s->runs0[r] = p->runs[f + r];
        s->events0[r] = p->events[f + r];
    }
    return false;
}

/* What explore_states returns besides 0 and -1: the plain enumeration
 * must decide (a run with the measure, a budget passed). */
#define PLAIN 1

/* Every run that follows want[0..n_want) and then changes choices past
 * it, depth first: the run, then from its last choice back to n_want
 * each other option; a state met before counts its runs from the memo.
 * Returns 0, -1 with a sentence, or PLAIN. */
static int explore_states(prover *p, const uint8_t *want, size_t n_want, char *msg, size_t n)
{
    const sim_prove_opts *o = p->o;
    size_t base = p->n_open;
    p->states_from = n_want;
    p->last_n = SIZE_MAX;
    p->cut = false;
    sim_counts c;
    if (run_one(p, want, n_want, NULL, &c, msg, n) != 0)
        return PLAIN; /* the plain enumeration gives the error as it meets it */
    if (p->oom) {
        snprintf(msg, n, "not enough memory to prove the board");
        return -1;
    }
    int64_t budget = p->lim->max_board_events > 0 ? p->lim->max_board_events : INT64_MAX;
    p->work_runs++;
    p->work_events += c.events;
    if ((o->max_runs > 0 && p->work_runs > o->max_runs) || p->work_events > budget)
        return PLAIN;
    if (!p->cut) {
        if (sim_measure_value(&c, o->measure, p->cost) > 0)
            return PLAIN; /* which such run is shown: the plain order decides */
        count_runs(p, p->ch.faults, 1, c.events, c.events);
    }
    size_t nc = p->ch.n;
    uint8_t *pick = malloc(4 * nc + 1);
    if (!pick) {
        snprintf(msg, n, "not enough memory to prove the board");
        return -1;
    }
    uint8_t *opts = pick + nc, *kind = opts + nc, *faults_before = kind + nc;
    if (nc > 0) { /* a run with no choice has no list */
        memcpy(pick, p->ch.pick, nc);
        memcpy(opts, p->ch.opts, nc);
        memcpy(kind, p->ch.kind, nc);
    }
    for (size_t i = 0, f = 0; i < nc; i++) {
        faults_before[i] = (uint8_t)f;
        f += kind[i] == CH_FAULT && pick[i];
    }
    int rc = 0;
    for (size_t i = nc; rc == 0 && i-- > n_want;) {
        while (p->n_open > base && p->open[p->n_open - 1].at > i)
            close_state(p);
        if (faults_before[i] + (kind[i] == CH_FAULT) > o->faults)
            continue;
        uint8_t was = pick[i];
        for (uint32_t opt = 1; rc == 0 && opt < opts[i]; opt++) {
            pick[i] = (uint8_t)opt;
            rc = explore_states(p, pick, i + 1, msg, n);
        }
        pick[i] = was;
    }
    free(pick);
    if (rc == 0)
        while (p->n_open > base)
            close_state(p);
    return rc;
}

/* The proof by explore_states: 0 (out's numbers set), -1 with a
 * sentence, or PLAIN. */
static int prove_by_states(prover *p, sim_proof *out, char *msg, size_t n)
{
    p->ch.at_event = at_state;
    p->ch.ctx = p;
    int rc = explore_states(p, NULL, 0, msg, n);
    p->ch.at_event = NULL;
    if (rc != 0)
        return rc;
    int64_t runs = 0, events = 0;
    for (int f = 0; f <= p->o->faults; f++) {
        runs += p->runs[f];
        events += p->events[f];
    }
    int64_t budget = p->lim->max_board_events > 0 ? p->lim->max_board_events : INT64_MAX;
    if ((p->o->max_runs > 0 && runs > p->o->max_runs) || events > budget)
        return PLAIN; /* the plain enumeration says when it passed */
    out->runs = out->executions = runs;
    out->events = events;
    return 0;
}

#endif

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

/* The opening sim_prove_estimate and sim_prove share: the board checked,
 * the claim's options checked, the driven model made. Returns 0, or -1
 * with a sentence (p then holds nothing to close). */
static int prover_open(prover *p, const sim_board *b, const sim_limits *lim,
                       const sim_prove_opts *o, char *msg, size_t n)
{
    memset(p, 0, sizeof *p);
    if (sim_board_hops(b) == 0) { /* the check's sentence */
        sim_model_free(driven_model(b, lim, msg, n));
        return -1;
    }
    if (check_opts(b, o, msg, n) != 0)
        return -1;
    p->b = b;
    p->lim = lim;
    p->o = o;
    p->m = driven_model(b, lim, msg, n);
    if (!p->m)
        return -1;
    p->m->drive = &p->ch;
    return 0;
}

static void prover_close(prover *p)
{
    for (size_t f = 0; f < p->n_levels; f++) {
        for (size_t i = 0; i < p->level[f].n; i++)
            free(p->level[f].v[i].c);
        free(p->level[f].v);
    }
    free(p->level);
    free(p->keys);
    free(p->slot_of);
    free(p->memo);
    free(p->open);
    choice_free(&p->ch);
    sim_model_free(p->m);
}

/* The estimate (sim_prove_estimate's numbers); -1 with a sentence. */
static int predict(prover *p, int64_t *runs, int64_t *events, char *msg, size_t n)
{
    double r = 0, e = 0;
    int64_t first = 0;
    if (estimate(p, &r, &e, &first, msg, n) != 0)
        return -1;
    *runs = r < 9e18 ? (int64_t)(r + 0.5) : INT64_MAX;
    /* the walks' events, and no fewer than the fault-free run's each */
    double w = r * (double)first > e ? r * (double)first : e;
    *events = w < 9e18 ? (int64_t)w : INT64_MAX;
    return 0;
}

int sim_prove_estimate(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o,
                       int64_t *runs, int64_t *events, char *msg, size_t n)
{
    sim_limits def = sim_limits_default();
    prover p;
    if (prover_open(&p, b, lim ? lim : &def, o, msg, n) != 0)
        return -1;
    int rc = predict(&p, runs, events, msg, n);
    prover_close(&p);
    return rc;
}

int sim_prove(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o, sim_proof *out,
              char *msg, size_t n)
{
    memset(out, 0, sizeof *out);
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    prover p;
    if (prover_open(&p, b, lim, o, msg, n) != 0)
        return -1;
    out->jobs = o->jobs;
    out->faults = o->faults;
    p.cost = sim_monthly_cost(b);
    int rc = -1;
    int64_t events = 0;
    if (predict(&p, &out->estimate, &events, msg, n) != 0)
        goto done;
    int64_t budget = lim->max_board_events > 0 ? lim->max_board_events : INT64_MAX;
    if ((o->max_runs > 0 && out->estimate > o->max_runs) || events > budget) {
        too_big(&p, out->estimate, false, msg, n);
        goto done;
    }
#ifndef SIM_REPLAY_ONLY
    if (!o->plain && !o->brute) {
        int by = prove_by_states(&p, out, msg, n);
        if (by < 0)
            goto done;
        if (by == 0) {
            out->holds = o->sometimes ? out->found : !out->found;
            rc = 0;
            goto done;
        }
    }
#endif
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
    prover_close(&p);
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
    sim_result r;
    sim_board one = *b; /* one run, as a proof makes it */
    one.replications = 1;
    one.until = 0;
    if (sim_run_choices(&one, lim, trace != NULL, choices, n_choices, &r, msg, n) != 0)
        return -1;
    if (measures)
        for (int k = 0; k < SIM_M_COUNT; k++)
            measures[k] = r.m[k].mean;
    if (trace) {
        *trace = r.trace;
        *n_trace = r.n_trace;
        r.trace = NULL;
    }
    sim_result_free(&r);
    return 0;
}

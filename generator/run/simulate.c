/* simulate.c — the run stage of a build: every board variant (board file,
 * level combination, chart point) simulated once, within a work budget
 * checked before anything runs and enforced while it runs; identical
 * variants share one run, cached results are taken as they are, the rest
 * run on --jobs threads, and beside them the boards' proofs. Then the
 * content's claims are checked against what was measured. */
#include "run/simulate.h"
#include "base/fmt.h"
#include "base/spans.h"
#include "load/board.h"
#include "run/cache.h"
#include "run/results.h"
#include "simcore.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The events every variant of a build may take together, by
 * sim_events_estimate (an upper bound but for lossy outbox relays: typical
 * boards take a quarter of it). At 15 to 40 million events a second on one core of the bench
 * machine, the limit is about 25 s on its two cores (docs/architecture.md, Limits). */
#define SITE_MAX_EVENTS 800000000

/* One variant to simulate, with where its work comes from. */
typedef struct {
    bp_variant *b;
    const char *path; /* the board, level or chart file, for messages */
    bp_pos pos;
    const char *what; /* "board", "level", "chart" */
    size_t group;     /* variants of one file share a group */
    size_t same_as;   /* index of the earlier identical variant, or SIZE_MAX */
    int64_t events;   /* its estimate: runs × sim_events_estimate (0 for a repeat) */
    sim_limits lim;   /* its limits while it runs (max_board_events: its share) */
    buf key;          /* cache key */
} run_item;

typedef struct {
    run_item *items;
    size_t *order; /* indices into items, in the order they start: the largest estimate first */
    site *s;
    bp_variant **proofs; /* the proofs made beside the runs, first: the largest first */
    size_t n_proofs;
    const atomic_int *cancel; /* site_options.cancel */
} run_queue;

static void prove_at(run_queue *q, bp_variant *b);

static void run_at(void *ctx, size_t i)
{
    run_queue *q = ctx;
    double t0 = spans_now();
    if (i < q->n_proofs) {
        prove_at(q, q->proofs[i]);
        span_add("proof", q->proofs[i]->board->id, t0);
        return;
    }
    run_item *it = &q->items[q->order[i - q->n_proofs]];
    bp_variant *b = it->b;
    if (q->cancel && atomic_load(q->cancel)) { /* the build stops: nothing is reported */
        b->run_failed = 1;
        snprintf(b->run_error, sizeof b->run_error, "interrupted");
    } else if (sim_run(&b->board->sim, &it->lim, b->want_trace, &b->result, b->run_error,
                       sizeof b->run_error) != 0)
        b->run_failed = 1;
    b->ran = true;
    if (spans_on()) {
        char name[256];
        snprintf(name, sizeof name, "%s %s (%s)", it->what, b->board->id, it->path);
        span_add("run", name, t0);
    }
}

typedef struct {
    run_item *v;
    size_t n, cap, groups;
} item_list;

static void add_item(item_list *l, bp_variant *b, const char *path, bp_pos pos, const char *what)
{
    if (!b->board || b->ran)
        return;
    l->v = xgrow(l->v, sizeof *l->v, &l->cap, l->n + 1);
    run_item *it = &l->v[l->n++];
    memset(it, 0, sizeof *it);
    it->b = b;
    it->path = path;
    it->pos = pos;
    it->what = what;
    it->group = l->groups;
    it->same_as = SIZE_MAX;
}

/* Every variant, in a fixed order: board files in first-use order, then
 * each level's combinations, then each chart's points. */
static void collect(const site *s, item_list *l)
{
    for (size_t i = 0; i < s->n_boards; i++, l->groups++) {
        const bp_board *b = s->boards[i]->board;
        if (b)
            add_item(l, s->boards[i], b->path, b->traffic_pos, "board");
    }
    for (size_t i = 0; i < s->n_levels; i++, l->groups++) {
        const slevel *sl = s->levels[i];
        if (sl->loaded)
            for (size_t c = 0; c < sl->n_variants; c++)
                add_item(l, &sl->combos[c], sl->level->path, sl->level->pos, "level");
    }
    for (size_t i = 0; i < s->n_charts; i++, l->groups++) {
        const schart *sc = s->charts[i];
        for (size_t k = 0; k < sc->n_points; k++)
            add_item(l, &sc->points[k], sc->chart->path, sc->chart->pos, "chart");
    }
}

/* Mark each variant identical to an earlier one (same cache key: a level
 * combination that is also a board of its own) and give the others their
 * bound. Keys are found through a hash table: a site may have thousands. */
static void find_repeats(site *s, item_list *l)
{
    size_t cap = 16;
    while (cap < 2 * l->n)
        cap *= 2;
    size_t *slots = xcalloc(cap, sizeof *slots); /* item index + 1; 0 is free */
    for (size_t i = 0; i < l->n; i++) {
        run_item *it = &l->v[i];
        cache_key(&it->key, &it->b->board->sim, &s->lim, it->b->want_trace);
        size_t h = (size_t)hash64(it->key.data, it->key.len, 0) & (cap - 1);
        for (; slots[h]; h = (h + 1) & (cap - 1)) {
            const run_item *o = &l->v[slots[h] - 1];
            if (o->key.len == it->key.len && memcmp(o->key.data, it->key.data, o->key.len) == 0) {
                it->same_as = slots[h] - 1;
                break;
            }
        }
        if (it->same_as != SIZE_MAX)
            continue;
        slots[h] = i + 1;
        it->events = sim_events_estimate(&it->b->board->sim, NULL, NULL) *
                     board_max_replications(it->b->board);
    }
    free(slots);
}

/* The proofs' part of the budget, after the runs' *total: each board's
 * claim by sim_prove_estimate (its first run only), reported at the claim
 * that crosses SITE_MAX_EVENTS. A board the proof cannot run is left to
 * prove_claims to report. Returns -1 when over. */
static int proof_budget(site *s, int64_t *total)
{
    for (size_t i = 0; i < s->n_boards; i++) {
        bp_variant *b = s->boards[i];
        b->proof_events = 0;
        if (!b->board || !b->board->claim.present || b->proved)
            continue;
        const bp_board *bb = b->board;
        const bp_claim *c = &bb->claim;
        sim_prove_opts o = board_claim_opts(c);
        sim_board pb = sim_prove_board(&bb->sim, c->jobs);
        int64_t runs = 0, events = 0;
        char msg[512];
        if (sim_prove_estimate(&pb, &s->lim, &o, &runs, &events, msg, sizeof msg) != 0)
            continue;
        b->proof_events = events;
        *total = events > INT64_MAX - *total ? INT64_MAX : *total + events;
        if (*total <= SITE_MAX_EVENTS)
            continue;
        diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col,
                   "this board's proof of %d jobs with up to %d faults needs about %lld runs "
                   "and may take up to %lld simulated events, which brings the site's to %lld; "
                   "the limit is %d per build (about half a minute): lower jobs or faults",
                   c->jobs, c->faults, (long long)runs, (long long)events, (long long)*total,
                   SITE_MAX_EVENTS);
        return -1;
    }
    return 0;
}

/* The budget, before anything runs: the first board, level or chart with
 * which the build's bound passes SITE_MAX_EVENTS is reported there. Then
 * each variant gets its share of the budget, in proportion to its bound,
 * as the limit it runs under: together they cannot pass the budget, and
 * no share is below the variant's own bound. Returns -1 when over. */
static int budget(site *s, item_list *l)
{
    int64_t total = 0;
    for (size_t i = 0; i < l->n;) {
        size_t g = l->v[i].group, first = i, variants = 0;
        int64_t group = 0;
        for (; i < l->n && l->v[i].group == g; i++) {
            group += l->v[i].events;
            variants++;
        }
        total += group;
        if (total <= SITE_MAX_EVENTS)
            continue;
        const run_item *it = &l->v[first];
        const char *many = it->what[0] == 'l' ? "combinations" : "points";
        char what[64], fewer[64] = "";
        if (variants == 1) {
            snprintf(what, sizeof what, "this %s", it->what);
        } else {
            snprintf(what, sizeof what, "this %s's %zu %s", it->what, variants, many);
            snprintf(fewer, sizeof fewer, ", or offer fewer %s", many);
        }
        diag_error(&s->d, it->path, it->pos.line, it->pos.col,
                   "%s may take up to %lld simulated events, which brings the site's to %lld; "
                   "the limit is %d per build (about half a minute): lower jobs, tries or "
                   "replications%s",
                   what, (long long)group, (long long)total, SITE_MAX_EVENTS, fewer);
        return -1;
    }
    if (proof_budget(s, &total) != 0)
        return -1;
    for (size_t i = 0; i < l->n; i++) {
        run_item *it = &l->v[i];
        it->lim = s->lim;
        it->lim.max_board_events =
            simulate_event_share(it->events, total, SITE_MAX_EVENTS, s->lim.max_board_events);
    }
    return 0;
}

int64_t simulate_event_share(int64_t bound, int64_t total, int64_t budget, int64_t max_each)
{
    /* bound × budget ÷ total rounded down (so the shares sum to at most
     * budget), without overflow for totals and budgets below 2^31 each */
    int64_t share = total > 0 ? bound / total * budget + bound % total * budget / total : budget;
    return share < max_each ? share : max_each;
}

/* A cached result ran under an earlier build's limits: it must also fit
 * this build's share, or the build would depend on the cache. */
static bool within_share(const run_item *it, const sim_result *r)
{
    double events = r->m[SIM_M_EVENTS].mean * r->replications;
    return events <= (double)it->lim.max_board_events;
}

static void share_result(bp_variant *b, const bp_variant *from)
{
    b->ran = true;
    b->run_failed = from->run_failed;
    memcpy(b->run_error, from->run_error, sizeof b->run_error);
    if (from->run_failed)
        return;
    results_copy(&b->result, &from->result);
}

static size_t early_proofs(site *s, bp_variant ***out);

/* For largest_first: an item's index and its estimate. */
typedef struct {
    int64_t events;
    size_t i;
} sized;

static int by_size(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->events != y->events)
        return x->events > y->events ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The n items of todo in the order the threads take them: the largest
 * estimate first (then in item order), so that no large run starts last
 * and keeps one core busy while the others have nothing left (caller
 * frees). Results do not depend on the order. */
static size_t *largest_first(const item_list *l, const size_t *todo, size_t n)
{
    sized *v = xcalloc(n + 1, sizeof *v);
    for (size_t k = 0; k < n; k++)
        v[k] = (sized){l->v[todo[k]].events, todo[k]};
    qsort(v, n, sizeof *v, by_size);
    size_t *order = xcalloc(n + 1, sizeof *order);
    for (size_t k = 0; k < n; k++)
        order[k] = v[k].i;
    free(v);
    return order;
}

void simulate_site(site *s)
{
    item_list l = {0};
    collect(s, &l);
    find_repeats(s, &l);
    if (budget(s, &l) != 0)
        goto out;

    /* Cached results first (in this thread), then the misses in parallel. */
    size_t *todo = xcalloc(l.n + 1, sizeof *todo);
    size_t n_todo = 0;
    for (size_t i = 0; i < l.n; i++) {
        run_item *it = &l.v[i];
        if (it->same_as != SIZE_MAX)
            continue;
        bp_variant *b = it->b;
        if (s->opt.cache && cache_get(s->opt.cache, &it->key, &b->result)) {
            b->ran = true;
            s->cached++;
            if (!within_share(it, &b->result)) {
                sim_result_free(&b->result);
                b->run_failed = 1;
                snprintf(b->run_error, sizeof b->run_error,
                         "the board needs more than %lld events across its %d runs; lower jobs, "
                         "tries or replications",
                         (long long)it->lim.max_board_events, board_max_replications(b->board));
            }
            continue;
        }
        todo[n_todo++] = i;
    }
    run_queue q = {l.v, largest_first(&l, todo, n_todo), s, NULL, 0, s->opt.cancel};
    q.n_proofs = early_proofs(s, &q.proofs);
    threads_for_each(s->opt.jobs, n_todo + q.n_proofs, n_todo + q.n_proofs, run_at, NULL, &q);
    free(q.proofs);
    free(q.order);
    s->runs += n_todo;
    if (s->opt.cancel && atomic_load(s->opt.cancel)) {
        free(todo); /* the build says so; nothing ran to the end is kept */
        goto out;
    }

    /* Share, report and store in a fixed order, whatever the threads did; a
     * repeat of a failed run fails the same way (the same line, said once). */
    for (size_t i = 0, k = 0; i < l.n; i++) {
        run_item *it = &l.v[i];
        bp_variant *b = it->b;
        bool ran_here = k < n_todo && todo[k] == i;
        if (ran_here)
            k++;
        if (it->same_as != SIZE_MAX) {
            share_result(b, l.v[it->same_as].b);
            s->shared++;
        }
        if (b->run_failed)
            diag_error(&s->d, b->board->path, b->board->traffic_pos.line, b->board->traffic_pos.col,
                       "%s", b->run_error);
        else if (ran_here && s->opt.cache)
            cache_put(s->opt.cache, &it->key, &b->result);
        if (!b->run_failed && it->same_as == SIZE_MAX)
            s->events_run += (int64_t)(b->result.m[SIM_M_EVENTS].mean * b->result.replications);
    }
    free(todo);
out:
    for (size_t i = 0; i < l.n; i++)
        buf_free(&l.v[i].key);
    free(l.v);
}

/* ------------------------------------------------------------ claims */

/* "Ack check: On, Concurrency: 2": combination c in the reader's words. */
static void combo_text(buf *b, const bp_level *l, size_t c)
{
    int opts[8]; /* a level has at most 8 choices (load/level.c) */
    level_combo(l, c, opts);
    for (size_t i = 0; i < l->n_choices; i++)
        buf_printf(b, "%s%s: %s", i ? ", " : "", l->choices[i].label,
                   l->choices[i].options[opts[i]].label);
}

/* Why an unwinnable level is: each goal no combination meets, with the best
 * value any combination's worst replication reached and which one, then
 * the combination that misses the fewest goals. */
static void unwinnable_text(buf *b, const slevel *sl)
{
    const bp_level *l = sl->level;
    const sim_goal *goals = sl->combos[0].board->sim.goals;
    size_t closest = 0, fewest = (size_t)-1;
    for (size_t c = 0; c < sl->n_variants; c++) {
        size_t missed = 0;
        for (int m = 0; m < SIM_M_COUNT; m++)
            missed += sl->combos[c].result.goals[m].present && !sl->combos[c].result.goals[m].pass;
        if (missed < fewest) {
            fewest = missed;
            closest = c;
        }
    }
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &goals[m];
        if (!sl->combos[0].result.goals[m].present)
            continue;
        bool met = false;
        size_t best = 0;
        for (size_t c = 0; c < sl->n_variants && !met; c++) {
            const sim_goal_result *r = &sl->combos[c].result.goals[m];
            const sim_goal_result *was = &sl->combos[best].result.goals[m];
            met = r->pass;
            if (g->has_max ? r->worst < was->worst : r->worst > was->worst)
                best = c;
        }
        if (met)
            continue;
        buf_printf(b, "; no combination meets %s ", sim_measure_name((sim_measure)m));
        if (g->has_max && g->has_min) {
            buf_puts(b, "from ");
            fmt_measure(b, (sim_measure)m, g->min);
            buf_puts(b, " to ");
            fmt_measure(b, (sim_measure)m, g->max);
        } else {
            buf_puts(b, g->has_max ? "at most " : "at least ");
            fmt_measure(b, (sim_measure)m, g->has_max ? g->max : g->min);
        }
        buf_puts(b, " (at best ");
        fmt_measure(b, (sim_measure)m, sl->combos[best].result.goals[m].worst);
        buf_puts(b, ", with ");
        combo_text(b, l, best);
        buf_putc(b, ')');
    }
    buf_puts(b, "; the closest combination, ");
    combo_text(b, l, closest);
    buf_printf(b, ", misses %zu goal%s", fewest, fewest == 1 ? "" : "s");
}

/* A part by id (author) or by label, its first letter lowered unless the
 * label starts with a capitalised word ("payment processor", "HTTP API"). */
static void put_part(buf *w, const bp_board *bb, int part, bool reader)
{
    const char *s = reader ? bb->parts[part].label : bb->parts[part].id;
    if (reader && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z')) {
        buf_putc(w, (char)(s[0] - 'A' + 'a'));
        s++;
    }
    buf_puts(w, s);
}

void simulate_fault_words(buf *w, const bp_board *bb, const sim_proof *p, bool reader)
{
    static const char *const author[] = {"a crash at", "a lost reply", "a lost send",
                                         "a lost call", "a lost call response",
                                         "a failed call at", "a failed delivery at"};
    static const char *const words[] = {"a crash of the", "a lost acknowledgment from the",
                                        "a lost message from the", "a lost call from the",
                                        "a lost answer to the", "a failed call at the",
                                        "a failed delivery at the"};
    const char *const *say = reader ? words : author;
    size_t n = 0;
    for (size_t i = 0; i < p->n_trace; i++) {
        const sim_trace_entry *e = &p->trace[i];
        int what = -1;
        if (e->kind == SIM_TR_CRASH)
            what = 0;
        else if (e->kind == SIM_TR_LOST_REPLY)
            what = 1;
        else if (e->kind == SIM_TR_LOST_REQUEST && i > 0 &&
                 (p->trace[i - 1].kind == SIM_TR_SEND || p->trace[i - 1].kind == SIM_TR_PUBLISH))
            what = 2;
        else if (e->kind == SIM_TR_CALL_LOST && e->detail != 0)
            what = e->detail == 1 ? 3 : 4;
        else if (e->kind == SIM_TR_CALL_FAILED)
            what = 5;
        else if (e->kind == SIM_TR_FAILED && e->detail == 0)
            what = 6;
        if (what < 0)
            continue;
        buf_puts(w, n++ ? ", " : "");
        buf_printf(w, "%s ", say[what]);
        put_part(w, bb, e->part, reader);
        if (e->peer >= 0 && e->kind != SIM_TR_CRASH && e->kind != SIM_TR_CALL_FAILED &&
            e->kind != SIM_TR_FAILED) {
            buf_puts(w, reader ? " to the " : " -> ");
            put_part(w, bb, e->peer, reader);
        }
        buf_printf(w, " (%s %lld, %s", reader ? board_noun(bb, false) : "job", (long long)e->job,
                   reader ? "at " : "");
        fmt_seconds(w, (double)e->t_us / 1e6);
        buf_putc(w, ')');
    }
    if (!n)
        buf_puts(w, "no fault at all");
}

/* A proof's limits when left of the build's budget is what the runs and
 * the proofs before it did not take. */
static sim_limits proof_limits(const site *s, int64_t left)
{
    sim_limits lim = s->lim;
    if (left < lim.max_board_events)
        lim.max_board_events = left > 0 ? left : 1;
    return lim;
}

static int64_t budget_of(const sim_limits *lim)
{
    return lim->max_board_events > 0 ? lim->max_board_events : INT64_MAX;
}

/* The proofs made beside the runs (on their threads, so that the build's
 * serial part is not its biggest proof): each board's claim that its
 * estimate could size and the cache does not hold, the one estimated
 * largest first (they start first). Each runs within all of the build's
 * budget (as if nothing else ran); prove_claims then keeps it only if it
 * also fits what the runs and the proofs before it left, and otherwise
 * proves it again within that, one after another as before: whatever the
 * threads did, a build's proofs, numbers and errors are those of proving
 * in board order, each within what the ones before left. */
static size_t early_proofs(site *s, bp_variant ***out)
{
    size_t n = 0;
    bp_variant **v = xcalloc(s->n_boards + 1, sizeof *v);
    for (size_t i = 0; i < s->n_boards; i++) {
        bp_variant *b = s->boards[i];
        b->proof_early = false;
        if (!b->board || !b->board->claim.present || b->proved || b->proof_events <= 0)
            continue;
        if (s->opt.cache) {
            const bp_claim *c = &b->board->claim;
            sim_prove_opts o = board_claim_opts(c);
            sim_board pb = sim_prove_board(&b->board->sim, c->jobs);
            buf key;
            buf_init(&key);
            cache_proof_key(&key, &pb, &s->lim, &o);
            sim_proof p;
            bool hit = cache_get_proof(s->opt.cache, &key, &p);
            buf_free(&key);
            if (hit) { /* prove_claims takes it from the cache */
                sim_proof_free(&p);
                continue;
            }
        }
        size_t k = n++; /* by estimate, largest first; ties in board order */
        for (; k > 0 && v[k - 1]->proof_events < b->proof_events; k--)
            v[k] = v[k - 1];
        v[k] = b;
    }
    *out = v;
    return n;
}

static void prove_at(run_queue *q, bp_variant *b)
{
    if (q->cancel && atomic_load(q->cancel))
        return; /* the build stops */
    const bp_claim *c = &b->board->claim;
    sim_prove_opts o = board_claim_opts(c);
    sim_board pb = sim_prove_board(&b->board->sim, c->jobs);
    sim_limits lim = proof_limits(q->s, SITE_MAX_EVENTS);
    char msg[512];
    b->proof_early = sim_prove(&pb, &lim, &o, &b->proof, msg, sizeof msg) == 0;
}

/* sim_prove through the cache: a proof stored by an earlier build under
 * the same key (and within what this build's budget leaves, lim) is taken
 * with its counterexample's events replayed from its choices; a new one is
 * stored. Returns 0, or -1 with a sentence in msg. */
static int prove_cached(site *s, const sim_board *pb, const sim_limits *lim,
                        const sim_prove_opts *o, sim_proof *out, char *msg, size_t n)
{
    buf key;
    buf_init(&key);
    int rc = -1;
    if (s->opt.cache) {
        cache_proof_key(&key, pb, &s->lim, o);
        if (cache_get_proof(s->opt.cache, &key, out)) {
            if (out->events <= lim->max_board_events &&
                (!out->found || sim_replay(pb, lim, out->choices, out->n_choices, &out->trace,
                                           &out->n_trace, NULL, msg, n) == 0)) {
                out->trace_truncated = out->found && out->n_trace >= lim->max_trace;
                rc = 0;
                goto done;
            }
            sim_proof_free(out); /* proved again: this build's budget says what happens */
        }
    }
    rc = sim_prove(pb, lim, o, out, msg, n);
    if (rc == 0 && s->opt.cache)
        cache_put_proof(s->opt.cache, &key, out);
done:
    buf_free(&key);
    return rc;
}

/* Prove each board's claim (expect: {never: ...}) and report one that
 * does not hold, with its shortest counterexample's faults. */
static void prove_claims(site *s)
{
    for (size_t i = 0; i < s->n_boards; i++) {
        bp_variant *b = s->boards[i];
        if (!b->board || !b->board->claim.present || b->proved)
            continue;
        const bp_board *bb = b->board;
        const bp_claim *c = &bb->claim;
        sim_prove_opts o = board_claim_opts(c);
        sim_board pb = sim_prove_board(&bb->sim, c->jobs);
        /* each proof within what the build's runs and the proofs before it
         * left of the budget: one made beside the runs is kept when it fits
         * that (its estimate too, which sim_prove checks first), for then
         * proving it here would make the same */
        sim_limits lim = proof_limits(s, SITE_MAX_EVENTS - s->events_run);
        char msg[512];
        int rc;
        if (b->proof_early && b->proof.events <= budget_of(&lim) &&
            b->proof_events <= budget_of(&lim)) {
            rc = 0;
            if (s->opt.cache) {
                buf key;
                buf_init(&key);
                cache_proof_key(&key, &pb, &s->lim, &o);
                cache_put_proof(s->opt.cache, &key, &b->proof);
                buf_free(&key);
            }
        } else {
            if (b->proof_early)
                sim_proof_free(&b->proof);
            rc = prove_cached(s, &pb, &lim, &o, &b->proof, msg, sizeof msg);
        }
        b->proof_early = false;
        if (rc != 0) {
            diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col, "%s", msg);
            continue;
        }
        b->proved = true;
        s->events_run += b->proof.events;
        if (b->proof.holds)
            continue;
        const char *m = sim_measure_name(c->measure);
        if (c->sometimes) {
            diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col,
                       "the board claims 'sometimes %s' but none of the %lld ways %d jobs can "
                       "meet up to %d fault%s has any",
                       m, (long long)b->proof.runs, c->jobs, c->faults, c->faults == 1 ? "" : "s");
            continue;
        }
        buf w;
        buf_init(&w);
        simulate_fault_words(&w, bb, &b->proof, false);
        diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col,
                   "the board claims 'never %s' for %d jobs with up to %d faults, but a run "
                   "with %d fault%s has %g: %s",
                   m, c->jobs, c->faults, b->proof.cx_faults, b->proof.cx_faults == 1 ? "" : "s",
                   b->proof.cx_value, w.data);
        buf_free(&w);
    }
}

void simulate_check_claims(site *s)
{
    prove_claims(s);
    for (size_t i = 0; i < s->n_boards; i++) {
        const bp_variant *b = s->boards[i];
        if (!b->board || !b->ran || b->run_failed || b->result.expect_ok)
            continue;
        const bp_board *bb = b->board;
        buf why;
        buf_init(&why);
        for (int m = 0; m < SIM_M_COUNT; m++) {
            if (!b->result.goals[m].present)
                continue;
            if (why.len)
                buf_puts(&why, ", ");
            buf_printf(&why, "%s ", sim_measure_name((sim_measure)m));
            fmt_measure(&why, (sim_measure)m, b->result.goals[m].worst);
            buf_printf(&why, " (%s)", b->result.goals[m].pass ? "pass" : "fail");
        }
        diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col,
                   "the board claims 'expect: %s' but the simulator measured that it %s: %s",
                   bb->sim.expect == SIM_EXPECT_PASS ? "pass" : "fail",
                   b->result.all_goals_pass ? "meets every goal" : "misses a goal",
                   why.data ? why.data : "no goals");
        buf_free(&why);
    }
    for (size_t i = 0; i < s->n_levels; i++) {
        const slevel *sl = s->levels[i];
        if (!sl->loaded || sl->level->sandbox) /* free play claims nothing */
            continue;
        bool any = false, failed = false;
        for (size_t c = 0; c < sl->n_variants; c++) {
            failed |= sl->combos[c].run_failed != 0 || !sl->combos[c].ran;
            any |= sl->combos[c].result.all_goals_pass;
        }
        if (failed)
            continue;
        const bp_level *l = sl->level;
        if (!any) {
            buf why;
            buf_init(&why);
            unwinnable_text(&why, sl);
            diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                       "level '%s' cannot be won: none of its %zu combinations meets every goal%s",
                       l->id, l->n_combos, why.len ? why.data : "");
            buf_free(&why);
        } else if (sl->combos[sl->start].result.all_goals_pass)
            diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                       "level '%s' is already won at the start: its starting choices meet every "
                       "goal",
                       l->id);
    }
}

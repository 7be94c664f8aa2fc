/* live.c — a live level's board variants and its wire bytes for the page.
 *
 * The reader's browser runs the board exactly as the build would: the page
 * holds the starting state's encoding (sim_wire_encode: the board as the
 * simulator receives it, catalog defaults and the level's choices applied,
 * with the site's limits) and, per choice, the slot of bytes its setting
 * takes and what each of its options puts there. Slots are found by
 * encoding each option with the other choices at their start and keeping
 * the bytes that differ from the start's; each lies inside its setting's
 * own field, so slots of different settings never overlap and any state is
 * the start's bytes with every choice's slot replaced. No decoding of the
 * format is repeated here or in the page, and every state the build makes
 * is checked against the encoder byte for byte. */
#include "load/live.h"
#include "load/board.h"
#include "load/level.h"
#include "wire.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *p;
    size_t n;
} bytes;

static bytes encode(const site *s, const bp_board *b)
{
    bytes e;
    e.n = sim_wire_encode(&b->sim, &s->lim, false, NULL, 0);
    e.p = xmalloc(e.n ? e.n : 1);
    sim_wire_encode(&b->sim, &s->lim, false, e.p, e.n);
    return e;
}

static bool same(bytes a, bytes b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bp_board *build(site *s, const bp_level *l, const int *opts, const char *board_path,
                       const ynode *tree)
{
    return level_variant(l, opts, board_path, tree, NULL, 0, s->cat, &s->lim, &s->d);
}

/* A range without a start starts at the board's own value: the value whose
 * state encodes as the board does with that choice left out. */
static int own_starts(site *s, bp_level *l, const char *board_path, const ynode *tree)
{
    int own[8];
    bool any = false;
    for (size_t i = 0; i < l->n_choices; i++) {
        own[i] = l->choices[i].start;
        any |= own[i] < 0;
    }
    if (!any)
        return 0;
    bp_board *b = build(s, l, own, board_path, tree);
    if (!b)
        return -1;
    bytes as_is = encode(s, b);
    board_free(b);
    int rc = 0;
    for (size_t i = 0; i < l->n_choices && rc == 0; i++) {
        bp_choice *ch = &l->choices[i];
        if (own[i] >= 0)
            continue;
        int opts[8];
        memcpy(opts, own, sizeof opts);
        for (size_t k = 0; k < ch->n_options && ch->start < 0; k++) {
            opts[i] = (int)k;
            if (!(b = build(s, l, opts, board_path, tree))) {
                rc = -1;
                break;
            }
            bytes e = encode(s, b);
            if (same(e, as_is))
                ch->start = (int)k;
            free(e.p);
            board_free(b);
        }
        if (rc == 0 && ch->start < 0) {
            diag_error(&s->d, l->path, ch->range_pos.line, ch->range_pos.col,
                       "the board's own %s is none of this range's values: give the choice a "
                       "start (one of them)",
                       ch->set);
            rc = -1;
        }
    }
    free(as_is.p);
    return rc;
}

/* The variants: every combination (a level with goals), or each
 * combination of the option lists with the ranges at their start (a
 * sandbox). Fills sl->combos, sl->opts, sl->start. */
static int make_variants(site *s, slevel *sl, const char *board_path, const ynode *tree)
{
    const bp_level *l = sl->level;
    size_t nc = l->n_choices, n = l->n_combos;
    if (l->sandbox) {
        n = 1;
        for (size_t i = 0; i < nc; i++)
            n *= l->choices[i].range ? 1 : l->choices[i].n_options;
    }
    sl->combos = xcalloc(n, sizeof *sl->combos);
    sl->opts = xcalloc(n * nc, sizeof *sl->opts);
    sl->n_variants = n;
    for (size_t c = 0; c < n; c++) {
        int *opts = &sl->opts[c * nc];
        if (!l->sandbox) {
            level_combo(l, c, opts);
        } else { /* mixed radix over the option lists, the first slowest */
            size_t rest = c;
            for (size_t i = nc; i-- > 0;) {
                const bp_choice *ch = &l->choices[i];
                if (ch->range) {
                    opts[i] = ch->start;
                } else {
                    opts[i] = (int)(rest % ch->n_options);
                    rest /= ch->n_options;
                }
            }
        }
        bool is_start = true;
        for (size_t i = 0; i < nc; i++)
            is_start &= opts[i] == l->choices[i].start;
        if (is_start)
            sl->start = c;
        bp_variant *b = &sl->combos[c];
        b->file = xstrdup(l->board);
        if (!(b->board = build(s, l, opts, board_path, tree)))
            return -1;
    }
    return 0;
}

/* The index of the variant whose options are opts, or SIZE_MAX. */
static size_t index_of(const slevel *sl, const int *opts)
{
    size_t nc = sl->level->n_choices;
    for (size_t c = 0; c < sl->n_variants; c++)
        if (memcmp(&sl->opts[c * nc], opts, nc * sizeof *opts) == 0)
            return c;
    return SIZE_MAX;
}

/* The variant whose options are opts, or NULL when it was not built. */
static const bp_board *variant_of(const slevel *sl, const int *opts)
{
    size_t c = index_of(sl, opts);
    return c == SIZE_MAX ? NULL : sl->combos[c].board;
}

/* A sweep's points: each value of its slider, the other choices at their
 * start, measured at build time (the chart the page shows first). A
 * sandbox builds the ones it lacks after its drawn variants. */
static int sweep_points(site *s, slevel *sl, const char *board_path, const ynode *tree)
{
    const bp_level *l = sl->level;
    size_t nc = l->n_choices;
    for (size_t i = 0; i < nc; i++) {
        const bp_choice *ch = &l->choices[i];
        if (!ch->has_sweep)
            continue;
        slive_choice *sc = &sl->live->choices[i];
        sc->sweep = xcalloc(ch->n_options, sizeof *sc->sweep);
        for (size_t k = 0; k < ch->n_options; k++) {
            int opts[8];
            memcpy(opts, &sl->opts[sl->start * nc], nc * sizeof *opts);
            opts[i] = (int)k;
            size_t c = index_of(sl, opts);
            if (c == SIZE_MAX) {
                c = sl->n_variants++;
                sl->combos = xrealloc(sl->combos, sl->n_variants * sizeof *sl->combos);
                sl->opts = xrealloc(sl->opts, sl->n_variants * nc * sizeof *sl->opts);
                memset(&sl->combos[c], 0, sizeof sl->combos[c]);
                memcpy(&sl->opts[c * nc], opts, nc * sizeof *opts);
                sl->combos[c].file = xstrdup(l->board);
                if (!(sl->combos[c].board = build(s, l, opts, board_path, tree)))
                    return -1;
            }
            sc->sweep[k] = c;
        }
    }
    return 0;
}

/* A sweep's first pass runs each point with one replication: the slot of
 * the start's bytes that says how many, and what makes it one. It must
 * not touch a choice's slot (a choice that sets the replications). */
static int one_replication(site *s, slevel *sl)
{
    const bp_level *l = sl->level;
    slive *lv = sl->live;
    size_t i = 0;
    while (i < l->n_choices && !l->choices[i].has_sweep)
        i++;
    if (i == l->n_choices)
        return 0;
    sim_board one = sl->combos[sl->start].board->sim;
    one.replications = 1;
    one.until = 0;
    bytes e;
    e.n = sim_wire_encode(&one, &s->lim, false, NULL, 0);
    e.p = xmalloc(e.n ? e.n : 1);
    sim_wire_encode(&one, &s->lim, false, e.p, e.n);
    size_t p = 0, q = 0, n = lv->start_len;
    while (p < e.n && p < n && e.p[p] == lv->start[p])
        p++;
    while (q < e.n - p && q < n - p && e.p[e.n - 1 - q] == lv->start[n - 1 - q])
        q++;
    lv->one_at = p;
    lv->one_end = n - q;
    lv->one_len = e.n - q - p;
    lv->one = xmalloc(lv->one_len ? lv->one_len : 1);
    memcpy(lv->one, e.p + p, lv->one_len);
    free(e.p);
    for (size_t k = 0; k < l->n_choices; k++) {
        const slive_choice *c = &lv->choices[k];
        if (c->end > c->at && lv->one_end > lv->one_at && c->at < lv->one_end &&
            lv->one_at < c->end) {
            diag_error(&s->d, l->path, l->choices[i].sweep_pos.line,
                       l->choices[i].sweep_pos.col,
                       "a sweep's first pass runs each point once, and choice '%s' changes how "
                       "many times the board runs: leave replications out of the choices",
                       l->choices[k].label);
            return -1;
        }
    }
    return 0;
}

/* Choice i's slot: the bytes where its options' encodings (the others at
 * their start) differ from the start's, and what each option puts there. */
static int cut_slot(site *s, slevel *sl, size_t i, const char *board_path, const ynode *tree)
{
    const bp_level *l = sl->level;
    const bp_choice *ch = &l->choices[i];
    slive *lv = sl->live;
    slive_choice *sc = &lv->choices[i];
    size_t no = ch->n_options, nc = l->n_choices;
    bytes *enc = xcalloc(no, sizeof *enc);
    sc->bytes = xcalloc(no, sizeof *sc->bytes);
    sc->len = xcalloc(no, sizeof *sc->len);
    sc->jobs = xcalloc(no, sizeof *sc->jobs);
    sc->reps = xcalloc(no, sizeof *sc->reps);
    int opts[8];
    memcpy(opts, &sl->opts[sl->start * nc], nc * sizeof *opts);
    int rc = 0;
    bytes start = {lv->start, lv->start_len};
    size_t prefix = start.n;
    for (size_t k = 0; k < no && rc == 0; k++) {
        opts[i] = (int)k;
        const bp_board *b = variant_of(sl, opts);
        bp_board *tmp = b ? NULL : build(s, l, opts, board_path, tree);
        if (!b && !(b = tmp)) {
            rc = -1;
            break;
        }
        enc[k] = encode(s, b);
        sc->jobs[k] = b->sim.traffic.jobs;
        sc->reps[k] = board_max_replications(b);
        board_free(tmp);
        size_t p = 0;
        while (p < enc[k].n && p < start.n && enc[k].p[p] == start.p[p])
            p++;
        prefix = p < prefix ? p : prefix;
    }
    /* the common tail, never reaching back into the common head */
    size_t suffix = start.n - prefix;
    for (size_t k = 0; k < no && rc == 0; k++) {
        size_t room = (enc[k].n < start.n ? enc[k].n : start.n) - prefix, q = 0;
        while (q < room && enc[k].p[enc[k].n - 1 - q] == start.p[start.n - 1 - q])
            q++;
        suffix = q < suffix ? q : suffix;
    }
    sc->at = prefix;
    sc->end = start.n - suffix;
    for (size_t k = 0; k < no && rc == 0; k++) {
        sc->len[k] = enc[k].n - suffix - prefix;
        sc->bytes[k] = xmalloc(sc->len[k] ? sc->len[k] : 1);
        memcpy(sc->bytes[k], enc[k].p + prefix, sc->len[k]);
    }
    for (size_t k = 0; k < no; k++)
        free(enc[k].p);
    free(enc);
    return rc;
}

/* The state opts put together from the start's bytes and the slots, as the
 * page does it: the slots in the order they lie (choices that change no
 * byte have none). */
static bytes assemble(const slevel *sl, const int *opts)
{
    const slive *lv = sl->live;
    size_t nc = sl->level->n_choices;
    buf out;
    buf_init(&out);
    size_t at = 0;
    for (;;) {
        size_t next = SIZE_MAX;
        for (size_t i = 0; i < nc; i++)
            if (lv->choices[i].end > lv->choices[i].at && lv->choices[i].at >= at &&
                (next == SIZE_MAX || lv->choices[i].at < lv->choices[next].at))
                next = i;
        if (next == SIZE_MAX)
            break;
        const slive_choice *c = &lv->choices[next];
        buf_put(&out, (const char *)lv->start + at, c->at - at);
        buf_put(&out, (const char *)c->bytes[opts[next]], c->len[opts[next]]);
        at = c->end;
    }
    buf_put(&out, (const char *)lv->start + at, lv->start_len - at);
    bytes b = {(uint8_t *)out.data, out.len};
    if (!b.p)
        b.p = xmalloc(1);
    return b;
}

/* Slots of two choices must not overlap (the same setting twice, or a
 * setting that moves another). */
static int check_slots(site *s, const slevel *sl)
{
    const bp_level *l = sl->level;
    const slive *lv = sl->live;
    for (size_t i = 0; i < l->n_choices; i++) {
        for (size_t j = 0; j < l->n_choices; j++) {
            const slive_choice *a = &lv->choices[i], *b = &lv->choices[j];
            if (i == j || a->end <= a->at || b->end <= b->at)
                continue;
            if (a->at < b->end && b->at < a->end) {
                diag_error(&s->d, l->path, l->choices[j].pos.line, l->choices[j].pos.col,
                           "choices '%s' and '%s' change the same setting of the board; give "
                           "each setting one choice",
                           l->choices[i].label, l->choices[j].label);
                return -1;
            }
        }
    }
    return 0;
}

/* One state: its bytes put together must be the encoder's. */
static int check_state(site *s, slevel *sl, const int *opts, const bp_board *b)
{
    bytes want = encode(s, b), got = assemble(sl, opts);
    int rc = 0;
    if (!same(want, got)) {
        size_t at = 0;
        while (at < want.n && at < got.n && want.p[at] == got.p[at])
            at++;
        const bp_level *l = sl->level;
        diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                   "the page cannot put level '%s' together one choice at a time: one "
                   "combination's board differs at byte %zu from what its choices give one by "
                   "one (the choices change each other's settings)",
                   l->id, at);
        rc = -1;
    }
    sl->live->checked++;
    free(want.p);
    free(got.p);
    return rc;
}

int live_level_load(site *s, slevel *sl, const char *board_path, const ynode *tree)
{
    bp_level *l = sl->level;
    size_t nc = l->n_choices;
    if (own_starts(s, l, board_path, tree) != 0 || make_variants(s, sl, board_path, tree) != 0)
        return -1;
    const bp_board *b0 = sl->combos[sl->start].board;
    if (l->sandbox && b0->sim.until > 0) {
        diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                   "a sandbox has no goals, and its board asks for replications until the goal "
                   "measures are precise: give the board a number of replications");
        return -1;
    }
    slive *lv = sl->live = xcalloc(1, sizeof *lv);
    lv->choices = xcalloc(nc, sizeof *lv->choices);
    bytes start = encode(s, b0);
    lv->start = start.p;
    lv->start_len = start.n;
    /* the diagrams: each combination of the option lists, ranges at their start */
    lv->drawn = xcalloc(sl->n_variants, sizeof *lv->drawn);
    lv->drawn[lv->n_drawn++] = sl->start;
    for (size_t c = 0; c < sl->n_variants; c++) {
        bool ranges_at_start = c != sl->start;
        for (size_t i = 0; i < nc && ranges_at_start; i++)
            ranges_at_start = !l->choices[i].range || sl->opts[c * nc + i] == l->choices[i].start;
        if (ranges_at_start)
            lv->drawn[lv->n_drawn++] = c;
    }
    for (size_t i = 0; i < nc; i++)
        if (cut_slot(s, sl, i, board_path, tree) != 0)
            return -1;
    if (check_slots(s, sl) != 0 || sweep_points(s, sl, board_path, tree) != 0 ||
        one_replication(s, sl) != 0)
        return -1;
    for (size_t c = 0; c < sl->n_variants; c++)
        if (check_state(s, sl, &sl->opts[c * nc], sl->combos[c].board) != 0)
            return -1;
    if (l->sandbox) { /* its corners: every choice at its first value, at its last */
        for (int corner = 0; corner < 2; corner++) {
            int opts[8];
            for (size_t i = 0; i < nc; i++)
                opts[i] = corner ? (int)l->choices[i].n_options - 1 : 0;
            bp_board *b = build(s, l, opts, board_path, tree);
            if (!b)
                return -1;
            int rc = check_state(s, sl, opts, b);
            board_free(b);
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}

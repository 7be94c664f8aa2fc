/* figures.c — the draw stage (figures.h): every drawing the pages can
 * show, one job per drawing, each made the same way (S_draw_job): its
 * inputs gathered from the model, its cache key, the cache or its kind's
 * drawing code, the cache again. What differs between kinds is one row of
 * `kinds`. The jobs run on --jobs threads; each writes only its own slot
 * (an sfigure and its sdrawn on the model). */
#include "draw/figures.h"
#include "base/fmt.h"
#include "base/spans.h"
#include "draw/draw.h"
#include "draw/drawcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(FIGURE_LOOKS == DRAW_LOOKS, "a figure holds every look draw.h has");

/* One drawing in one look, for S_draw_all. */
typedef int (*draw_look_fn)(const void *what, draw_look look, buf *svg, buf *alt, char *err,
                            size_t errn);

/* Every look of a drawing into fig (the alt text from the first: they
 * describe the same picture). 0, or -1 with err and fig left empty. */
static int S_draw_all(draw_look_fn fn, const void *what, sfigure *fig, char *err, size_t errn)
{
    for (int i = 0; i < FIGURE_LOOKS; i++) {
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        if (fn(what, draw_look_at(i), &svg, &alt, err, errn) != 0) {
            buf_free(&svg);
            buf_free(&alt);
            sfigure_free(fig);
            return -1;
        }
        fig->svg[i] = buf_detach(&svg);
        if (i == 0)
            fig->alt = buf_detach(&alt);
        else
            buf_free(&alt);
    }
    return 0;
}

typedef struct {
    const bp_board *b;
    const draw_note *notes;
    size_t n_notes;
    const sim_trace_entry *tr;
    size_t n_tr;
    const draw_live *live; /* a live board's settings (n_live of them), or NULL */
    size_t n_live;
} board_draw;

/* Every look of a board: each layout once, painted in both themes. */
static int S_draw_board_all(const board_draw *d, sfigure *fig, char *err, size_t errn)
{
    static const draw_layout layouts[] = {DRAW_WIDE, DRAW_NARROW};
    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        buf svg[DRAW_THEMES], alt;
        for (int t = 0; t < DRAW_THEMES; t++)
            buf_init(&svg[t]);
        buf_init(&alt);
        int rc = draw_board_themes(d->b, d->notes, d->n_notes, d->live, d->n_live, layouts[k],
                                   svg, &alt, err, errn);
        for (int t = 0; t < DRAW_THEMES; t++) {
            int i = draw_look_index((draw_look){layouts[k], (draw_theme)t});
            if (rc == 0)
                fig->svg[i] = buf_detach(&svg[t]);
            else
                buf_free(&svg[t]);
        }
        if (rc == 0 && k == 0)
            fig->alt = buf_detach(&alt);
        else
            buf_free(&alt);
        if (rc != 0) {
            sfigure_free(fig);
            return -1;
        }
    }
    return 0;
}

static int S_timeline_look(const void *what, draw_look look, buf *svg, buf *alt, char *err,
                           size_t errn)
{
    const board_draw *d = what;
    return draw_timeline(d->b, d->tr, d->n_tr, look, svg, alt, err, errn);
}

static int S_chart_look(const void *what, draw_look look, buf *svg, buf *alt, char *err,
                        size_t errn)
{
    return draw_chart_svg(what, look, svg, alt, err, errn);
}

/* ------------------------------------------------------------ boards */

/* The measured notes next to the board's handler: each of these measures
 * that has a goal, with its pass or fail; on a live board without goals (a
 * sandbox) those of them the level counts, without a tone. A live board's
 * notes name their measure, for the page to rewrite. */
static void board_notes(const bp_variant *b, const sim_measure *counted, size_t n_counted,
                        bool live, draw_note *notes, char texts[][64], size_t *n)
{
    *n = 0;
    const bp_board *bb = b->board;
    int handler = -1;
    for (size_t i = 0; i < bb->sim.n_parts; i++)
        if (bb->sim.parts[i].kind == SIM_KIND_CONSUMER || bb->sim.parts[i].kind == SIM_KIND_SERVICE)
            handler = (int)i;
    if (handler < 0)
        return;
    bool any_goal = false;
    for (int m = 0; m < SIM_M_COUNT; m++)
        any_goal |= b->result.goals[m].present;
    static const sim_measure shown[] = {SIM_M_DUPLICATES, SIM_M_CHARGED_TWICE, SIM_M_LOST_WRITES,
                                        SIM_M_ERRORS};
    static const char *const words[] = {"duplicates", "charged more than once", "lost writes",
                                        "errors"};
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
        sim_measure m = shown[k];
        bool counted_here = false;
        for (size_t c = 0; c < n_counted; c++)
            counted_here |= counted[c] == m;
        if (any_goal ? !b->result.goals[m].present : !(live && counted_here))
            continue;
        buf t;
        buf_init(&t);
        fmt_number(&t, b->result.m[m].mean);
        size_t value_len = t.len;
        /* the page's own word (labels: "lost charges"), as its tables say it */
        const char *own = b->words ? page_measure_label(b->words, m) : fmt_measure_label(m);
        if (own != fmt_measure_label(m) && strlen(own) < 48) {
            buf_putc(&t, ' ');
            size_t at = t.len;
            buf_puts(&t, own);
            if (t.data[at] >= 'A' && t.data[at] <= 'Z')
                t.data[at] = (char)(t.data[at] - 'A' + 'a');
        } else {
            buf_printf(&t, " %s", words[k]);
        }
        snprintf(texts[*n], 64, "%s", t.data);
        buf_free(&t);
        notes[*n] = (draw_note){handler, texts[*n], DRAW_NEUTRAL, NULL, 0};
        if (any_goal)
            notes[*n].tone = b->result.goals[m].pass ? DRAW_PASS : DRAW_FAIL;
        if (live) {
            notes[*n].measure = sim_measure_name(m);
            notes[*n].value_len = value_len;
        }
        (*n)++;
    }
}


/* ------------------------------------------------------------ the jobs */

typedef enum { FIG_BOARD, FIG_LIVE, FIG_TIMELINE, FIG_COUNTEREXAMPLE, FIG_CHART } fig_kind;

/* One drawing to make, and where it goes. */
typedef struct {
    fig_kind kind;
    sfigure *fig;
    sdrawn *st;
    bp_variant *b;    /* every kind but a chart */
    const slevel *sl; /* FIG_LIVE: the level of variant b */
    size_t combo;     /* ... and its index there */
    const schart *sc; /* FIG_CHART */
    size_t same_as;   /* an earlier job of the same key, whose drawing it copies; or SIZE_MAX */
} fig_job;

/* What a job's drawing is made from, gathered by its kind's `gather`. */
typedef struct {
    board_draw d; /* boards and timelines */
    draw_note notes[8];
    char texts[8][64];
    draw_live live[8];
    bool truncated;           /* a timeline's trace is longer than it can show */
    draw_chart chart;         /* a chart ... */
    double *ys;               /* ... its values */
    draw_series *series;      /* ... and lines */
    const sim_result **points; /* ... its points' results for the key (NULL: one did not run) */
} fig_in;

/* The measured notes of a board's diagram (a live variant's with the
 * settings the reader changes, each labelled as the page shows it). */
static void gather_board(const fig_job *j, fig_in *in)
{
    const bp_variant *b = j->b;
    const sim_measure *counted = NULL;
    size_t n_counted = 0;
    bool live = j->kind == FIG_LIVE;
    if (live) {
        const bp_level *l = j->sl->level;
        counted = l->counts;
        n_counted = l->n_counts;
        for (size_t i = 0; i < l->n_choices && in->d.n_live < 8; i++)
            if (l->choices[i].range)
                in->live[in->d.n_live++] = (draw_live){
                    l->choices[i].set,
                    l->choices[i].options[j->sl->opts[j->combo * l->n_choices + i]].label};
        in->d.live = in->live;
    }
    if (b->ran && !b->run_failed)
        board_notes(b, counted, n_counted, live, in->notes, in->texts, &in->d.n_notes);
    in->d.b = b->board;
    in->d.notes = in->notes;
}

static void gather_timeline(const fig_job *j, fig_in *in)
{
    const bp_variant *b = j->b;
    bool cx = j->kind == FIG_COUNTEREXAMPLE;
    in->d.b = b->board;
    in->d.tr = cx ? b->proof.trace : b->result.trace;
    in->d.n_tr = cx ? b->proof.n_trace : b->result.n_trace;
    in->truncated = cx ? b->proof.trace_truncated : b->result.trace_truncated;
}

/* The results of a chart's points, in its point order (caller frees), or
 * NULL when one did not run. */
static const sim_result **chart_points(const schart *sc)
{
    const sim_result **r = xcalloc(sc->n_points + 1, sizeof *r);
    for (size_t k = 0; k < sc->n_points; k++) {
        if (!sc->points[k].ran || sc->points[k].run_failed) {
            free(r);
            return NULL;
        }
        r[k] = &sc->points[k].result;
    }
    return r;
}

static void gather_chart(const fig_job *j, fig_in *in)
{
    const schart *sc = j->sc;
    const bp_chart *c = sc->chart;
    size_t ns = c->n_series ? c->n_series : 1;
    in->ys = xcalloc(ns * c->n_x, sizeof *in->ys);
    in->series = xcalloc(ns, sizeof *in->series);
    for (size_t k = 0; k < ns; k++) {
        for (size_t x = 0; x < c->n_x; x++)
            in->ys[k * c->n_x + x] = sc->points[k * c->n_x + x].result.m[c->measure].mean;
        in->series[k].name = c->n_series ? c->series[k].label : c->title;
        in->series[k].n = c->n_x;
        in->series[k].x = c->x;
        in->series[k].y = in->ys + k * c->n_x;
    }
    in->chart = (draw_chart){c->title,
                             c->x_label,
                             c->y_label ? c->y_label : fmt_measure_label(c->measure),
                             c->x_percent,
                             sim_measure_unit(c->measure) == SIM_UNIT_RATIO,
                             c->x_seconds,
                             sim_measure_unit(c->measure) == SIM_UNIT_SECONDS,
                             in->series,
                             ns};
    in->points = chart_points(sc);
}

static bool key_board(const fig_job *j, const fig_in *in, buf *key)
{
    drawcache_key_board(key, j->b->board, in->notes, in->d.n_notes, in->d.live, in->d.n_live);
    return true;
}

static bool key_timeline(const fig_job *j, const fig_in *in, buf *key)
{
    drawcache_key_timeline(key, j->b->board, in->d.tr, in->d.n_tr);
    return true;
}

static bool key_chart(const fig_job *j, const fig_in *in, buf *key)
{
    if (!in->points)
        return false;
    drawcache_key_chart(key, j->sc->chart, in->points, j->sc->n_points);
    return true;
}

static int make_board(const fig_in *in, sfigure *fig, char *err, size_t errn)
{
    return S_draw_board_all(&in->d, fig, err, errn);
}

static int make_timeline(const fig_in *in, sfigure *fig, char *err, size_t errn)
{
    return S_draw_all(S_timeline_look, &in->d, fig, err, errn);
}

static int make_chart(const fig_in *in, sfigure *fig, char *err, size_t errn)
{
    return S_draw_all(S_chart_look, &in->chart, fig, err, errn);
}

/* Each kind of drawing: what it is made from, its cache key (false: it
 * has none), how it is drawn, and what a page says when it cannot be
 * ("cannot draw WHAT: why", WHAT naming the board when named). */
static const struct {
    void (*gather)(const fig_job *j, fig_in *in);
    bool (*key)(const fig_job *j, const fig_in *in, buf *key);
    int (*make)(const fig_in *in, sfigure *fig, char *err, size_t errn);
    const char *what;
    bool named;
} kinds[] = {
    [FIG_BOARD] = {gather_board, key_board, make_board, "board", true},
    [FIG_LIVE] = {gather_board, key_board, make_board, "board", true},
    [FIG_TIMELINE] = {gather_timeline, key_timeline, make_timeline, "the timeline of", true},
    [FIG_COUNTEREXAMPLE] = {gather_timeline, key_timeline, make_timeline, "the counterexample of",
                            true},
    [FIG_CHART] = {gather_chart, key_chart, make_chart, "the chart", false},
};

static void fig_in_free(fig_in *in)
{
    free(in->ys);
    free(in->series);
    free(in->points);
}

/* Make job j's drawing: from the cache when an earlier build made it from
 * the same inputs, else drawn (and stored); or why it cannot be, in its
 * sdrawn. */
static void S_draw_job(const char *cache, fig_job *j)
{
    fig_in in;
    memset(&in, 0, sizeof in);
    kinds[j->kind].gather(j, &in);
    char err[256] = "";
    buf key;
    buf_init(&key);
    bool keyed = cache && !in.truncated && kinds[j->kind].key(j, &in, &key);
    int rc = 0;
    if (in.truncated) {
        snprintf(err, sizeof err, "its trace is longer than the timeline can show");
        rc = -1;
    } else if (keyed && drawcache_get(cache, &key, j->fig)) {
        /* made by an earlier build, from exactly these inputs */
    } else {
        rc = kinds[j->kind].make(&in, j->fig, err, sizeof err);
        if (rc == 0 && keyed)
            drawcache_put(cache, &key, j->fig);
    }
    if (rc != 0) {
        j->st->failed = true;
        j->st->msg = kinds[j->kind].named
                         ? xasprintf("cannot draw %s '%s': %s", kinds[j->kind].what,
                                     j->b->board->id, err)
                         : xasprintf("cannot draw %s: %s", kinds[j->kind].what, err);
    }
    buf_free(&key);
    fig_in_free(&in);
}

/* ------------------------------------------------------------ the stage */

typedef struct {
    fig_job *jobs;
    size_t n, cap;
    const char *cache;
    size_t *todo; /* the jobs drawn (the others copy one of them) */
    size_t n_todo;
} fig_jobs;

/* Want one drawing: its job, or NULL when a page listed it before. */
static fig_job *want(fig_jobs *q, fig_kind kind, sfigure *fig, sdrawn *st, bp_variant *b)
{
    if (st->wanted)
        return NULL;
    st->wanted = true;
    q->jobs = xgrow(q->jobs, sizeof *q->jobs, &q->cap, q->n + 1);
    q->jobs[q->n] = (fig_job){kind, fig, st, b, NULL, 0, NULL, SIZE_MAX};
    return &q->jobs[q->n++];
}

/* What a page's board shows: its diagram and its timeline (one when it is
 * small enough) when a directive of a page shows them (render_scan), and
 * the counterexample of its claim when it claims "sometimes" and the proof
 * found one. */
static void want_board(fig_jobs *q, bp_variant *b)
{
    if (!b || !b->board)
        return;
    if (b->shows_diagram)
        want(q, FIG_BOARD, &b->fig, &b->fig_st, b);
    if (b->want_trace && b->shows_timeline)
        want(q, FIG_TIMELINE, &b->tl, &b->tl_st, b);
    if (b->proved && b->board->claim.present && b->board->claim.sometimes)
        want(q, FIG_COUNTEREXAMPLE, &b->cx, &b->cx_st, b);
}

/* A level's variants: each combination's diagram (and timeline, with
 * timeline: true); a live level's drawn variants with their settings. */
static void want_level(fig_jobs *q, slevel *sl)
{
    if (!sl || !sl->loaded)
        return;
    const bp_level *l = sl->level;
    if (l->live) {
        for (size_t d = 0; sl->live && d < sl->live->n_drawn; d++) {
            size_t c = sl->live->drawn[d];
            bp_variant *b = &sl->combos[c];
            fig_job *j = want(q, FIG_LIVE, &b->fig, &b->fig_st, b);
            if (j) {
                j->sl = sl;
                j->combo = c;
            }
        }
        return;
    }
    for (size_t c = 0; c < l->n_combos; c++) {
        bp_variant *b = &sl->combos[c];
        want(q, FIG_BOARD, &b->fig, &b->fig_st, b);
        if (l->timeline && b->want_trace)
            want(q, FIG_TIMELINE, &b->tl, &b->tl_st, b);
    }
}

static void want_chart(fig_jobs *q, schart *sc)
{
    if (!sc || !sc->chart || !sc->points)
        return;
    fig_job *j = want(q, FIG_CHART, &sc->fig, &sc->fig_st, NULL);
    if (j)
        j->sc = sc;
}

/* Jobs whose drawings are one drawing: the same kind of drawing from the
 * same inputs (its cache key; a level's combination that is also a board
 * of its own has its diagram's), each later one marked to copy the first
 * instead of drawing it again. Keys found through a hash table, as
 * run/simulate.c finds identical variants. */
static void find_same(fig_jobs *q)
{
    size_t cap = 16;
    while (cap < 2 * q->n)
        cap *= 2;
    size_t *slots = xcalloc(cap, sizeof *slots); /* job index + 1; 0 is free */
    buf *keys = xcalloc(q->n + 1, sizeof *keys);
    q->todo = xcalloc(q->n + 1, sizeof *q->todo);
    for (size_t i = 0; i < q->n; i++) {
        fig_job *j = &q->jobs[i];
        fig_in in;
        memset(&in, 0, sizeof in);
        kinds[j->kind].gather(j, &in);
        buf_init(&keys[i]);
        bool keyed = !in.truncated && kinds[j->kind].key(j, &in, &keys[i]);
        fig_in_free(&in);
        size_t h = keyed ? (size_t)hash64(keys[i].data, keys[i].len, 0) & (cap - 1) : 0;
        for (; keyed && slots[h]; h = (h + 1) & (cap - 1)) {
            size_t o = slots[h] - 1;
            if (kinds[q->jobs[o].kind].make == kinds[j->kind].make && keys[o].len == keys[i].len &&
                memcmp(keys[o].data, keys[i].data, keys[i].len) == 0) {
                j->same_as = o;
                break;
            }
        }
        if (j->same_as != SIZE_MAX)
            continue;
        if (keyed)
            slots[h] = i + 1;
        q->todo[q->n_todo++] = i;
    }
    for (size_t i = 0; i < q->n; i++)
        buf_free(&keys[i]);
    free(keys);
    free(slots);
}

/* Job j's drawing as a copy of the one it shares (drawn itself when that
 * one failed: its message names its own board). */
static void copy_same(fig_jobs *q, fig_job *j)
{
    const fig_job *o = &q->jobs[j->same_as];
    if (o->st->failed) {
        S_draw_job(q->cache, j);
        return;
    }
    for (int i = 0; i < FIGURE_LOOKS; i++)
        j->fig->svg[i] = o->fig->svg[i] ? xstrdup(o->fig->svg[i]) : NULL;
    j->fig->alt = o->fig->alt ? xstrdup(o->fig->alt) : NULL;
}

static void draw_at(void *ctx, size_t i)
{
    fig_jobs *q = ctx;
    fig_job *j = &q->jobs[q->todo[i]];
    double t0 = spans_now();
    S_draw_job(q->cache, j);
    if (spans_on()) {
        char name[256];
        snprintf(name, sizeof name, "%s %s", kinds[j->kind].what,
                 j->b ? j->b->board->id : j->sc->chart->path);
        span_add("draw", name, t0);
    }
}

void draw_site(site *s)
{
    fig_jobs q = {NULL, 0, 0, s->opt.cache, NULL, 0};
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        for (size_t k = 0; k < p->n_boards; k++)
            want_board(&q, site_board_file(s, p->boards[k].path));
        for (size_t k = 0; k < p->n_levels; k++)
            want_level(&q, site_level_file(s, p->levels[k].path));
        for (size_t k = 0; k < p->n_charts; k++)
            want_chart(&q, site_chart_file(s, p->charts[k].path));
    }
    /* fontconfig's configuration and cairo's font faces are made on first
     * use; make them here, on one thread, before the jobs share them
     * (cairo locks its font caches and each FreeType face it uses) */
    if (q.n) {
        draw_text_width("0", 12, false);
        draw_text_width("0", 12, true);
    }
    find_same(&q);
    threads_for_each(s->opt.jobs, q.n_todo, q.n_todo, draw_at, NULL, &q);
    for (size_t i = 0; i < q.n; i++)
        if (q.jobs[i].same_as != SIZE_MAX)
            copy_same(&q, &q.jobs[i]);
    for (size_t i = 0; i < q.n; i++)
        s->draw_failures += q.jobs[i].st->failed;
    free(q.todo);
    free(q.jobs);
}

/* ------------------------------------------------------------ what pages ask */

/* 0 when the drawing of st was made; else -1, said once, by the first
 * page that asks (the renderer asks in page order when any failed:
 * render/pages.c). */
static int S_shown(diag *d, sdrawn *st, const char *path, int line, int col)
{
    if (!st->wanted) {
        diag_error(d, path, line, col,
                   "internal error: the draw stage did not make this drawing (draw/figures.c "
                   "draws what the pages list)");
        return -1;
    }
    if (!st->failed)
        return 0;
    if (!st->reported) {
        st->reported = true;
        diag_error(d, path, line, col, "%s", st->msg);
    }
    return -1;
}

int figure_board(diag *d, bp_variant *b, const char *path, int line, int col)
{
    return S_shown(d, &b->fig_st, path, line, col);
}

int figure_board_live(diag *d, bp_variant *b, const char *path, int line, int col)
{
    return S_shown(d, &b->fig_st, path, line, col);
}

int figure_timeline(diag *d, bp_variant *b, const char *path, int line, int col)
{
    return S_shown(d, &b->tl_st, path, line, col);
}

int figure_counterexample(diag *d, bp_variant *b, const char *path, int line, int col)
{
    return S_shown(d, &b->cx_st, path, line, col);
}

int figure_chart(diag *d, schart *sc)
{
    const bp_chart *c = sc->chart;
    return S_shown(d, &sc->fig_st, c->path, c->pos.line, c->pos.col);
}

int figure_card(const site *s, const bp_variant *b, const char *title, const char *desc, buf *png,
                char *err, size_t errn)
{
    draw_note notes[8];
    char texts[8][64];
    size_t n = 0;
    if (b && b->ran && !b->run_failed)
        board_notes(b, NULL, 0, false, notes, texts, &n);
    const bp_board *board = b ? b->board : NULL;
    buf key;
    buf_init(&key);
    const char *cache = s->opt.cache;
    if (cache)
        drawcache_key_card(&key, s->cfg.title, title, desc, board, notes, n);
    int rc = 0;
    if (!cache || !drawcache_get_card(cache, &key, png)) {
        size_t at = png->len;
        rc = draw_card(s->cfg.title, title, desc, board, notes, n, png, err, errn);
        if (rc == 0 && cache)
            drawcache_put_card(cache, &key, png->data + at, png->len - at);
    }
    buf_free(&key);
    return rc;
}


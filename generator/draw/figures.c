/* figures.c — the drawings of the site model (figures.h): a board's
 * diagram with the measured numbers a page quotes on it, its timeline, a
 * chart; each drawn once, on first use, or taken from the drawing cache. */
#include "draw/figures.h"
#include "base/fmt.h"
#include "draw/draw.h"
#include "draw/drawcache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drawings are kept on the model's shared boards and made with cairo.
 * Pages that draw render on one thread (render/pages.c); the lock keeps
 * drawing one at a time should that ever change. */
static pthread_mutex_t draw_lock = PTHREAD_MUTEX_INITIALIZER;

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
static void board_notes(const sboard *b, const sim_measure *counted, size_t n_counted, bool live,
                        draw_note *notes, char texts[][64], size_t *n)
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
        buf_printf(&t, " %s", words[k]);
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

static int draw_figure(site *s, sboard *b, const sim_measure *counted, size_t n_counted,
                       const draw_live *live, size_t n_live, bool is_live, const char *path,
                       int line, int col)
{
    pthread_mutex_lock(&draw_lock);
    if (!b->drawn) {
        b->drawn = true;
        draw_note notes[8];
        char texts[8][64];
        size_t n = 0;
        if (b->ran && !b->run_failed)
            board_notes(b, counted, n_counted, is_live, notes, texts, &n);
        buf key;
        buf_init(&key);
        char err[256];
        if (s->opt.cache)
            drawcache_key_board(&key, b->board, notes, n, live, n_live);
        board_draw d = {b->board, notes, n, NULL, 0, live, n_live};
        if (s->opt.cache && drawcache_get(s->opt.cache, &key, &b->fig)) {
            /* drawn by an earlier build, from exactly these inputs */
        } else if (S_draw_board_all(&d, &b->fig, err, sizeof err) != 0) {
            diag_error(&s->d, path, line, col, "cannot draw board '%s': %s", b->board->id, err);
            b->draw_failed = true;
        } else if (s->opt.cache) {
            drawcache_put(s->opt.cache, &key, &b->fig);
        }
        buf_free(&key);
    }
    int rc = b->draw_failed ? -1 : 0;
    pthread_mutex_unlock(&draw_lock);
    return rc;
}

int figure_card(const site *s, const sboard *b, const char *title, const char *desc, buf *png,
                char *err, size_t errn)
{
    draw_note notes[8];
    char texts[8][64];
    size_t n = 0;
    if (b && b->ran && !b->run_failed)
        board_notes(b, NULL, 0, false, notes, texts, &n);
    return draw_card(s->cfg.title, title, desc, b ? b->board : NULL, notes, n, png, err, errn);
}

int figure_board(site *s, sboard *b, const char *path, int line, int col)
{
    return draw_figure(s, b, NULL, 0, NULL, 0, false, path, line, col);
}

int figure_board_live(site *s, sboard *b, const sim_measure *counted, size_t n_counted,
                      const draw_live *live, size_t n_live, const char *path, int line, int col)
{
    return draw_figure(s, b, counted, n_counted, live, n_live, true, path, line, col);
}

/* A timeline of trace into *fig, once (*drawn, *failed): figure_timeline
 * and figure_counterexample; what names the drawing in the error. */
static int timeline_once(site *s, const sboard *b, const sim_trace_entry *trace, size_t n_trace,
                         bool truncated, bool *drawn, bool *failed, sfigure *fig, const char *what,
                         const char *path, int line, int col)
{
    pthread_mutex_lock(&draw_lock);
    if (!*drawn) {
        *drawn = true;
        buf key;
        buf_init(&key);
        char err[256];
        bool cached = false;
        if (s->opt.cache && !truncated) {
            drawcache_key_timeline(&key, b->board, trace, n_trace);
            cached = drawcache_get(s->opt.cache, &key, fig);
        }
        board_draw d = {b->board, NULL, 0, trace, n_trace, NULL, 0};
        if (truncated) {
            snprintf(err, sizeof err, "its trace is longer than the timeline can show");
            *failed = true;
        } else if (!cached && S_draw_all(S_timeline_look, &d, fig, err, sizeof err) != 0) {
            *failed = true;
        }
        if (*failed)
            diag_error(&s->d, path, line, col, "cannot draw the %s of '%s': %s", what,
                       b->board->id, err);
        else if (!cached && s->opt.cache)
            drawcache_put(s->opt.cache, &key, fig);
        buf_free(&key);
    }
    int rc = *failed ? -1 : 0;
    pthread_mutex_unlock(&draw_lock);
    return rc;
}

int figure_timeline(site *s, sboard *b, const char *path, int line, int col)
{
    return timeline_once(s, b, b->result.trace, b->result.n_trace, b->result.trace_truncated,
                         &b->tl_drawn, &b->tl_failed, &b->tl, "timeline", path, line, col);
}

int figure_counterexample(site *s, sboard *b, const char *path, int line, int col)
{
    return timeline_once(s, b, b->proof.trace, b->proof.n_trace, b->proof.trace_truncated,
                         &b->cx_drawn, &b->cx_failed, &b->cx, "counterexample", path, line, col);
}

/* ------------------------------------------------------------ charts */

int figure_chart(site *s, schart *sc)
{
    pthread_mutex_lock(&draw_lock);
    const bp_chart *c = sc->chart;
    if (!sc->drawn) {
        sc->drawn = true;
        size_t ns = c->n_series ? c->n_series : 1;
        double *ys = xcalloc(ns * c->n_x, sizeof *ys);
        draw_series *series = xcalloc(ns, sizeof *series);
        for (size_t k = 0; k < ns; k++) {
            for (size_t x = 0; x < c->n_x; x++)
                ys[k * c->n_x + x] = sc->points[k * c->n_x + x].result.m[c->measure].mean;
            series[k].name = c->n_series ? c->series[k].label : c->title;
            series[k].n = c->n_x;
            series[k].x = c->x;
            series[k].y = ys + k * c->n_x;
        }
        draw_chart dc = {c->title,
                         c->x_label,
                         c->y_label ? c->y_label : fmt_measure_label(c->measure),
                         c->x_percent,
                         sim_measure_unit(c->measure) == SIM_UNIT_RATIO,
                         c->x_seconds,
                         sim_measure_unit(c->measure) == SIM_UNIT_SECONDS,
                         series,
                         ns};
        char err[256];
        if (S_draw_all(S_chart_look, &dc, &sc->fig, err, sizeof err) != 0) {
            diag_error(&s->d, c->path, c->pos.line, c->pos.col, "cannot draw the chart: %s", err);
            sc->draw_failed = true;
        }
        free(ys);
        free(series);
    }
    int rc = sc->draw_failed ? -1 : 0;
    pthread_mutex_unlock(&draw_lock);
    return rc;
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

void figure_from_cache(site *s)
{
    for (size_t i = 0; s->opt.cache && i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        const sim_result **r = sc->chart && sc->points ? chart_points(sc) : NULL;
        if (!r)
            continue;
        buf key;
        buf_init(&key);
        drawcache_key_chart(&key, sc->chart, r, sc->n_points);
        if (drawcache_get(s->opt.cache, &key, &sc->fig))
            sc->from_cache = sc->drawn = true;
        buf_free(&key);
        free(r);
    }
}

void figure_to_cache(site *s)
{
    for (size_t i = 0; s->opt.cache && i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        if (sc->from_cache || !sc->drawn || sc->draw_failed || !sc->fig.alt)
            continue;
        const sim_result **r = chart_points(sc);
        if (!r)
            continue;
        buf key;
        buf_init(&key);
        drawcache_key_chart(&key, sc->chart, r, sc->n_points);
        drawcache_put(s->opt.cache, &key, &sc->fig);
        buf_free(&key);
        free(r);
    }
}

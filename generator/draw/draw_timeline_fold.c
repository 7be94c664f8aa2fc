/* draw_timeline_fold.c — what a page needs to step through a timeline and
 * to fold its repeats: the runs of rows alike but for their numbers
 * (folds), the elements the page script highlights (a row, a lane's
 * header) and where the page cuts the drawing, and the rows' words for the
 * page (draw_timeline_rows). Both layouts share it. */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOLD_MAX_BLOCK 40 /* rows in one repeated block; longer repeats stay unfolded */
#define FOLD_MIN_HIDDEN 2 /* a fold hides at least this many blocks */

/* What a row is, numbers aside: its kind, lanes, colour and words with
 * every run of digits as one '#' ("payment 4, try 2" and "payment 5, try 3"
 * are alike), as a 64-bit FNV-1a hash. */
static uint64_t S_shape(const dtl_item *it)
{
    uint64_t h = UINT64_C(1469598103934665603);
#define MIX(v) (h = (h ^ (uint64_t)(v)) * UINT64_C(1099511628211))
    MIX(it->kind);
    MIX(it->from_lane + 1);
    MIX(it->to_lane + 1);
    MIX(it->color);
    for (const char *p = it->text; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            MIX('#');
        } else {
            MIX((unsigned char)*p);
        }
    }
#undef MIX
    return h;
}

static bool S_block_alike(const uint64_t *shape, size_t a, size_t b, size_t p)
{
    for (size_t k = 0; k < p; k++)
        if (shape[a + k] != shape[b + k])
            return false;
    return true;
}

/* "payments" when each block is another job, "deliveries" (or "tries")
 * when a block is one more try of the same one. */
static char *S_fold_words(const bp_board *b, const dtimeline_layout *l, size_t start, size_t p,
                          size_t hidden)
{
    const char *unit = NULL;
    if (l->items[start].job != l->items[start + p].job)
        unit = board_noun(b, true);
    for (size_t k = start; k < start + p && !unit; k++)
        if (strstr(l->items[k].text, ", try ")) {
            int part = l->lane_part[l->items[k].from_lane];
            unit = b->sim.parts[part].kind == SIM_KIND_BROKER ? "deliveries" : "tries";
        }
    return unit ? xasprintf("\xE2\x80\xA6 %zu more %s like this", hidden, unit)
                : xasprintf("\xE2\x80\xA6 %zu more like this", hidden);
}

void dtimeline_folds(const bp_board *b, dtimeline_layout *l)
{
    size_t n = l->n_items, cap = 0;
    if (n == 0)
        return;
    uint64_t *shape = xmalloc(n * sizeof *shape);
    for (size_t i = 0; i < n; i++)
        shape[i] = S_shape(&l->items[i]);
    /* greedy from the top: at each row the block length that folds the
     * most rows (the shortest of equals), else the next row */
    size_t i = 0;
    while (i < n) {
        size_t best_p = 0, best_r = 0;
        for (size_t p = 1; p <= FOLD_MAX_BLOCK && i + (FOLD_MIN_HIDDEN + 1) * p <= n; p++) {
            size_t r = 1;
            while (i + (r + 1) * p <= n && S_block_alike(shape, i, i + r * p, p))
                r++;
            if (r >= FOLD_MIN_HIDDEN + 1 && (r - 1) * p > (best_r ? (best_r - 1) * best_p : 0)) {
                best_p = p;
                best_r = r;
            }
        }
        if (!best_p) {
            i++;
            continue;
        }
        l->folds = xgrow(l->folds, sizeof *l->folds, &cap, l->n_folds + 1);
        dtl_fold *f = &l->folds[l->n_folds++];
        f->first = i + best_p;
        f->end = i + best_r * best_p;
        f->words = S_fold_words(b, l, i, best_p, best_r - 1);
        for (size_t k = f->first; k < f->end; k++)
            l->items[k].fold = (int)l->n_folds;
        i = f->end;
    }
    free(shape);
}

void dtl_row_band(dcanvas *c, const dtimeline_layout *l, size_t i, double x, double w, double y0,
                  double y1)
{
    const dtl_item *it = &l->items[i];
    char attrs[96];
    snprintf(attrs, sizeof attrs, "rx=\"4\" data-row=\"%zu\" data-lanes=\"%d %d\"", i,
             it->from_lane, it->to_lane);
    dc_band(c, x, y0, w, y1 - y0, attrs);
}

void dtl_fold_marks(dcanvas *c, const dtimeline_layout *l, const double *row_top, double bottom)
{
    for (size_t k = 0; k < l->n_folds; k++) {
        const dtl_fold *f = &l->folds[k];
        double y1 = f->end < l->n_items ? row_top[f->end] : bottom;
        buf a;
        buf_init(&a);
        buf_printf(&a, "data-fold=\"%.2f %.2f\" data-span=\"%zu %zu\" data-words=\"",
                   row_top[f->first], y1, f->first, f->end);
        buf_html_s(&a, f->words);
        buf_putc(&a, '"');
        dc_element(c, "g", a.data);
        buf_free(&a);
    }
}

bool dtl_time_edge(const dtimeline_layout *l, size_t i)
{
    return i > 0 && l->items[i - 1].fold != l->items[i].fold;
}

int draw_timeline_rows(const bp_board *b, const sim_trace_entry *tr, size_t n, buf *words,
                       buf *rows, char *err, size_t errn)
{
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    int rc = dtimeline_layout_make(m, b, tr, n, DRAW_NARROW, &l, err, errn);
    dcanvas_free(m);
    if (rc)
        return -1;
    char tbuf[48];
    for (size_t i = 0; i < l.n_items; i++) {
        if (i)
            buf_putc(words, '|');
        fmt_label_duration(tbuf, sizeof tbuf, l.items[i].t_us);
        buf_puts(words, tbuf);
        buf_puts(words, ": ");
        for (const char *p = l.items[i].text; *p; p++)
            buf_putc(words, *p == '|' ? '/' : *p);
    }
    for (size_t e = 0; e < l.n_entries; e++)
        buf_printf(rows, e ? " %ld" : "%ld", l.row_of[e]);
    dtimeline_layout_free(&l);
    return 0;
}

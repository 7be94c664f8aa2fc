/* draw_timeline_narrow.c — the timeline in a phone's text column
 * (DRAW_NARROW_W): the lanes spread evenly across it, whatever their
 * number, and each row a line of words (the time when it changed, then
 * what happened) above its arrow or mark, so no label has to fit between
 * two lanes. Lane headers that do not fit their lane's width take turns
 * on two staggered rows, each as wide as two lanes. */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 10           /* margin */
#define WORDS_H 15     /* a row's line of words */
#define GRAPH_H 13     /* its arrow or mark below */
#define ROW_GAP 3      /* between rows */
#define IDLE_GAP 8     /* extra before an event after a long wait */
#define IDLE_US 500000 /* a wait this long is "long" */
#define HEAD_LINE 15   /* header text lines (DF_SMALL; dtl_head) */
#define HEAD_PAD 10    /* header box padding, top and bottom together */

/* The header of a lane, wrapped at w (lines freed by the caller). */
static size_t S_head_lines(dcanvas *m, const bp_board *b, const dtimeline_layout *l, size_t i,
                           double w, char ***lines, double *widest)
{
    return dwrap(m, dpart_label(b, (size_t)l->lane_part[i]), DF_SMALL, false, w, lines, widest);
}

void dtimeline_place_narrow(dcanvas *m, const bp_board *b, dtimeline_layout *l)
{
    size_t n = l->n_lanes;
    double step = (DRAW_NARROW_W - 2.0 * M) / (double)n;
    l->lane_x = xcalloc(n, sizeof *l->lane_x);
    for (size_t i = 0; i < n; i++)
        l->lane_x[i] = round(M + step * ((double)i + 0.5));
    /* headers: one row when every label fits its lane in at most three
     * lines, else two staggered rows of twice the width */
    l->head_rows = 1;
    l->head_wrap = step - 16; /* a box 12 px wider than its words, 4 px apart */
    size_t most = 1;
    for (int pass = 0; pass < 2; pass++) {
        most = 1;
        bool fits = true;
        for (size_t i = 0; i < n; i++) {
            char **lines;
            double w;
            size_t k = S_head_lines(m, b, l, i, l->head_wrap, &lines, &w);
            dlines_free(lines, k);
            most = k > most ? k : most;
            fits &= w <= l->head_wrap && k <= 3;
        }
        if (fits || n == 1 || pass == 1)
            break;
        l->head_rows = 2;
        l->head_wrap = 2 * step - 16;
    }
    l->head_h = HEAD_LINE * (double)most + HEAD_PAD;
    l->head_top[0] = M;
    l->head_top[1] = M + l->head_h + 4;
    /* the time column before the words */
    char tbuf[48];
    l->time_w = 0;
    for (size_t i = 0; i < l->n_items; i++) {
        fmt_label_duration(tbuf, sizeof tbuf, l->items[i].t_us);
        l->time_w = fmax(l->time_w, dc_text_width(m, tbuf, DF_BADGE, false));
    }
    l->time_w = ceil(l->time_w) + 6;
    /* rows: words that do not fit beside the time wrap onto more lines */
    double words_w = DRAW_NARROW_W - 2.0 * M - l->time_w - 4;
    double y = M + (double)l->head_rows * (l->head_h + 4) + 6;
    int64_t prev_t = l->n_items ? l->items[0].t_us : 0;
    for (size_t i = 0; i < l->n_items; i++) {
        if (l->items[i].t_us - prev_t >= IDLE_US)
            y += IDLE_GAP;
        prev_t = l->items[i].t_us;
        char **lines;
        double widest;
        size_t k = dwrap(m, l->items[i].text, DF_SMALL, dtl_bold(l->items[i].kind), words_w, &lines,
                         &widest);
        dlines_free(lines, k);
        l->items[i].lines = k > 0 ? (int)k : 1;
        l->items[i].y = y + 11.5; /* the first line's baseline */
        y += WORDS_H * l->items[i].lines + GRAPH_H + ROW_GAP;
    }
    int rows;
    dtl_legend(NULL, m, l, M + 4, 0, DRAW_NARROW_W - M, &rows);
    l->legend_top = y + 12;
    l->width = DRAW_NARROW_W;
    l->height = (int)ceil(l->legend_top + DTL_LEGEND_ROW * (rows - 1) + 10 + M);
}

/* The top of item i's row, and the centre of its arrow or mark. */
static double S_row_top(const dtl_item *it)
{
    return it->y - 11.5;
}

static double S_words_h(const dtl_item *it)
{
    return WORDS_H * (it->lines > 0 ? it->lines : 1);
}

static double S_graph_y(const dtl_item *it)
{
    return S_row_top(it) + S_words_h(it) + GRAPH_H / 2.0 + 0.5;
}

static void S_headers(dcanvas *c, dcanvas *m, const bp_board *b, const dtimeline_layout *l,
                      double bottom)
{
    for (size_t i = 0; i < l->n_lanes; i++) {
        int row = l->head_rows == 2 ? (int)(i % 2) : 0;
        double top = l->head_top[row], x = l->lane_x[i];
        dc_line(c, x + 0.5, top + l->head_h, x + 0.5, bottom, DC_LIFELINE, 1, true);
        /* a box wider than the lane's share stays inside the figure */
        char **lines;
        double w;
        size_t k = S_head_lines(m, b, l, i, l->head_wrap, &lines, &w);
        dlines_free(lines, k);
        double half = (ceil(w) + 12) / 2;
        double cx = fmin(fmax(x, 1 + half), l->width - 1 - half);
        dtl_head(c, m, b, (int)i, l->lane_part[i], cx, top, l->head_h, DF_SMALL, l->head_wrap, 12,
                 5);
    }
}

void dtimeline_paint_narrow(dcanvas *c, dcanvas *m, const bp_board *b, const dtimeline_layout *l)
{
    dc_rect(c, 0.5, 0.5, l->width - 1, l->height - 1, 8, DC_CARD, DC_CARD_EDGE, false);
    double bottom = l->n_items ? S_row_top(&l->items[l->n_items - 1]) +
                                     S_words_h(&l->items[l->n_items - 1]) + GRAPH_H
                               : l->head_top[0] + l->head_h;
    /* duplicate rows get a band across the figure */
    for (size_t i = 0; i < l->n_items; i++)
        if (l->items[i].kind == DTL_DUPLICATE)
            dc_rect(c, 4, S_row_top(&l->items[i]) - 1, l->width - 8,
                    S_words_h(&l->items[i]) + GRAPH_H + 2, 4, DC_FAIL_BG, DC_NONE, false);
    /* down time between a crash and the restart */
    for (size_t i = 0; i < l->n_items; i++) {
        if (l->items[i].kind != DTL_CRASH)
            continue;
        long r = dtl_restart_of(l, i);
        double y0 = S_graph_y(&l->items[i]), y1 = r < 0 ? bottom : S_graph_y(&l->items[r]);
        dc_rect(c, l->lane_x[l->items[i].from_lane] - 3, y0, 7, y1 - y0, 0, DC_FAIL_BG, DC_NONE,
                false);
    }
    S_headers(c, m, b, l, bottom);
    char tbuf[48] = "", last[48] = "";
    double *row_top = xmalloc((l->n_items + 1) * sizeof *row_top);
    for (size_t i = 0; i < l->n_items; i++) {
        const dtl_item *it = &l->items[i];
        bool bold = dtl_bold(it->kind), arrow = it->from_lane != it->to_lane;
        row_top[i] = S_row_top(it) - 1.5; /* between two rows' bands */
        dtl_row_band(c, l, i, 4, l->width - 8, S_row_top(it) - 1,
                     S_row_top(it) + S_words_h(it) + GRAPH_H + 1);
        dcolor ink = arrow ? dtl_arrow_ink(it) : it->color;
        /* the words, on the row's own ground so lifelines do not cross them */
        char **lines;
        double tw;
        size_t k =
            dwrap(m, it->text, DF_SMALL, bold, l->width - 2.0 * M - l->time_w - 4, &lines, &tw);
        dc_rect(c, M - 2, S_row_top(it) + 1, l->time_w + tw + 6, S_words_h(it) - 1, 3,
                it->kind == DTL_DUPLICATE ? DC_FAIL_BG : DC_CARD, DC_NONE, false);
        fmt_label_duration(tbuf, sizeof tbuf, it->t_us);
        if (strcmp(tbuf, last) != 0 || dtl_time_edge(l, i)) {
            dc_text(c, M, it->y, DT_START, DF_BADGE, false, DC_MUTED, tbuf, false);
            snprintf(last, sizeof last, "%s", tbuf);
        }
        for (size_t j = 0; j < k; j++)
            dc_text(c, M + l->time_w, it->y + WORDS_H * (double)j, DT_START, DF_SMALL, bold, ink,
                    lines[j], false);
        dlines_free(lines, k);
        /* the arrow or mark below them */
        double gy = S_graph_y(it);
        double x0 = l->lane_x[it->from_lane] + 0.5, x1 = l->lane_x[it->to_lane] + 0.5;
        if (arrow) {
            dtl_message(c, it, x0, x1, gy);
        } else {
            dtl_mark(c, it->kind, x0, gy, it->color);
        }
    }
    dtl_fold_marks(c, l, row_top, bottom + ROW_GAP / 2.0);
    free(row_top);
    int rows;
    dtl_legend(c, m, l, M + 4, l->legend_top, l->width - M, &rows);
}

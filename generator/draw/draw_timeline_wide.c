/* draw_timeline_wide.c — where the wide timeline's lanes go: spaced for
 * their headers and the words on the arrows and beside the marks, the
 * time of each row in a column at the left. */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <math.h>
#include <stdlib.h>

#define MARGIN DTL_MARGIN
#define HEAD_TEXT_W 140       /* a lane header's words wrap to this */
#define HEAD_TEXT_W_TIGHT 84  /* ... in the tight layout */
#define LANE_MIN_GAP 150      /* px between two lanes at least */
#define LANE_MIN_GAP_TIGHT 100
#define LABEL_PAD 12

/* The wide layout's lanes: far enough apart for the headers, the arrows'
 * words and the marks' words to the right of their lane. Tight (for a trace
 * whose lanes would put the drawing past DRAW_WIDE_MAX, so that it still
 * fits a desktop column): the headers wrap narrower (HEAD_TEXT_W_TIGHT),
 * lanes may be closer (LANE_MIN_GAP_TIGHT), and a mark's words only need
 * room up to the drawing's edge: they cross the lifelines on their way
 * (painted over a clearing of the card's colour, draw_timeline.c), and go to the
 * left of their lane when the right has no room. Sets lane_x, width,
 * head_wrap and each mark's side. */
void dtimeline_place_wide(dcanvas *m, const bp_board *b, dtimeline_layout *out, bool tight)
{
    size_t nl = out->n_lanes;
    double *head_w = xcalloc(nl, sizeof *head_w);
    double *gap = xcalloc(nl, sizeof *gap); /* gap[i]: lane i to lane i+1 */
    double right = 0;                       /* room right of the last lane */
    out->head_wrap = tight ? HEAD_TEXT_W_TIGHT : HEAD_TEXT_W;
    for (size_t i = 0; i < nl; i++) {
        double w;
        char **lines;
        size_t k = dwrap(m, dpart_label(b, (size_t)out->lane_part[i]), DF_LABEL, false,
                         out->head_wrap, &lines, &w);
        dlines_free(lines, k);
        head_w[i] = ceil(w) + 2 * 12;
        if (i > 0)
            gap[i - 1] = fmax(tight ? LANE_MIN_GAP_TIGHT : LANE_MIN_GAP,
                              (head_w[i - 1] + head_w[i]) / 2 + 24);
    }
    right = head_w[nl - 1] / 2;
    for (size_t i = 0; i < out->n_items; i++) { /* arrows, and marks when not tight */
        dtl_item *it = &out->items[i];
        double w = dc_text_width(m, it->text, DF_SMALL, dtl_bold(it->kind));
        int a = it->from_lane < it->to_lane ? it->from_lane : it->to_lane;
        int z = it->from_lane < it->to_lane ? it->to_lane : it->from_lane;
        it->left = false;
        if (a == z) { /* a mark: label to the right of the lane */
            if (tight)
                continue;
            if ((size_t)a + 1 < nl)
                gap[a] = fmax(gap[a], w + 14 + LABEL_PAD);
            else
                right = fmax(right, w + 14 + LABEL_PAD);
        } else {
            double span = 0;
            for (int k = a; k < z; k++)
                span += gap[k];
            double need = it->kind == DTL_LOST ? (w + 2 * LABEL_PAD) / 0.6 : w + 2 * LABEL_PAD;
            if (span < need)
                for (int k = a; k < z; k++)
                    gap[k] += (need - span) / (z - a);
        }
    }
    /* time column */
    double time_w = 0;
    char tbuf[48];
    for (size_t i = 0; i < out->n_items; i++) {
        fmt_label_duration(tbuf, sizeof tbuf, out->items[i].t_us);
        time_w = fmax(time_w, dc_text_width(m, tbuf, DF_BADGE, false));
    }
    time_w = ceil(time_w) + 16;
    free(out->lane_x);
    out->lane_x = xcalloc(nl, sizeof *out->lane_x);
    double x = MARGIN + time_w + head_w[0] / 2;
    for (size_t i = 0; i < nl; i++) {
        out->lane_x[i] = round(x);
        if (i + 1 < nl)
            x += ceil(gap[i]);
    }
    if (tight) { /* the marks, each on the side with room, else the right grows */
        double edge = out->lane_x[nl - 1] + right;
        for (size_t i = 0; i < out->n_items; i++) {
            dtl_item *it = &out->items[i];
            if (it->from_lane != it->to_lane)
                continue;
            double need = dc_text_width(m, it->text, DF_SMALL, dtl_bold(it->kind)) + 14 + LABEL_PAD;
            double x0 = out->lane_x[it->from_lane];
            if (x0 + need <= edge)
                continue;
            if (x0 - need >= MARGIN + time_w)
                it->left = true;
            else
                right = fmax(right, x0 + need - out->lane_x[nl - 1]);
        }
    }
    out->width = (int)ceil(out->lane_x[nl - 1] + right + MARGIN);
    free(head_w);
    free(gap);
}

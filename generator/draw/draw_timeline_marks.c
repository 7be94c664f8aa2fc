/* draw_timeline_marks.c — what both timeline layouts (draw_timeline.c, wide;
 * draw_timeline_narrow.c, narrow) paint the same way: an event's mark, a
 * lane's header box and a message's arrow. */
#include "draw/draw_internal.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

static void S_diamond(dcanvas *c, double x, double y, double r, dcolor fill, dcolor stroke)
{
    double xy[8] = {x, y - r, x + r, y, x, y + r, x - r, y};
    dc_polygon(c, xy, 4, fill, stroke);
}

void dtl_mark(dcanvas *c, dtl_kind k, double x, double y, dcolor color)
{
    switch (k) {
    case DTL_SKIP:
    case DTL_PROV_SKIP:
        S_diamond(c, x, y, 5.5, DC_CARD, color);
        break;
    case DTL_EFFECT:
        dc_circle(c, x, y, 4.5, DC_INK, DC_NONE);
        break;
    case DTL_DUPLICATE:
        dc_circle(c, x, y, 5, DC_FAIL, DC_NONE);
        break;
    case DTL_CRASH:
        dc_cross(c, x, y, 4.5, DC_FAIL, 2.5);
        break;
    case DTL_LOST:
        dc_cross(c, x, y, 3.5, DC_FAIL, 2);
        break;
    case DTL_RESTART:
        dc_circle(c, x, y, 4, DC_CARD, DC_MUTED);
        break;
    default:
        dc_rect(c, x - 3, y - 3, 6, 6, 0, color, DC_NONE, false);
        break;
    }
}

void dtl_head(dcanvas *c, dcanvas *m, const bp_board *b, int lane, int part, double x, double top,
              double h, double size, double wrap, double pad, double radius)
{
    char **lines;
    double w, line_h = size >= DF_LABEL ? DL_LABEL : 15;
    size_t k = dwrap(m, dpart_label(b, (size_t)part), size, false, wrap, &lines, &w);
    double bw = ceil(w) + pad;
    bool ext = b->sim.parts[part].external;
    dc_rect(c, round(x - bw / 2) + 0.5, top + 0.5, bw - 1, h - 1, radius,
            ext ? DC_EXTERNAL : DC_BOX, DC_BOX_EDGE, ext);
    /* the page script marks the lane of the row it is at */
    char attrs[48];
    snprintf(attrs, sizeof attrs, "rx=\"%g\" data-lane=\"%d\"", radius + 2, lane);
    dc_band(c, round(x - bw / 2) - 2, top - 2, bw + 4, h + 4, attrs);
    double ty = top + (h - line_h * (double)k) / 2;
    for (size_t j = 0; j < k; j++) {
        dc_text(c, x, ty + line_h * 0.75, DT_MIDDLE, size, false, DC_INK, lines[j], false);
        ty += line_h;
    }
    dlines_free(lines, k);
}

double dtl_message(dcanvas *c, const dtl_item *it, double x0, double x1, double y)
{
    double dir = x1 > x0 ? 1 : -1;
    double end = it->kind == DTL_LOST ? x0 + (x1 - x0) * 0.6 : x1;
    if (it->kind == DTL_LOST) {
        dc_line(c, x0, y, end - dir * 5, y, DC_FAIL, 1, true);
        dc_cross(c, end, y, 4, DC_FAIL, 2);
    } else if (it->kind == DTL_DEAD_LETTER) {
        dc_line(c, x0, y, end - dir * 6, y, DC_FAIL, 1, true);
        dc_arrowhead(c, end - dir * 0.5, y, dir, 0, DC_FAIL);
    } else {
        dc_line(c, x0, y, end - dir * 6, y, DC_LINE, 1, false);
        dc_arrowhead(c, end - dir * 0.5, y, dir, 0, DC_LINE);
    }
    return end;
}

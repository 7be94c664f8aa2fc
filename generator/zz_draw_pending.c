/* zz_draw_pending.c — TEMPORARY placeholders until the timeline and chart
 * drawings land from the draw branch; removed at that merge. They fail loudly
 * instead of drawing nothing. */
#include "draw.h"

#include <stdio.h>

int draw_timeline(const bp_board *b, const sim_trace_entry *tr, size_t n, buf *svg, buf *alt,
                  char *err, size_t errn)
{
    (void)b, (void)tr, (void)n, (void)svg, (void)alt;
    snprintf(err, errn, "timeline drawing is not in this build yet");
    return -1;
}

int draw_chart_svg(const draw_chart *c, buf *svg, buf *alt, char *err, size_t errn)
{
    (void)c, (void)svg, (void)alt;
    snprintf(err, errn, "chart drawing is not in this build yet");
    return -1;
}

/* drawbench.c — the diagram side of the bench.
 *
 *   drawbench boards CATALOG ROUNDS BOARD.yaml...
 *       draws every board ROUNDS times with the site's own draw_board (no
 *       result notes) and prints ms per diagram and bytes per diagram;
 *   drawbench ref ROUNDS
 *       the reference: a bare three-box diagram (three labelled boxes, two
 *       arrows) drawn straight onto cairo's SVG surface, text as cairo
 *       writes it (glyph outlines), into memory.
 *
 * One JSON line on stdout. Linked like simdrv (tests/bench/run.py). */
#define _GNU_SOURCE
#include "load/board.h"
#include "base/diag.h"
#include "draw/draw.h"
#include "simcore.h"
#include "base/util.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static cairo_status_t sink(void *closure, const unsigned char *data, unsigned int n)
{
    buf_put(closure, (const char *)data, n);
    return CAIRO_STATUS_SUCCESS;
}

static size_t three_boxes(void)
{
    buf out;
    buf_init(&out);
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(sink, &out, 600, 140);
    cairo_t *cr = cairo_create(s);
    static const char *const labels[3] = {"Users", "Message broker", "Payment processor"};
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 14);
    for (int i = 0; i < 3; i++) {
        double x = 20 + i * 200;
        cairo_rectangle(cr, x, 40, 160, 60);
        cairo_set_source_rgb(cr, 0.93, 0.95, 1.0);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.2, 0.3, 0.5);
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
        cairo_text_extents_t te;
        cairo_text_extents(cr, labels[i], &te);
        cairo_move_to(cr, x + 80 - te.width / 2 - te.x_bearing, 75);
        cairo_show_text(cr, labels[i]);
        if (i < 2) {
            cairo_move_to(cr, x + 160, 70);
            cairo_line_to(cr, x + 200, 70);
            cairo_stroke(cr);
        }
    }
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_surface_destroy(s);
    size_t n = out.len;
    buf_free(&out);
    return n;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "ref") == 0) {
        int rounds = atoi(argv[2]);
        size_t bytes = three_boxes(); /* warm: fonts found and loaded once */
        double t0 = now_s();
        for (int r = 0; r < rounds; r++)
            bytes = three_boxes();
        double s = now_s() - t0;
        printf("{\"diagrams\":%d,\"ms_per_diagram\":%.4f,\"bytes_per_diagram\":%zu}\n", rounds,
               1000 * s / rounds, bytes);
        draw_shutdown();
        return 0;
    }
    if (argc < 5 || strcmp(argv[1], "boards") != 0) {
        fprintf(stderr, "usage: drawbench boards CATALOG ROUNDS BOARD.yaml... | ref ROUNDS\n");
        return 2;
    }
    diag d;
    diag_init(&d, stderr);
    bp_catalog *cat = catalog_load(argv[2], &d);
    if (!cat)
        return 1;
    int rounds = atoi(argv[3]);
    sim_limits lim = sim_limits_default();
    size_t n = (size_t)argc - 4;
    bp_board **boards = xcalloc(n, sizeof *boards);
    for (size_t i = 0; i < n; i++)
        if (!(boards[i] = board_load(argv[4 + i], cat, &lim, &d)))
            return 1;
    char err[256];
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    draw_look look = {DRAW_WIDE, DRAW_LIGHT};
    if (draw_board(boards[0], NULL, 0, look, &svg, &alt, err, sizeof err) != 0) /* warm */
        return 1;
    size_t bytes = 0, count = 0;
    double t0 = now_s();
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < n; i++) {
            buf_clear(&svg);
            buf_clear(&alt);
            if (draw_board(boards[i], NULL, 0, look, &svg, &alt, err, sizeof err) != 0) {
                fprintf(stderr, "drawbench: %s: %s\n", argv[4 + i], err);
                return 1;
            }
            bytes += svg.len;
            count++;
        }
    double s = now_s() - t0;
    printf("{\"diagrams\":%zu,\"boards\":%zu,\"ms_per_diagram\":%.4f,\"bytes_per_diagram\":%.0f}\n",
           count, n, 1000 * s / (double)count, (double)bytes / (double)count);
    buf_free(&svg);
    buf_free(&alt);
    for (size_t i = 0; i < n; i++)
        board_free(boards[i]);
    free(boards);
    catalog_free(cat);
    diag_free(&d);
    draw_shutdown();
    return 0;
}

/* draw_chart.c — line charts of sweeps (e.g. duplicates against ack-loss
 * rate, one line per idempotency policy): axes with 1-2-5 ticks, grid,
 * axis labels, a legend, and a marker shape per series so colour is not the
 * only way to tell the lines apart. */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 640 /* wide */
#define CHART_H 400
#define NARROW_H 340 /* narrow: DRAW_NARROW_W wide */
#define MARGIN 16
#define MAX_POINTS 10000

/* Series colours: the palette's DC_SERIES0.. (Okabe-Ito's, distinguishable
 * with the common colour-vision deficiencies), one marker shape each. */
static dcolor S_series_color(size_t s)
{
    return (dcolor)(DC_SERIES0 + (int)(s % DC_N_SERIES));
}

typedef struct {
    double lo, hi, step;
    int decimals;
    bool seconds; /* ticks at round durations, written as durations */
} axis;

/* Round durations for ticks, in seconds. */
static const double nice_durations[] = {
    1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1,  0.2,  0.5,   1,     2,     5,     10,     15,     30,
    60,   120,  300,  600,  900,  1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
};

static void S_nice(double lo, double hi, axis *a)
{
    if (hi - lo < 1e-12) {
        double pad = fabs(hi) > 0 ? fabs(hi) * 0.5 : 1;
        lo -= pad;
        hi += pad;
        if (lo < 0 && hi - pad >= 0)
            lo = 0;
    }
    double raw = (hi - lo) / 5;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    if (a->seconds) {
        size_t nd = sizeof nice_durations / sizeof nice_durations[0], k = 0;
        while (k + 1 < nd && nice_durations[k] < raw * 0.8)
            k++;
        step = nice_durations[k];
        while ((hi - lo) / step > 8)
            step *= 2;
    }
    a->step = step;
    a->lo = floor(lo / step + 1e-9) * step;
    a->hi = ceil(hi / step - 1e-9) * step;
    a->decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
}

static void S_tick_text(char *dst, size_t n, double v, const axis *a, bool percent)
{
    char num[48];
    if (a->seconds) {
        buf b;
        buf_init(&b);
        fmt_seconds(&b, fabs(v) < 1e-12 ? 0 : v);
        snprintf(dst, n, "%s", b.data);
        buf_free(&b);
        return;
    }
    int dec = a->decimals - (percent ? 2 : 0);
    if (dec < 0)
        dec = 0;
    double shown = percent ? v * 100 : v;
    double scale = pow(10, dec);
    shown = round(shown * scale) / scale;
    if (shown == 0)
        shown = 0; /* no "-0" */
    fmt_label_number(num, sizeof num, shown);
    snprintf(dst, n, "%s%s", num, percent ? "%" : "");
}

static int S_check(const draw_chart *c, char *err, size_t errn)
{
    char what[96];
    if (!c)
        return dfail(err, errn, "no chart to draw");
    if (c->title && dcheck_text("the chart title", c->title, err, errn))
        return -1;
    if (dcheck_text("the x-axis label", c->x_label, err, errn) ||
        dcheck_text("the y-axis label", c->y_label, err, errn))
        return -1;
    if (c->n_series == 0 || c->n_series > DRAW_CHART_MAX_SERIES || !c->series)
        return dfail(err, errn, "a chart needs 1 to %d series, not %zu", DRAW_CHART_MAX_SERIES,
                     c->n_series);
    for (size_t s = 0; s < c->n_series; s++) {
        const draw_series *se = &c->series[s];
        snprintf(what, sizeof what, "the name of series %zu", s + 1);
        if (dcheck_text(what, se->name, err, errn))
            return -1;
        if (se->n == 0 || se->n > MAX_POINTS || !se->x || !se->y)
            return dfail(err, errn, "series %zu needs 1 to %d points, not %zu", s + 1, MAX_POINTS,
                         se->n);
        for (size_t i = 0; i < se->n; i++) {
            snprintf(what, sizeof what, "x of point %zu in series %zu", i + 1, s + 1);
            if (dcheck_number(what, se->x[i], -1e12, 1e12, err, errn))
                return -1;
            snprintf(what, sizeof what, "y of point %zu in series %zu", i + 1, s + 1);
            if (dcheck_number(what, se->y[i], -1e12, 1e12, err, errn))
                return -1;
        }
    }
    return 0;
}

static void S_marker(dcanvas *cv, size_t s, double x, double y, dcolor color)
{
    switch (s % 6) {
    case 0:
        dc_circle(cv, x, y, 4, color, DC_CARD);
        break;
    case 1:
        dc_rect(cv, x - 3.5, y - 3.5, 7, 7, 0, color, DC_CARD, false);
        break;
    case 2: {
        double xy[6] = {x, y - 5, x + 4.5, y + 3.5, x - 4.5, y + 3.5};
        dc_polygon(cv, xy, 3, color, DC_CARD);
        break;
    }
    case 3: {
        double xy[8] = {x, y - 5, x + 5, y, x, y + 5, x - 5, y};
        dc_polygon(cv, xy, 4, color, DC_CARD);
        break;
    }
    case 4:
        dc_cross(cv, x, y, 4, color, 2);
        break;
    default:
        dc_line(cv, x - 5, y, x + 5, y, color, 2, false);
        dc_line(cv, x, y - 5, x, y + 5, color, 2, false);
        break;
    }
}

typedef struct {
    int w, h; /* the figure */
    char **title;
    size_t n_title; /* the title's lines */
    char **x_label;
    size_t n_x_label; /* the x-axis label's lines: wrapped, never cut */
    int x_every;    /* label every x_every-th x tick (narrow: so they never touch) */
    axis ax, ay;
    double left, right, top, bottom; /* plot area */
    double legend_y;                 /* first legend row's centre */
    double *entry_x, *entry_row;     /* per series */
} frame;

static void S_frame(dcanvas *m, const draw_chart *c, draw_layout layout, frame *f)
{
    f->w = layout == DRAW_NARROW ? DRAW_NARROW_W : CHART_W;
    f->h = layout == DRAW_NARROW ? NARROW_H : CHART_H;
    f->title = NULL;
    f->n_title = 0;
    if (c->title)
        f->n_title = dwrap(m, c->title, DF_LABEL, true, f->w - 2 * MARGIN, &f->title, NULL);
    /* a label too long for the width takes more lines, and the figure the
     * room for them, so the plot keeps its height */
    f->n_x_label = dwrap(m, c->x_label, DF_SMALL, false, f->w - 2 * MARGIN, &f->x_label, NULL);
    if (f->n_x_label > 1)
        f->h += (int)(DL_SMALL * (double)(f->n_x_label - 1));
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (size_t s = 0; s < c->n_series; s++)
        for (size_t i = 0; i < c->series[s].n; i++) {
            xmin = fmin(xmin, c->series[s].x[i]);
            xmax = fmax(xmax, c->series[s].x[i]);
            ymin = fmin(ymin, c->series[s].y[i]);
            ymax = fmax(ymax, c->series[s].y[i]);
        }
    if (ymin > 0)
        ymin = 0; /* counts and rates read against zero */
    f->ax.seconds = c->x_seconds;
    f->ay.seconds = c->y_seconds;
    S_nice(xmin, xmax, &f->ax);
    S_nice(ymin, ymax, &f->ay);
    double y = MARGIN;
    if (c->title)
        y += DL_LABEL * (double)f->n_title + 6;
    /* legend rows */
    f->entry_x = xcalloc(c->n_series, sizeof *f->entry_x);
    f->entry_row = xcalloc(c->n_series, sizeof *f->entry_row);
    double x = MARGIN, row = 0;
    for (size_t s = 0; s < c->n_series; s++) {
        double w = 30 + dc_text_width(m, c->series[s].name, DF_SMALL, false);
        if (x > MARGIN && x + w > f->w - MARGIN) {
            x = MARGIN;
            row++;
        }
        f->entry_x[s] = x;
        f->entry_row[s] = row;
        x += w + 18;
    }
    f->legend_y = y + DL_SMALL / 2;
    y += DL_SMALL * (row + 1) + 14;
    f->top = y;
    double tick_w = 0;
    char t[64];
    for (double v = f->ay.lo; v <= f->ay.hi + f->ay.step / 2; v += f->ay.step) {
        S_tick_text(t, sizeof t, v, &f->ay, c->y_percent);
        tick_w = fmax(tick_w, dc_text_width(m, t, DF_BADGE, false));
    }
    f->left = round(MARGIN + DL_SMALL + 6 + tick_w + 8);
    S_tick_text(t, sizeof t, f->ax.hi, &f->ax, c->x_percent);
    f->right = round(f->w - MARGIN - dc_text_width(m, t, DF_BADGE, false) / 2);
    f->bottom = f->h - MARGIN - DL_SMALL * (double)f->n_x_label - 4 - DL_SMALL - 4;
    /* x tick labels at least 8 px apart: every second (third...) when not */
    double widest = 0;
    int ticks = 0;
    for (double v = f->ax.lo; v <= f->ax.hi + f->ax.step / 2; v += f->ax.step, ticks++) {
        S_tick_text(t, sizeof t, v, &f->ax, c->x_percent);
        widest = fmax(widest, dc_text_width(m, t, DF_BADGE, false));
    }
    double pitch = ticks > 1 ? (f->right - f->left) / (ticks - 1) : f->right - f->left;
    f->x_every = 1;
    while (f->x_every < ticks && pitch * f->x_every < widest + 8)
        f->x_every++;
}

static double S_px(const frame *f, double x)
{
    return f->left + (x - f->ax.lo) / (f->ax.hi - f->ax.lo) * (f->right - f->left);
}

static double S_py(const frame *f, double y)
{
    return f->bottom - (y - f->ay.lo) / (f->ay.hi - f->ay.lo) * (f->bottom - f->top);
}

static void S_paint(dcanvas *cv, const draw_chart *c, const frame *f)
{
    char t[64];
    dc_rect(cv, 0.5, 0.5, f->w - 1, f->h - 1, 8, DC_CARD, DC_CARD_EDGE, false);
    for (size_t k = 0; k < f->n_title; k++)
        dc_text(cv, MARGIN, MARGIN + 13.5 + DL_LABEL * (double)k, DT_START, DF_LABEL, true, DC_INK,
                f->title[k], false);
    /* grid and y ticks */
    for (double v = f->ay.lo; v <= f->ay.hi + f->ay.step / 2; v += f->ay.step) {
        double y = dc_half(round(S_py(f, v)));
        dc_line(cv, f->left, y, f->right, y, DC_GRID, 1, false);
        S_tick_text(t, sizeof t, v, &f->ay, c->y_percent);
        dc_text(cv, f->left - 8, y + 4, DT_END, DF_BADGE, false, DC_MUTED, t, false);
    }
    int k = 0;
    for (double v = f->ax.lo; v <= f->ax.hi + f->ax.step / 2; v += f->ax.step, k++) {
        double x = dc_half(round(S_px(f, v)));
        dc_line(cv, x, f->bottom, x, f->bottom + 5, DC_MUTED, 1, false);
        if (k % f->x_every)
            continue;
        S_tick_text(t, sizeof t, v, &f->ax, c->x_percent);
        dc_text(cv, x, f->bottom + 5 + 13, DT_MIDDLE, DF_BADGE, false, DC_MUTED, t, false);
    }
    dc_line(cv, f->left, dc_half(f->bottom), f->right + 1, dc_half(f->bottom), DC_MUTED, 1, false);
    dc_line(cv, dc_half(f->left), f->top, dc_half(f->left), f->bottom + 1, DC_MUTED, 1, false);
    /* axis labels */
    /* centred on the plot when a line fits there, else on the figure */
    for (size_t j = 0; j < f->n_x_label; j++) {
        double lw = dc_text_width(cv, f->x_label[j], DF_SMALL, false);
        double cx = (f->left + f->right) / 2;
        if (cx + lw / 2 > f->w - MARGIN || cx - lw / 2 < MARGIN)
            cx = f->w / 2.0;
        dc_text(cv, cx, f->h - MARGIN - 3 - DL_SMALL * (double)(f->n_x_label - 1 - j), DT_MIDDLE,
                DF_SMALL, false, DC_INK, f->x_label[j], false);
    }
    dc_text(cv, MARGIN + 11, (f->top + f->bottom) / 2, DT_MIDDLE, DF_SMALL, false, DC_INK,
            c->y_label, true);
    /* series: lines, then markers on top */
    for (size_t s = 0; s < c->n_series; s++) {
        const draw_series *se = &c->series[s];
        dcolor col = S_series_color(s);
        if (se->n >= 2) {
            double *xy = xmalloc(se->n * 2 * sizeof *xy);
            for (size_t i = 0; i < se->n; i++) {
                xy[2 * i] = S_px(f, se->x[i]);
                xy[2 * i + 1] = S_py(f, se->y[i]);
            }
            dc_polyline(cv, xy, se->n, col, 2, false);
            free(xy);
        }
        for (size_t i = 0; i < se->n; i++)
            S_marker(cv, s, S_px(f, se->x[i]), S_py(f, se->y[i]), col);
    }
    /* legend */
    for (size_t s = 0; s < c->n_series; s++) {
        dcolor col = S_series_color(s);
        double x = f->entry_x[s], y = f->legend_y + f->entry_row[s] * DL_SMALL;
        dc_line(cv, x, y, x + 22, y, col, 2, false);
        S_marker(cv, s, x + 11, y, col);
        dc_text(cv, x + 30, y + 4, DT_START, DF_SMALL, false, DC_INK, c->series[s].name, false);
    }
}

static void S_alt(const draw_chart *c, const frame *f, buf *alt)
{
    char a[64], b[64];
    buf_puts(alt, "Line chart");
    if (c->title) {
        buf_puts(alt, ": ");
        buf_puts(alt, c->title);
    }
    S_tick_text(a, sizeof a, f->ax.lo, &f->ax, c->x_percent);
    S_tick_text(b, sizeof b, f->ax.hi, &f->ax, c->x_percent);
    buf_printf(alt, ". Horizontal axis: %s, %s to %s", c->x_label, a, b);
    S_tick_text(a, sizeof a, f->ay.lo, &f->ay, c->y_percent);
    S_tick_text(b, sizeof b, f->ay.hi, &f->ay, c->y_percent);
    buf_printf(alt, "; vertical axis: %s, %s to %s.", c->y_label, a, b);
    for (size_t s = 0; s < c->n_series; s++) {
        const draw_series *se = &c->series[s];
        buf_printf(alt, " %s:", se->name);
        size_t shown = se->n > 12 ? 12 : se->n;
        for (size_t i = 0; i < shown; i++) {
            axis ex = f->ax, ey = f->ay;
            ex.decimals += 1;
            ey.decimals += 1;
            S_tick_text(a, sizeof a, se->x[i], &ex, c->x_percent);
            S_tick_text(b, sizeof b, se->y[i], &ey, c->y_percent);
            buf_printf(alt, "%s %s → %s", i ? "," : "", a, b);
        }
        if (shown < se->n)
            buf_printf(alt, " and %zu more points", se->n - shown);
        buf_putc(alt, '.');
    }
}

int draw_chart_opts(const draw_chart *c, buf *svg, buf *alt, const draw_opts *o, char *err,
                    size_t errn)
{
    if (S_check(c, err, errn))
        return -1;
    dcanvas *m = dcanvas_new_measure();
    frame f;
    S_frame(m, c, o->look.layout, &f);
    dcanvas_free(m);
    buf desc;
    buf_init(&desc);
    S_alt(c, &f, &desc);
    dcanvas *cv = dcanvas_new_svg(f.w, f.h, o->text, o->look.theme);
    S_paint(cv, c, &f);
    buf doc;
    buf_init(&doc);
    int rc = dcanvas_finish_svg(cv, c->title ? c->title : "Line chart", desc.data, &doc, err, errn);
    dcanvas_free(cv);
    if (rc == 0 && o->png_path) {
        cv = dcanvas_new_png(f.w, f.h, 2, o->look.theme);
        S_paint(cv, c, &f);
        rc = dcanvas_finish_png(cv, o->png_path, err, errn);
        dcanvas_free(cv);
    }
    if (rc == 0) {
        buf_put(svg, doc.data, doc.len);
        buf_put(alt, desc.data, desc.len);
    }
    buf_free(&doc);
    buf_free(&desc);
    free(f.entry_x);
    free(f.entry_row);
    dlines_free(f.title, f.n_title);
    dlines_free(f.x_label, f.n_x_label);
    return rc;
}

int draw_chart_svg(const draw_chart *c, draw_look look, buf *svg, buf *alt, char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, look, NULL, 0};
    return draw_chart_opts(c, svg, alt, &o, err, errn);
}

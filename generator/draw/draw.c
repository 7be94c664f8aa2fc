/* draw.c — the canvas under every figure: the only file that includes cairo.
 * Shapes go through cairo's SVG (or PNG) surface; a post-pass renumbers
 * cairo's ids, adds <title>/<desc> and writes the text.
 *
 * Text in the SVG: <text> elements, not glyph outlines.
 * cairo 1.16 writes every piece of text as glyph outlines (<symbol> paths,
 * one subset per font size and weight, placed with <use>). Measured on the
 * golden boards and the mini timeline (bytes, same drawing, same cairo):
 *
 *     figure                      <text>    glyph outlines
 *     every-delivery (4 parts)     7,152        82,250
 *     mini (4 parts)               6,851        65,748
 *     service (4 parts, 3 links)   7,856        80,926
 *     mini timeline (5 jobs)      19,539       121,166
 *
 * (gzip brings the <text> boards to about 1.9 KB.) Outlines are 9-11 times
 * larger, cannot be selected, searched or translated, and read as nothing
 * to a screen reader. So cairo draws the shapes and this file writes each
 * text as <text font-family="DejaVu Sans, Verdana, sans-serif">, positioned
 * with cairo's own measurement of DejaVu Sans (unhinted metrics, the same
 * face fontconfig gives cairo). Boxes leave 12 px of padding each side and
 * centred texts use text-anchor="middle", so a reader whose browser falls
 * back to Verdana (about as wide, a few per cent wider) still sees every label inside its box.
 * The glyph mode stays (DTEXT_GLYPHS) for the PNG renderer and for tests
 * that the id renumbering keeps documents identical. */
#include "draw/draw_internal.h"
#include "base/fmt.h"
#include "draw/pngenc.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <cairo-svg.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT_FAMILY "DejaVu Sans"
#define PI 3.14159265358979323846
#define SVG_FONT_FAMILY "DejaVu Sans, Verdana, sans-serif"

struct dcanvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    draw_theme theme;
    dtext_mode text;
    bool svg;
    buf raw;             /* cairo's SVG stream */
    buf texts;           /* <text> elements, in drawing order */
    const dmarks *marks; /* of the text being drawn (dc_text_marked) */
    int w, h;
};

/* ------------------------------------------------------------------ palette */

/* Light: the card a little off white on the light page. Dark: the card a
 * step above the dark page (static/boardpress.css --bg #15181c), texts
 * light. Okabe-Ito's chart colours, darkened where they were under 3:1 on
 * the light card, lightened for the dark one; series also differ by marker
 * shape, so colour is never the only signal. */
static const uint32_t palette[2][DC_COUNT] = {
    [DRAW_LIGHT] =
        {
            [DC_CARD] = 0xFAFBFC,        [DC_CARD_EDGE] = 0xD3DAE1,   [DC_INK] = 0x1F2933,
            [DC_MUTED] = 0x52606D,       [DC_LINE] = 0x52606D,        [DC_BOX] = 0xEEF2F6,
            [DC_BOX_EDGE] = 0x66788A,    [DC_EXTERNAL] = 0xFFFFFF,    [DC_BADGE] = 0xDCE6F0,
            [DC_BADGE_INK] = 0x243B53,   [DC_PROTO] = 0x334E68,       [DC_FAIL] = 0xB42318,
            [DC_FAIL_BG] = 0xFCE8E6,     [DC_PASS] = 0x17733A,        [DC_SKIP] = 0x0B6285,
            [DC_GRID] = 0xE3E8ED,        [DC_LIFELINE] = 0x7B8794,    [DC_GLYPH_BACK] = 0x9AA5B1,
            [DC_SERIES0] = 0x0072B2,     [DC_SERIES0 + 1] = 0xD55E00, [DC_SERIES0 + 2] = 0x007A5E,
            [DC_SERIES0 + 3] = 0xB5549A, [DC_SERIES0 + 4] = 0x8C6D00, [DC_SERIES0 + 5] = 0x3F6FB5,
        },
    [DRAW_DARK] =
        {
            [DC_CARD] = 0x1B2026,        [DC_CARD_EDGE] = 0x3A444F,   [DC_INK] = 0xE6E9EC,
            [DC_MUTED] = 0xA7B2BD,       [DC_LINE] = 0xA7B2BD,        [DC_BOX] = 0x262D35,
            [DC_BOX_EDGE] = 0x8594A3,    [DC_EXTERNAL] = 0x1F252C,    [DC_BADGE] = 0x2C3E52,
            [DC_BADGE_INK] = 0xD6E4F2,   [DC_PROTO] = 0xB4CAE0,       [DC_FAIL] = 0xFF9488,
            [DC_FAIL_BG] = 0x472421,     [DC_PASS] = 0x74D394,        [DC_SKIP] = 0x62C3EA,
            [DC_GRID] = 0x2E363F,        [DC_LIFELINE] = 0x6B7886,    [DC_GLYPH_BACK] = 0x6E7B89,
            [DC_SERIES0] = 0x56B4E9,     [DC_SERIES0 + 1] = 0xF0A040, [DC_SERIES0 + 2] = 0x3CC79B,
            [DC_SERIES0 + 3] = 0xE79CCB, [DC_SERIES0 + 4] = 0xE8D84A, [DC_SERIES0 + 5] = 0xA9A4F5,
        },
};

uint32_t dpalette_rgb(draw_theme t, dcolor c)
{
    return (unsigned)c < DC_COUNT && (unsigned)t < 2 ? palette[t][c] : 0;
}

/* Every text role on every fill the figures draw it on (the card; a part's
 * box, external or not; the policy badge; the timeline's duplicate band and
 * a crashed lane), and the lines and marks on the card. */
const dcolor_pair dpalette_pairs[] = {
    {DC_INK, DC_CARD, 4.5},        {DC_MUTED, DC_CARD, 4.5},     {DC_PROTO, DC_CARD, 4.5},
    {DC_FAIL, DC_CARD, 4.5},       {DC_PASS, DC_CARD, 4.5},      {DC_SKIP, DC_CARD, 4.5},
    {DC_INK, DC_BOX, 4.5},         {DC_MUTED, DC_BOX, 4.5},      {DC_FAIL, DC_BOX, 4.5},
    {DC_INK, DC_EXTERNAL, 4.5},    {DC_MUTED, DC_EXTERNAL, 4.5}, {DC_FAIL, DC_EXTERNAL, 4.5},
    {DC_BADGE_INK, DC_BADGE, 4.5}, {DC_INK, DC_FAIL_BG, 4.5},    {DC_MUTED, DC_FAIL_BG, 4.5},
    {DC_FAIL, DC_FAIL_BG, 4.5},    {DC_LINE, DC_CARD, 3},        {DC_BOX_EDGE, DC_CARD, 3},
    {DC_LIFELINE, DC_CARD, 3},     {DC_SERIES0, DC_CARD, 3},     {DC_SERIES0 + 1, DC_CARD, 3},
    {DC_SERIES0 + 2, DC_CARD, 3},  {DC_SERIES0 + 3, DC_CARD, 3}, {DC_SERIES0 + 4, DC_CARD, 3},
    {DC_SERIES0 + 5, DC_CARD, 3},
};
const size_t dpalette_n_pairs = sizeof dpalette_pairs / sizeof dpalette_pairs[0];

/* ------------------------------------------------------------------ looks */

draw_look draw_look_at(int i)
{
    draw_look l = {(draw_layout)((i >> 1) & 1), (draw_theme)(i & 1)};
    return l;
}

int draw_look_index(draw_look l)
{
    return (int)l.layout * 2 + (int)l.theme;
}

const char *draw_look_suffix(draw_look l)
{
    static const char *const s[DRAW_LOOKS] = {"", "-dark", "-narrow", "-narrow-dark"};
    return s[draw_look_index(l) & 3];
}

/* ------------------------------------------------------------------ canvas */

static cairo_status_t S_write(void *closure, const unsigned char *data, unsigned int n)
{
    buf_put(closure, (const char *)data, n);
    return CAIRO_STATUS_SUCCESS;
}

/* Unhinted metrics everywhere, so a measurement on the measuring canvas is
 * exactly what the SVG and PNG canvases lay out. */
static void S_font_options(cairo_t *cr)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
}

static dcanvas *S_canvas(cairo_surface_t *s, dcanvas *c)
{
    c->surface = s;
    c->cr = cairo_create(s);
    S_font_options(c->cr);
    return c;
}

dcanvas *dcanvas_new_measure(void)
{
    dcanvas *c = xcalloc(1, sizeof *c);
    c->text = DTEXT_GLYPHS;
    return S_canvas(cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1), c);
}

dcanvas *dcanvas_new_svg(int w, int h, dtext_mode mode, draw_theme t)
{
    dcanvas *c = xcalloc(1, sizeof *c);
    c->theme = t;
    buf_init(&c->raw);
    buf_init(&c->texts);
    c->svg = true;
    c->text = mode;
    c->w = w;
    c->h = h;
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(S_write, &c->raw, w, h);
    cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
    cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
    return S_canvas(s, c);
}

dcanvas *dcanvas_new_png(int w, int h, double scale, draw_theme t)
{
    dcanvas *c = xcalloc(1, sizeof *c);
    c->theme = t;
    c->text = DTEXT_GLYPHS;
    c->w = w;
    c->h = h;
    cairo_surface_t *s =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w * scale), (int)(h * scale));
    S_canvas(s, c);
    cairo_scale(c->cr, scale, scale);
    return c;
}

void dcanvas_free(dcanvas *c)
{
    if (!c)
        return;
    cairo_destroy(c->cr);
    cairo_surface_destroy(c->surface);
    buf_free(&c->raw);
    buf_free(&c->texts);
    free(c);
}

static void S_font(dcanvas *c, double size, bool bold)
{
    cairo_select_font_face(c->cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(c->cr, size);
}

double dc_text_width(dcanvas *c, const char *s, double size, bool bold)
{
    cairo_text_extents_t te;
    S_font(c, size, bold);
    cairo_text_extents(c->cr, s, &te);
    return te.x_advance;
}

void dc_font_extents(dcanvas *c, double size, double *ascent, double *descent)
{
    cairo_font_extents_t fe;
    S_font(c, size, false);
    cairo_font_extents(c->cr, &fe);
    *ascent = fe.ascent;
    *descent = fe.descent;
}

static void S_color(dcanvas *c, dcolor role)
{
    uint32_t rgb = dpalette_rgb(c->theme, role);
    cairo_set_source_rgb(c->cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0,
                         (rgb & 0xFF) / 255.0);
}

static void S_stroke_style(dcanvas *c, double width, bool dashed)
{
    static const double dash[] = {4.0, 3.0};
    cairo_set_line_width(c->cr, width);
    cairo_set_dash(c->cr, dash, dashed ? 2 : 0, 0);
}

static void S_fill_stroke(dcanvas *c, dcolor fill, dcolor stroke, double width, bool dashed)
{
    if (fill != DC_NONE) {
        S_color(c, fill);
        if (stroke != DC_NONE)
            cairo_fill_preserve(c->cr);
        else
            cairo_fill(c->cr);
    }
    if (stroke != DC_NONE) {
        S_color(c, stroke);
        S_stroke_style(c, width, dashed);
        cairo_stroke(c->cr);
    }
    cairo_new_path(c->cr);
}

void dc_rect(dcanvas *c, double x, double y, double w, double h, double radius, dcolor fill,
             dcolor stroke, bool dashed)
{
    cairo_t *cr = c->cr;
    if (radius <= 0) {
        cairo_rectangle(cr, x, y, w, h);
    } else {
        double r = fmin(radius, fmin(w, h) / 2);
        cairo_new_sub_path(cr);
        cairo_arc(cr, x + w - r, y + r, r, -PI / 2, 0);
        cairo_arc(cr, x + w - r, y + h - r, r, 0, PI / 2);
        cairo_arc(cr, x + r, y + h - r, r, PI / 2, PI);
        cairo_arc(cr, x + r, y + r, r, PI, 3 * PI / 2);
        cairo_close_path(cr);
    }
    S_fill_stroke(c, fill, stroke, 1.0, dashed);
}

void dc_line(dcanvas *c, double x0, double y0, double x1, double y1, dcolor color, double width,
             bool dashed)
{
    double xy[4] = {x0, y0, x1, y1};
    dc_polyline(c, xy, 2, color, width, dashed);
}

void dc_polyline(dcanvas *c, const double *xy, size_t n_pts, dcolor color, double width,
                 bool dashed)
{
    if (n_pts < 2)
        return;
    cairo_move_to(c->cr, xy[0], xy[1]);
    for (size_t i = 1; i < n_pts; i++)
        cairo_line_to(c->cr, xy[2 * i], xy[2 * i + 1]);
    S_fill_stroke(c, DC_NONE, color, width, dashed);
}

void dc_polygon(dcanvas *c, const double *xy, size_t n_pts, dcolor fill, dcolor stroke)
{
    if (n_pts < 3)
        return;
    cairo_move_to(c->cr, xy[0], xy[1]);
    for (size_t i = 1; i < n_pts; i++)
        cairo_line_to(c->cr, xy[2 * i], xy[2 * i + 1]);
    cairo_close_path(c->cr);
    S_fill_stroke(c, fill, stroke, 1.0, false);
}

void dc_circle(dcanvas *c, double cx, double cy, double r, dcolor fill, dcolor stroke)
{
    cairo_new_sub_path(c->cr);
    cairo_arc(c->cr, cx, cy, r, 0, 2 * PI);
    S_fill_stroke(c, fill, stroke, 1.0, false);
}

void dc_arrowhead(dcanvas *c, double x, double y, double dx, double dy, dcolor color)
{
    double len = sqrt(dx * dx + dy * dy);
    if (len == 0)
        return;
    dx /= len;
    dy /= len;
    const double L = 8.0, W = 3.5; /* length and half-width, px */
    double bx = x - dx * L, by = y - dy * L;
    double xy[6] = {x, y, bx - dy * W, by + dx * W, bx + dy * W, by - dx * W};
    dc_polygon(c, xy, 3, color, DC_NONE);
}

void dc_cross(dcanvas *c, double x, double y, double r, dcolor color, double width)
{
    cairo_move_to(c->cr, x - r, y - r);
    cairo_line_to(c->cr, x + r, y + r);
    cairo_move_to(c->cr, x - r, y + r);
    cairo_line_to(c->cr, x + r, y - r);
    cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_ROUND);
    S_fill_stroke(c, DC_NONE, color, width, false);
    cairo_set_line_cap(c->cr, CAIRO_LINE_CAP_BUTT);
}

/* A coordinate as the SVG text wants it: at most 2 decimals, no trailing
 * zeros, independent of the locale. */
static void S_coord(buf *b, double v)
{
    long long h = llround(v * 100.0);
    if (h < 0) {
        buf_putc(b, '-');
        h = -h;
    }
    buf_printf(b, "%lld", h / 100);
    int frac = (int)(h % 100);
    if (frac) {
        buf_printf(b, ".%d", frac / 10);
        if (frac % 10)
            buf_printf(b, "%d", frac % 10);
    }
}

/* The text of a <text>, with a live board's runs as <tspan ATTR="VALUE">
 * (spans in order, not overlapping). */
static void S_text_body(buf *t, const char *s, const dmarks *m)
{
    size_t at = 0, n = strlen(s);
    for (size_t i = 0; m && i < m->n; i++) {
        const dspan *sp = &m->span[i];
        if (sp->off < at || sp->off + sp->len > n)
            continue; /* not ours to mark: the text is written plain */
        buf_html(t, s + at, sp->off - at);
        buf_printf(t, "<tspan %s=\"", sp->attr);
        buf_html_s(t, sp->value);
        buf_puts(t, "\">");
        buf_html(t, s + sp->off, sp->len);
        buf_puts(t, "</tspan>");
        at = sp->off + sp->len;
    }
    buf_html(t, s + at, n - at);
}

void dc_text(dcanvas *c, double x, double y, dtext_anchor a, double size, bool bold, dcolor color,
             const char *s, bool rotate_ccw)
{
    if (c->text == DTEXT_ELEMENTS && c->svg) {
        buf *t = &c->texts;
        buf_puts(t, "<text x=\"");
        S_coord(t, x);
        buf_puts(t, "\" y=\"");
        S_coord(t, y);
        buf_puts(t, "\"");
        if (rotate_ccw) {
            buf_puts(t, " transform=\"rotate(-90 ");
            S_coord(t, x);
            buf_putc(t, ' ');
            S_coord(t, y);
            buf_puts(t, ")\"");
        }
        if (size != DF_SMALL) {
            buf_puts(t, " font-size=\"");
            S_coord(t, size);
            buf_puts(t, "\"");
        }
        if (bold)
            buf_puts(t, " font-weight=\"bold\"");
        if (a != DT_START)
            buf_puts(t, a == DT_MIDDLE ? " text-anchor=\"middle\"" : " text-anchor=\"end\"");
        if (color != DC_INK)
            buf_printf(t, " fill=\"#%06x\"", (unsigned)dpalette_rgb(c->theme, color));
        if (c->marks && c->marks->goal)
            buf_printf(t, " data-goal=\"%s\" data-fill-pass=\"#%06x\" data-fill-fail=\"#%06x\"",
                       c->marks->goal, (unsigned)dpalette_rgb(c->theme, DC_PASS),
                       (unsigned)dpalette_rgb(c->theme, DC_FAIL));
        buf_putc(t, '>');
        S_text_body(t, s, c->marks);
        buf_puts(t, "</text>\n");
        return;
    }
    cairo_t *cr = c->cr;
    double w = dc_text_width(c, s, size, bold);
    double off = a == DT_START ? 0 : a == DT_MIDDLE ? -w / 2 : -w;
    cairo_save(cr);
    cairo_translate(cr, x, y);
    if (rotate_ccw)
        cairo_rotate(cr, -PI / 2);
    cairo_move_to(cr, off, 0);
    S_color(c, color);
    cairo_show_text(cr, s);
    cairo_new_path(cr);
    cairo_restore(cr);
}

void dc_element(dcanvas *c, const char *name, const char *attrs)
{
    if (c->text != DTEXT_ELEMENTS || !c->svg)
        return;
    buf_printf(&c->texts, "<%s %s/>\n", name, attrs);
}

void dc_band(dcanvas *c, double x, double y, double w, double h, const char *attrs)
{
    if (c->text != DTEXT_ELEMENTS || !c->svg)
        return;
    buf *t = &c->texts;
    const double v[4] = {x, y, w, h};
    static const char *const names[4] = {"<rect x=\"", "\" y=\"", "\" width=\"", "\" height=\""};
    for (int i = 0; i < 4; i++) {
        buf_puts(t, names[i]);
        S_coord(t, v[i]);
    }
    buf_printf(t, "\" fill=\"none\" %s/>\n", attrs);
}

void dc_text_marked(dcanvas *c, double x, double y, dtext_anchor a, double size, bool bold,
                    dcolor color, const char *s, const dmarks *marks)
{
    c->marks = marks && (marks->n || marks->goal) ? marks : NULL;
    dc_text(c, x, y, a, size, bold, color, s, false);
    c->marks = NULL;
}

static int S_status(dcanvas *c, char *err, size_t errn)
{
    cairo_status_t st = cairo_status(c->cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(c->surface);
    if (st != CAIRO_STATUS_SUCCESS)
        return dfail(err, errn, "cairo could not draw the figure: %s", cairo_status_to_string(st));
    return 0;
}

/* ------------------------------------------------------------------ SVG post-pass */

/* cairo numbers ids from process-wide counters (surface5, glyph2-7): map
 * every id to its prefix plus the order of its first appearance, so each
 * document starts from 1 whatever was drawn before it. Ids appear as
 * id="X", href="#X" and url(#X). */
typedef struct {
    char *old_id;
    char *new_id;
} S_idmap;

static bool S_id_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '_';
}

static void S_renumber(const char *in, size_t len, buf *out)
{
    S_idmap *map = NULL;
    size_t n_map = 0, cap_map = 0;
    struct {
        char prefix[32];
        int count;
    } prefixes[16];
    size_t n_prefixes = 0;
    static const char *const starts[] = {"id=\"", "href=\"#", "url(#"};
    size_t i = 0;
    while (i < len) {
        size_t skip = 0;
        for (size_t k = 0; k < 3; k++) {
            size_t sl = strlen(starts[k]);
            if (i + sl <= len && memcmp(in + i, starts[k], sl) == 0) {
                skip = sl;
                break;
            }
        }
        if (!skip) {
            buf_putc(out, in[i++]);
            continue;
        }
        buf_put(out, in + i, skip);
        i += skip;
        size_t j = i;
        while (j < len && S_id_char(in[j]))
            j++;
        size_t p = i;
        while (p < j && !(in[p] >= '0' && in[p] <= '9'))
            p++;
        if (p == i || p == j || p - i >= sizeof prefixes[0].prefix) { /* not cairo's NAME<n> */
            buf_put(out, in + i, j - i);
            i = j;
            continue;
        }
        size_t m = 0;
        for (; m < n_map; m++)
            if (strlen(map[m].old_id) == j - i && memcmp(map[m].old_id, in + i, j - i) == 0)
                break;
        if (m == n_map) {
            size_t q = 0;
            for (; q < n_prefixes; q++)
                if (strlen(prefixes[q].prefix) == p - i &&
                    memcmp(prefixes[q].prefix, in + i, p - i) == 0)
                    break;
            if (q == n_prefixes) {
                if (n_prefixes == 16) { /* more kinds than cairo has: leave it */
                    buf_put(out, in + i, j - i);
                    i = j;
                    continue;
                }
                memcpy(prefixes[q].prefix, in + i, p - i);
                prefixes[q].prefix[p - i] = '\0';
                prefixes[q].count = 0;
                n_prefixes++;
            }
            map = xgrow(map, sizeof *map, &cap_map, n_map + 1);
            map[n_map].old_id = xstrndup(in + i, j - i);
            map[n_map].new_id = xasprintf("%s%d", prefixes[q].prefix, ++prefixes[q].count);
            n_map++;
        }
        buf_puts(out, map[m].new_id);
        i = j;
    }
    for (size_t m = 0; m < n_map; m++) {
        free(map[m].old_id);
        free(map[m].new_id);
    }
    free(map);
}

int dcanvas_finish_svg(dcanvas *c, const char *title, const char *desc, buf *out, char *err,
                       size_t errn)
{
    if (S_status(c, err, errn) != 0)
        return -1;
    cairo_surface_finish(c->surface);
    if (S_status(c, err, errn) != 0)
        return -1;
    buf doc;
    buf_init(&doc);
    S_renumber(c->raw.data ? c->raw.data : "", c->raw.len, &doc);
    const char *svg = strstr(doc.data ? doc.data : "", "<svg");
    const char *open_end = svg ? strchr(svg, '>') : NULL;
    const char *close = doc.data ? strstr(doc.data, "</svg>") : NULL;
    if (!open_end || !close || close < open_end) {
        buf_free(&doc);
        return dfail(err, errn, "cairo wrote an SVG document without an <svg> element");
    }
    size_t head = (size_t)(open_end + 1 - doc.data);
    buf_put(out, doc.data, head);
    buf_puts(out, "\n<title>");
    buf_html_s(out, title);
    buf_puts(out, "</title>\n<desc>");
    buf_html_s(out, desc);
    buf_puts(out, "</desc>");
    buf_put(out, doc.data + head, (size_t)(close - doc.data) - head);
    if (c->texts.len) {
        buf_puts(out, "<g font-family=\"" SVG_FONT_FAMILY "\" font-size=\"12\" fill=\"#");
        buf_printf(out, "%06x\">\n", (unsigned)dpalette_rgb(c->theme, DC_INK));
        buf_put(out, c->texts.data, c->texts.len);
        buf_puts(out, "</g>\n");
    }
    buf_puts(out, close);
    buf_free(&doc);
    return 0;
}

/* The canvas's pixels as PNG bytes (draw/pngenc.c, not cairo's writer). */
static int S_png(dcanvas *c, buf *out, char *err, size_t errn)
{
    if (S_status(c, err, errn) != 0)
        return -1;
    cairo_surface_flush(c->surface);
    return png_encode_argb(cairo_image_surface_get_data(c->surface),
                           cairo_image_surface_get_width(c->surface),
                           cairo_image_surface_get_height(c->surface),
                           cairo_image_surface_get_stride(c->surface), out, err, errn);
}

int dcanvas_finish_png(dcanvas *c, const char *path, char *err, size_t errn)
{
    buf png;
    buf_init(&png);
    int rc = S_png(c, &png, err, errn);
    if (rc == 0) {
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(png.data, 1, png.len, f) == png.len;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok)
            rc = dfail(err, errn, "could not write %s: %s", path, strerror(errno));
    }
    buf_free(&png);
    return rc;
}

int dcanvas_finish_png_buf(dcanvas *c, buf *out, char *err, size_t errn)
{
    return S_png(c, out, err, errn);
}

void dc_push_place(dcanvas *c, double x, double y, double scale)
{
    cairo_save(c->cr);
    cairo_translate(c->cr, x, y);
    cairo_scale(c->cr, scale, scale);
}

void dc_pop_place(dcanvas *c)
{
    cairo_restore(c->cr);
}

/* ------------------------------------------------------------------ checks */

int dfail(char *err, size_t errn, const char *fmt, ...)
{
    if (err && errn) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errn, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int dcheck_text(const char *what, const char *s, char *err, size_t errn)
{
    if (!s)
        return dfail(err, errn, "%s is missing", what);
    size_t n = strlen(s), bad;
    if (!utf8_valid(s, n, &bad))
        return dfail(err, errn, "%s is not valid UTF-8 (bad byte at offset %zu)", what, bad);
    if (n > 400)
        return dfail(err, errn, "%s is too long to draw (%zu bytes; at most 400)", what, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7F)
            return dfail(err, errn, "%s contains a control character at offset %zu", what, i);
        /* U+FFFE, U+FFFF are not allowed in XML */
        if (ch == 0xEF && i + 2 < n && (unsigned char)s[i + 1] == 0xBF &&
            ((unsigned char)s[i + 2] == 0xBE || (unsigned char)s[i + 2] == 0xBF))
            return dfail(err, errn, "%s contains a non-character at offset %zu", what, i);
    }
    return 0;
}

int dcheck_number(const char *what, double v, double lo, double hi, char *err, size_t errn)
{
    if (!isfinite(v))
        return dfail(err, errn, "%s is not a finite number", what);
    if (v < lo || v > hi)
        return dfail(err, errn, "%s is %g, outside %g to %g", what, v, lo, hi);
    return 0;
}

bool drect_overlap(drect a, drect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

drect drect_grow(drect r, double by)
{
    drect g = {r.x - by, r.y - by, r.w + 2 * by, r.h + 2 * by};
    return g;
}

/* ------------------------------------------------------------------ public helpers */

double draw_text_width(const char *s, double size_px, bool bold)
{
    dcanvas *m = dcanvas_new_measure();
    double w = dc_text_width(m, s, size_px, bold);
    dcanvas_free(m);
    return w;
}

const char *draw_engine_version(void)
{
    return cairo_version_string();
}

void draw_shutdown(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

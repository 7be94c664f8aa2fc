/* figure.c — the one place a drawing becomes page markup (render_internal.h:
 * figure_markup, expand_figure). A drawing comes in four renderings (wide
 * and narrow, light and dark) and the browser picks one without JavaScript:
 *
 *   <picture>
 *     <source media="screen and (prefers-color-scheme: dark) and
 *                    (min-width: Npx)" srcset="X-dark.svg">
 *     <source media="(min-width: Npx)" srcset="X.svg">
 *     <source media="screen and (prefers-color-scheme: dark)"
 *             srcset="X-narrow-dark.svg">
 *     <img src="X-narrow.svg" alt="...">
 *   </picture>
 *
 * N is the narrowest viewport whose figure column holds the wide drawing at
 * its own size, so no text in it is drawn under DRAW_MIN_TEXT: the wide
 * drawing's width plus what the page (FIG_PAGE_INSET) and the box around
 * the figure (a level's padding: FIG_LEVEL_INSET) take from the viewport.
 * Below N the narrow drawing (at most DRAW_NARROW_W, the text column of a
 * 320 px screen) is shown at its own size. Print gets the light drawings.
 * The inline form puts all four SVGs in the page instead, each in a box
 * the stylesheet shows or hides with the same rules (container queries on
 * the figure's own width, in 64 px steps: static/boardpress.css
 * "Inline figures"), for widgets whose script changes what the drawing says. */
#include "render/render_internal.h"
#include "draw/draw.h"

#include <stdlib.h>
#include <string.h>

/* The order of the <source>s: the first that matches wins. */
static const draw_look source_order[] = {
    {DRAW_WIDE, DRAW_DARK},
    {DRAW_WIDE, DRAW_LIGHT},
    {DRAW_NARROW, DRAW_DARK},
    {DRAW_NARROW, DRAW_LIGHT}, /* the <img> itself */
};

int figure_breakpoint(int wide_w, int inset)
{
    return wide_w + FIG_PAGE_INSET + inset;
}

char *figure_file(const char *stem, draw_look look)
{
    return xasprintf("%s%s.svg", stem, draw_look_suffix(look));
}

void figure_size(const char *svg, draw_look look, int *w, int *h)
{
    expand_svg_size(svg, w, h);
    if (look.layout == DRAW_NARROW && *w > 0) {
        *h = (int)((double)*h * DRAW_NARROW_SHOW_MAX / DRAW_NARROW_W + 0.5);
        *w = (int)((double)*w * DRAW_NARROW_SHOW_MAX / DRAW_NARROW_W + 0.5);
    }
}

static void S_size_attrs(buf *out, const char *svg, draw_look look)
{
    int w, h;
    figure_size(svg, look, &w, &h);
    if (w > 0 && h > 0)
        buf_printf(out, " width=\"%d\" height=\"%d\"", w, h);
}

/* An SVG document as an element of the page: no XML declaration, its ids
 * (cairo's surface1, clip2...) prefixed so four renderings and other
 * figures never share one, and named for assistive technology by alt. */
/* A drawing's folds (draw/: a timeline's repeated rows): where each
 * starts and ends in the drawing's own px, and its line of words. */
typedef struct {
    double y0, y1;
    unsigned first, end; /* the rows it hides */
    char *words;         /* as written in the SVG: escaped */
} S_fold;

static size_t S_folds(const char *svg, S_fold **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (const char *p = svg; (p = strstr(p, "data-fold=\"")) != NULL;) {
        double y0, y1;
        unsigned first, end;
        p += strlen("data-fold=\"");
        const char *w = strstr(p, "data-words=\"");
        if (!w || sscanf(p, "%lf %lf\" data-span=\"%u %u", &y0, &y1, &first, &end) != 4 || y1 <= y0)
            continue;
        w += strlen("data-words=\"");
        *out = xgrow(*out, sizeof **out, &cap, n + 1);
        (*out)[n++] = (S_fold){y0, y1, first, end, xstrndup(w, strcspn(w, "\""))};
    }
    return n;
}

/* A piece of the drawing from y, h tall: a copy of the first piece's
 * drawing (<use>), shown through its own viewBox. */
static void S_piece(buf *out, const char *prefix, int w, double y, double h)
{
    buf_printf(out,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
               "viewBox=\"0 %.2f %d %.2f\" aria-hidden=\"true\">"
               "<use href=\"#%s-all\"/></svg>",
               w, h, y, w, h, prefix);
}

static void S_inline_svg(buf *out, const char *svg, const char *prefix, const char *alt)
{
    const char *p = strstr(svg, "<svg");
    if (!p)
        return;
    S_fold *folds;
    size_t n_folds = S_folds(p, &folds);
    int w = 0, h = 0;
    expand_svg_size(svg, &w, &h);
    buf_puts(out, "<svg role=\"img\" aria-label=\"");
    buf_html_s(out, alt);
    buf_puts(out, "\"");
    if (n_folds) {
        /* folded: the first piece, to the first fold, holds the drawing
         * (in a group the other pieces use), the folds open in a
         * <details> each, the pieces between them and after the last
         * show the rest */
        buf_printf(out,
                   " xmlns=\"http://www.w3.org/2000/svg\" "
                   "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"%d\" height=\"%.0f\" "
                   "viewBox=\"0 0 %d %.2f\"><g id=\"%s-all\">",
                   w, folds[0].y0, w, folds[0].y0, prefix);
        const char *gt = strchr(p, '>');
        p = gt ? gt + 1 : p + strlen(p);
    } else {
        /* the root's sizes in plain numbers, as HTML wants them:
         * width="928px" -> width="928" */
        for (p += 4; *p && *p != '>'; p++) {
            if (p[0] == 'p' && p[1] == 'x' && p[2] == '"' && p[-1] >= '0' && p[-1] <= '9')
                p++;
            else
                buf_putc(out, *p);
        }
    }
    /* the rest as it is, in runs up to the next place an id is named */
    static const char *const refs[] = {"id=\"", "href=\"#", "url(#"};
    const char *q = p;
    for (;;) {
        q += strcspn(q, "ihu"); /* what the refs start with */
        if (!*q || (n_folds && strncmp(q, "</svg>", 6) == 0))
            break;
        size_t k = 0, len = 0;
        for (; k < 3; k++)
            if (strncmp(q, refs[k], (len = strlen(refs[k]))) == 0)
                break;
        if (k == 3) {
            q++;
            continue;
        }
        buf_put(out, p, (size_t)(q - p) + len);
        buf_puts(out, prefix);
        buf_putc(out, '-');
        p = q += len;
    }
    if (!n_folds) {
        buf_put(out, p, (size_t)(q - p));
        return;
    }
    const char *close = strstr(p, "</svg>");
    buf_put(out, p, close ? (size_t)(close - p) : strlen(p));
    buf_puts(out, "</g></svg>");
    for (size_t k = 0; k < n_folds; k++) {
        buf_printf(out, "<details class=\"bp-fold\" data-span=\"%u %u\"><summary>%s</summary>",
                   folds[k].first, folds[k].end, folds[k].words);
        S_piece(out, prefix, w, folds[k].y0, folds[k].y1 - folds[k].y0);
        buf_puts(out, "</details>");
        double next = k + 1 < n_folds ? folds[k + 1].y0 : h;
        if (next > folds[k].y1)
            S_piece(out, prefix, w, folds[k].y1, next - folds[k].y1);
        free(folds[k].words);
    }
    free(folds);
}

void figure_markup(buf *out, const fig_spec *f)
{
    int wide_w = f->wide_w, h;
    if (wide_w <= 0)
        expand_svg_size(f->fig->svg[draw_look_index(source_order[0])], &wide_w, &h);
    int n = figure_breakpoint(wide_w, f->inset);
    if (f->inline_svg) {
        /* the smallest step at least as wide as the wide drawing */
        int fit = FIG_FIT_MIN;
        while (fit < wide_w && fit <= FIG_FIT_MAX)
            fit += FIG_FIT_STEP;
        buf_printf(out, "<div class=\"bp-variants bp-fit-%d\">", fit);
        for (int i = 0; i < DRAW_LOOKS; i++) {
            draw_look look = draw_look_at(i);
            buf_printf(out, "<div class=\"bp-v bp-v-%s bp-v-%s %s\">",
                       look.layout == DRAW_WIDE ? "wide" : "narrow",
                       look.theme == DRAW_DARK ? "dark" : "light", f->cls);
            char *prefix = xasprintf("%s%s", f->id_prefix, draw_look_suffix(look));
            S_inline_svg(out, f->fig->svg[i], prefix[0] ? prefix : "fig", f->fig->alt);
            free(prefix);
            buf_puts(out, "</div>");
        }
        buf_puts(out, "</div>");
        return;
    }
    /* what each source needs besides its width ("and" joins them) */
    static const char *const media[] = {"screen and (prefers-color-scheme: dark) and ", "",
                                        "screen and (prefers-color-scheme: dark)"};
    buf_puts(out, "<picture class=\"bp-picture\">");
    for (size_t k = 0; k < 3; k++) {
        int i = draw_look_index(source_order[k]);
        char *file = figure_file(f->stem, source_order[k]);
        buf_puts(out, "<source media=\"");
        buf_puts(out, media[k]);
        if (source_order[k].layout == DRAW_WIDE)
            buf_printf(out, "(min-width: %dpx)", n);
        buf_puts(out, "\" srcset=\"");
        buf_html_s(out, file);
        buf_puts(out, "\"");
        S_size_attrs(out, f->fig->svg[i], source_order[k]);
        buf_puts(out, ">");
        free(file);
    }
    int i = draw_look_index(source_order[3]);
    char *file = figure_file(f->stem, source_order[3]);
    buf_printf(out, "<img class=\"%s\" src=\"", f->cls);
    buf_html_s(out, file);
    buf_puts(out, "\"");
    S_size_attrs(out, f->fig->svg[i], source_order[3]);
    buf_puts(out, " alt=\"");
    buf_html_s(out, f->fig->alt);
    buf_puts(out, "\"></picture>");
    free(file);
}

void figure_timeline_rows(buf *out, const bp_board *b, const sim_trace_entry *tr, size_t n)
{
    buf words, rows;
    buf_init(&words);
    buf_init(&rows);
    char err[256];
    if (draw_timeline_rows(b, tr, n, &words, &rows, err, sizeof err) == 0) {
        buf_puts(out, " data-rows=\"");
        buf_html(out, words.data ? words.data : "", words.len);
        buf_puts(out, "\" data-events=\"");
        buf_html(out, rows.data ? rows.data : "", rows.len);
        buf_putc(out, '"');
    }
    buf_free(&words);
    buf_free(&rows);
}

int expand_figure_files(page_ctx *pc, const char *stem, const sfigure *fig)
{
    int rc = 0;
    for (int i = 0; i < DRAW_LOOKS; i++) {
        char *file = figure_file(stem, draw_look_at(i));
        if (expand_page_file(pc, file, fig->svg[i]) != 0)
            rc = -1;
        free(file);
    }
    return rc;
}

int expand_figure(page_ctx *pc, const fig_spec *f, buf *out)
{
    if (!f->inline_svg && expand_figure_files(pc, f->stem, f->fig) != 0)
        return -1;
    figure_markup(out, f);
    return 0;
}

/* draw_card.c — a page's share card (draw_card in draw.h): the picture a
 * link preview shows, made of the page's words and its first board drawn
 * by the board code itself, scaled into the card. */
#include "draw/draw.h"
#include "draw/draw_internal.h"

#include <stdlib.h>
#include <string.h>

#define CARD_MARGIN 64.0
#define CARD_SITE_SIZE 26.0
#define CARD_TITLE_SIZE 54.0
#define CARD_TITLE_LINES 3
#define CARD_DESC_SIZE 28.0

/* s cut at a character boundary so that it and "…" fit in max_w (s itself
 * when it fits); the caller frees. */
static char *fit_line(dcanvas *c, const char *s, double size, bool bold, double max_w)
{
    if (dc_text_width(c, s, size, bold) <= max_w)
        return xstrdup(s);
    size_t n = strlen(s);
    char *t = xmalloc(n + 4);
    while (n > 0) {
        do
            n--;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80);
        size_t k = n;
        while (k > 0 && s[k - 1] == ' ')
            k--;
        memcpy(t, s, k);
        memcpy(t + k, "\xe2\x80\xa6", 4);
        if (dc_text_width(c, t, size, bold) <= max_w)
            return t;
    }
    memcpy(t, "\xe2\x80\xa6", 4);
    return t;
}

int draw_card(const char *site_title, const char *title, const char *desc, const bp_board *b,
              const draw_note *notes, size_t n_notes, buf *png, char *err, size_t errn)
{
    if (dcheck_text("the site's title", site_title, err, errn) ||
        dcheck_text("the page's title", title, err, errn) ||
        (desc && dcheck_text("the page's summary", desc, err, errn)))
        return -1;
    dcanvas *c = dcanvas_new_png(DRAW_CARD_W, DRAW_CARD_H, 1, DRAW_LIGHT);
    const double w = DRAW_CARD_W - 2 * CARD_MARGIN;
    dc_rect(c, 0, 0, DRAW_CARD_W, DRAW_CARD_H, 0, DC_CARD, DC_NONE, false);
    dc_rect(c, 0, 0, DRAW_CARD_W, 12, 0, DC_PASS, DC_NONE, false);
    double y = CARD_MARGIN + CARD_SITE_SIZE;
    char *name = fit_line(c, site_title, CARD_SITE_SIZE, false, w);
    dc_text(c, CARD_MARGIN, y, DT_START, CARD_SITE_SIZE, false, DC_MUTED, name, false);
    free(name);
    y += 24;

    char **lines = NULL;
    double widest = 0;
    size_t n = dwrap(c, title, CARD_TITLE_SIZE, true, w, &lines, &widest);
    size_t shown = n < CARD_TITLE_LINES ? n : CARD_TITLE_LINES;
    for (size_t i = 0; i < shown; i++) {
        y += CARD_TITLE_SIZE * 1.15;
        bool last = i + 1 == shown && n > shown;
        char *joined = last ? xasprintf("%s %s", lines[i], lines[i + 1]) : xstrdup(lines[i]);
        char *line = last ? fit_line(c, joined, CARD_TITLE_SIZE, true, w - 40)
                          : fit_line(c, joined, CARD_TITLE_SIZE, true, w);
        if (last && !strstr(line, "\xe2\x80\xa6")) { /* the next line fitted whole: mark the cut */
            char *more = xasprintf("%s\xe2\x80\xa6", line);
            free(line);
            line = more;
        }
        dc_text(c, CARD_MARGIN, y, DT_START, CARD_TITLE_SIZE, true, DC_INK, line, false);
        free(line);
        free(joined);
    }
    dlines_free(lines, n);
    if (desc && *desc) {
        y += CARD_DESC_SIZE * 1.9;
        char *line = fit_line(c, desc, CARD_DESC_SIZE, false, w);
        dc_text(c, CARD_MARGIN, y, DT_START, CARD_DESC_SIZE, false, DC_MUTED, line, false);
        free(line);
    }
    int rc = 0;
    y += 32;
    double h = DRAW_CARD_H - CARD_MARGIN / 2 - y;
    if (b && h > 80)
        rc = dboard_paint_fit(c, b, notes, n_notes, CARD_MARGIN, y, w, h, err, errn);
    if (rc == 0)
        rc = dcanvas_finish_png_buf(c, png, err, errn);
    dcanvas_free(c);
    return rc;
}

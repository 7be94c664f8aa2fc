/* draw_board.c — the board diagram: what each part's box and each link
 * says (labels, the measured notes; the settings and faults in words are
 * draw_facts.c's), the painting of a layout (draw_board_layout.c places
 * it), the alt text, and the entry points. A live board's texts carry
 * marks (dmarks) for the page to rewrite. */
#include "draw/draw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ box contents */

static void S_add_wrapped(dcanvas *m, dbline **arr, size_t *n, size_t *cap, const char *text,
                          double size, bool bold, dcolor color, double max_w)
{
    char **lines;
    size_t k = dwrap(m, text, size, bold, max_w, &lines, NULL);
    for (size_t i = 0; i < k; i++) {
        *arr = xgrow(*arr, sizeof **arr, cap, *n + 1);
        dbline *l = &(*arr)[(*n)++];
        l->text = lines[i];
        l->size = size;
        l->bold = bold;
        l->color = color;
        l->w = dc_text_width(m, lines[i], size, bold);
        memset(&l->marks, 0, sizeof l->marks);
    }
    free(lines);
}

/* A text with a live board's marks stays one line (the runs' offsets hold). */
static void S_add_marked(dcanvas *m, dbline **arr, size_t *n, size_t *cap, const char *text,
                         double size, bool bold, dcolor color, double max_w, const dmarks *mk)
{
    if (!mk->n && !mk->goal) {
        S_add_wrapped(m, arr, n, cap, text, size, bold, color, max_w);
        return;
    }
    *arr = xgrow(*arr, sizeof **arr, cap, *n + 1);
    dbline *l = &(*arr)[(*n)++];
    l->text = xstrdup(text);
    l->size = size;
    l->bold = bold;
    l->color = color;
    l->w = dc_text_width(m, text, size, bold);
    l->marks = *mk;
}

void dboard_contents_free(dpart_content *pc, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < pc[i].n; k++)
            free(pc[i].lines[k].text);
        for (size_t k = 0; k < pc[i].n_notes; k++)
            free(pc[i].notes[k].text);
        free(pc[i].lines);
        free(pc[i].notes);
        free(pc[i].badge);
    }
    free(pc);
}

static const char *S_tone_mark(draw_tone t)
{
    return t == DRAW_PASS ? "✓ " : t == DRAW_FAIL ? "✗ " : "";
}

static dcolor S_tone_color(draw_tone t)
{
    return t == DRAW_PASS ? DC_PASS : t == DRAW_FAIL ? DC_FAIL : DC_MUTED;
}

double dceil_to(double v, double step)
{
    return ceil(v / step - 1e-9) * step;
}

/* Does the board run more than once? Then a measured count is the mean
 * of its runs ("110.3 duplicates"), and its notes and alt text say so. */
static bool S_means(const bp_board *b)
{
    return b->sim.replications > 1 || b->sim.until > 0;
}

dpart_content *dboard_contents(dcanvas *m, const bp_board *b, const draw_note *notes,
                               size_t n_notes, double text_w, double note_w, bool notes_inside,
                               const dlives *lv)
{
    size_t n = b->sim.n_parts;
    dpart_content *pc = xcalloc(n, sizeof *pc);
    for (size_t i = 0; i < n; i++) {
        dpart_content *c = &pc[i];
        const sim_part *p = &b->sim.parts[i];
        c->users = p->kind == SIM_KIND_USERS;
        c->external = p->external;
        S_add_wrapped(m, &c->lines, &c->n, &c->cap, dpart_label(b, i), DF_LABEL, false, DC_INK,
                      text_w);
        c->n_label = c->n;
        char facts[8][128];
        dcolor colors[8];
        dmarks marks[8];
        size_t nf;
        dpart_facts(b, i, facts, colors, marks, lv, &nf);
        for (size_t k = 0; k < nf; k++)
            S_add_marked(m, &c->lines, &c->n, &c->cap, facts[k], DF_SMALL, false, colors[k], text_w,
                         &marks[k]);
        double tw = 0, th = 2 * DB_PAD_Y;
        for (size_t k = 0; k < c->n; k++) {
            tw = fmax(tw, c->lines[k].w);
            th += k < c->n_label ? DL_LABEL : DL_SMALL;
        }
        if (dpart_handles(p->kind)) {
            c->badge = xstrdup(dpolicy_badge(p->idempotency));
            c->badge_w = dc_text_width(m, c->badge, DF_BADGE, false) + 14;
            tw = fmax(tw, c->badge_w);
            th += 6 + DB_BADGE_H;
        }
        c->w = dceil_to(fmax(DB_BOX_MIN_W, tw + 2 * DB_PAD_X + (c->users ? DB_GLYPH_W : 0)), 8);
        c->h = dceil_to(fmax(DB_BOX_MIN_H, th), 8);
    }
    for (size_t k = 0; k < n_notes; k++) {
        dpart_content *c = &pc[notes[k].part];
        const char *mark = S_tone_mark(notes[k].tone);
        char *t = xasprintf("%s%s", mark, notes[k].text);
        dmarks mk = {{{0}}, 0, NULL};
        if (notes[k].measure && notes[k].value_len <= strlen(notes[k].text)) {
            if (*mark) {
                mk.span[mk.n++] = (dspan){"data-mark", "", 0, strlen(mark)};
                mk.goal = notes[k].measure;
            }
            mk.span[mk.n++] =
                (dspan){"data-measure", notes[k].measure, strlen(mark), notes[k].value_len};
        }
        S_add_marked(m, &c->notes, &c->n_notes, &c->cap_notes, t, DF_SMALL, true,
                     S_tone_color(notes[k].tone), note_w, &mk);
        free(t);
    }
    for (size_t i = 0; i < n; i++) {
        dpart_content *c = &pc[i];
        /* the notes are means, not counts: a plain line under them says so */
        if (c->n_notes && S_means(b))
            S_add_wrapped(m, &c->notes, &c->n_notes, &c->cap_notes, "per run, on average", DF_SMALL,
                          false, DC_MUTED, note_w);
        for (size_t k = 0; k < c->n_notes; k++)
            c->notes_w = fmax(c->notes_w, c->notes[k].w);
        c->notes_h = c->n_notes ? 6 + DL_SMALL * (double)c->n_notes : 0;
        if (notes_inside && c->n_notes) { /* under the label and badge, in the box */
            c->w = dceil_to(fmax(c->w, c->notes_w + 2 * DB_PAD_X + (c->users ? DB_GLYPH_W : 0)), 8);
            c->h = dceil_to(c->h + c->notes_h, 8);
            c->notes_h = 0;
        }
    }
    return pc;
}

/* ------------------------------------------------------------------ painting */

/* Two people, the front one darker: the users glyph, centred at (x, y). */
static void S_users_glyph(dcanvas *c, double x, double y)
{
    dc_circle(c, x + 5, y - 6, 3.5, DC_GLYPH_BACK, DC_NONE);
    dc_rect(c, x - 1, y - 1, 12, 9, 4.5, DC_GLYPH_BACK, DC_NONE, false);
    dc_circle(c, x - 3, y - 4, 4, DC_BOX_EDGE, DC_NONE);
    dc_rect(c, x - 10, y + 1, 14, 10, 5, DC_BOX_EDGE, DC_NONE, false);
}

static void S_paint(dcanvas *c, const dboard_layout *l)
{
    dc_rect(c, 0.5, 0.5, l->width - 1, l->height - 1, 8, DC_CARD, DC_CARD_EDGE, false);
    for (size_t i = 0; i < l->n_links; i++) {
        const dlink_geom *g = &l->links[i];
        size_t n = g->n_pts;
        if (n < 2)
            continue;
        double *xy = xmalloc(n * 2 * sizeof *xy);
        for (size_t k = 0; k < 2 * n; k++)
            xy[k] = dc_half(g->xy[k]);
        /* stop the line inside the arrowhead so it does not poke through the tip */
        double dx = xy[2 * n - 2] - xy[2 * n - 4], dy = xy[2 * n - 1] - xy[2 * n - 3];
        double len = fabs(dx) + fabs(dy);
        double tipx = g->xy[2 * n - 2] + (dx > 0 ? 0 : dx < 0 ? 1 : 0.5);
        double tipy = g->xy[2 * n - 1] + (dy > 0 ? 0 : dy < 0 ? 1 : 0.5);
        if (len > 0) {
            xy[2 * n - 2] -= dx / len * 6;
            xy[2 * n - 1] -= dy / len * 6;
        }
        dc_polyline(c, xy, n, DC_LINE, 1, g->dashed);
        dc_arrowhead(c, tipx, tipy, dx, dy, DC_LINE);
        free(xy);
        if (g->lost_mark) {
            dc_circle(c, g->mark_x + 0.5, g->mark_y + 0.5, 5.5, DC_CARD, DC_NONE);
            dc_cross(c, g->mark_x + 0.5, g->mark_y + 0.5, 3.5, DC_FAIL, 2);
        }
    }
    for (size_t i = 0; i < l->n_parts; i++) {
        const dpart_geom *p = &l->parts[i];
        dc_rect(c, p->box.x + 0.5, p->box.y + 0.5, p->box.w - 1, p->box.h - 1, 6,
                p->external ? DC_EXTERNAL : DC_BOX, DC_BOX_EDGE, p->external);
        if (p->users)
            S_users_glyph(c, p->box.x + DB_PAD_X + 8, p->box.y + p->box.h / 2);
        if (p->has_badge)
            dc_rect(c, p->badge.x, p->badge.y, p->badge.w, p->badge.h, p->badge.h / 2, DC_BADGE,
                    DC_NONE, false);
    }
    for (size_t i = 0; i < l->n_labels; i++) {
        const dlabel *t = &l->labels[i];
        /* a live board's marks (a note's measure and verdict, a setting's
         * value) go with the text into every rendering */
        dc_text_marked(c, t->x, t->y, t->anchor, t->size, t->bold, t->color, t->text, &t->marks);
    }
}

/* ------------------------------------------------------------------ alt text */

static void S_alt(const bp_board *b, const draw_note *notes, size_t n_notes, const dlives *lv,
                  buf *alt)
{
    char facts[8][128];
    dcolor colors[8];
    dmarks marks[8];
    size_t nf;
    buf_puts(alt, "Board diagram");
    if (b->title) {
        buf_puts(alt, " of “");
        buf_puts(alt, b->title);
        buf_puts(alt, "”");
    }
    buf_puts(alt, ". Parts in order: ");
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        if (i)
            buf_puts(alt, "; ");
        buf_puts(alt, dpart_label(b, i));
        dpart_facts(b, i, facts, colors, marks, lv, &nf);
        bool open = false;
        for (size_t k = 0; k < nf; k++) {
            buf_puts(alt, open ? ", " : " (");
            open = true;
            buf_puts(alt, facts[k]);
        }
        if (dpart_handles(p->kind)) {
            buf_puts(alt, open ? ", " : " (");
            open = true;
            buf_puts(alt, dpolicy_badge(p->idempotency));
        }
        if (open)
            buf_putc(alt, ')');
    }
    buf_putc(alt, '.');
    if (b->sim.n_links) {
        buf_puts(alt, " Links: ");
        char faults[4][160];
        dmarks fmarks[4];
        for (size_t i = 0; i < b->sim.n_links; i++) {
            const sim_link *l = &b->sim.links[i];
            if (i)
                buf_puts(alt, "; ");
            if (b->sim.parts[l->to].kind == SIM_KIND_DLQ)
                buf_printf(alt, "%s moves a message to %s after its last try (dashed)",
                           dpart_label(b, (size_t)l->from), dpart_label(b, (size_t)l->to));
            else
                buf_printf(alt, "%s to %s over %s", dpart_label(b, (size_t)l->from),
                           dpart_label(b, (size_t)l->to), dlink_label(b, i));
            size_t k = dlink_faults(b, i, faults, fmarks, lv);
            for (size_t j = 0; j < k; j++)
                buf_printf(alt, "%s%s", j ? ", " : " (", faults[j]);
            if (k)
                buf_putc(alt, ')');
        }
        buf_putc(alt, '.');
    }
    if (n_notes) {
        /* a count measured over several runs is their mean ("110.3
         * duplicates"): the words say so */
        buf_puts(alt, S_means(b) ? " Measured, per run on average: " : " Measured: ");
        for (size_t k = 0; k < n_notes; k++) {
            if (k)
                buf_puts(alt, "; ");
            buf_printf(alt, "%s at %s", notes[k].text, dpart_label(b, (size_t)notes[k].part));
            if (notes[k].tone != DRAW_NEUTRAL)
                buf_puts(alt, notes[k].tone == DRAW_PASS ? " (goal met)" : " (goal missed)");
        }
        buf_putc(alt, '.');
    }
    if (lv && lv->n)
        buf_puts(alt, " This is the board as it starts; the page rewrites its numbers as the "
                      "settings change.");
}

/* ------------------------------------------------------------------ entry points */

/* The board as drawn: a dead-letter queue takes no link (its broker names
 * it), so the drawing adds one from each broker that names one, after the
 * board's own links, with no text beside it (the queue's box says when a
 * message goes there: dpart_facts): in the narrow stack the link goes
 * around the parts between, where a label would widen the drawing past a
 * phone's column. S_begin draws it dashed. NULL when no broker names a queue (draw b itself);
 * else a copy that borrows b's parts (free with S_drawn_free). */
typedef struct {
    bp_board b;
    size_t n_own; /* b's own links; the rest lead to dead-letter queues */
} drawn_board;

static drawn_board *S_drawn(const bp_board *b)
{
    size_t extra = 0, nl = b->sim.n_links;
    for (size_t i = 0; i < b->sim.n_parts; i++)
        extra += b->sim.parts[i].kind == SIM_KIND_BROKER && b->sim.parts[i].dead_letter > 0;
    if (!extra)
        return NULL;
    drawn_board *d = xcalloc(1, sizeof *d);
    d->b = *b;
    d->n_own = nl;
    sim_link *links = xcalloc(nl + extra, sizeof *links);
    bp_link_info *info = xcalloc(nl + extra, sizeof *info);
    if (nl)
        memcpy(links, b->sim.links, nl * sizeof *links);
    for (size_t i = 0; i < nl && b->links; i++)
        info[i] = b->links[i];
    size_t k = nl;
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        if (p->kind != SIM_KIND_BROKER || p->dead_letter <= 0)
            continue;
        links[k] = (sim_link){.from = (int)i, .to = p->dead_letter - 1, .protocol = SIM_PROTO_AMQP};
        info[k].label = (char *)""; /* borrowed; never freed */
        k++;
    }
    d->b.sim.links = links;
    d->b.sim.n_links = k;
    d->b.links = info;
    d->b.link_set = NULL;
    return d;
}

static void S_drawn_free(drawn_board *d)
{
    if (!d)
        return;
    free(d->b.sim.links);
    free(d->b.links);
    free(d);
}

/* A board laid out in one layout, with its description and title, for
 * painting (freed by the caller: dboard_layout_free, buf_free, free).
 * 0, or -1 with err and nothing to free. */
static int S_begin(const bp_board *b0, const draw_note *notes, size_t n_notes, const dlives *lv,
                   draw_layout layout, dboard_layout *l, buf *desc, char **title, char *err,
                   size_t errn)
{
    drawn_board *d = S_drawn(b0);
    const bp_board *b = d ? &d->b : b0;
    dcanvas *m = dcanvas_new_measure();
    int rc = dboard_layout_make(m, b, notes, n_notes, layout, lv, l, err, errn);
    dcanvas_free(m);
    if (rc) {
        S_drawn_free(d);
        return -1;
    }
    for (size_t i = d ? d->n_own : l->n_links; i < l->n_links; i++)
        l->links[i].dashed = true;
    buf_init(desc);
    S_alt(b, notes, n_notes, lv, desc);
    *title = b->title ? xstrdup(b->title) : xasprintf("Board %s", b->id ? b->id : "");
    S_drawn_free(d);
    return 0;
}

int draw_board_opts(const bp_board *b, const draw_note *notes, size_t n_notes, buf *svg, buf *alt,
                    const draw_opts *o, char *err, size_t errn)
{
    dboard_layout l;
    buf desc;
    char *title;
    dlives lv = {o->live, o->n_live};
    if (S_begin(b, notes, n_notes, &lv, o->look.layout, &l, &desc, &title, err, errn) != 0)
        return -1;
    int rc;
    dcanvas *c = dcanvas_new_svg(l.width, l.height, o->text, o->look.theme);
    S_paint(c, &l);
    buf out;
    buf_init(&out);
    rc = dcanvas_finish_svg(c, title, desc.data, &out, err, errn);
    dcanvas_free(c);
    if (rc == 0 && o->png_path) {
        c = dcanvas_new_png(l.width, l.height, 2, o->look.theme);
        S_paint(c, &l);
        rc = dcanvas_finish_png(c, o->png_path, err, errn);
        dcanvas_free(c);
    }
    if (rc == 0) {
        buf_put(svg, out.data, out.len);
        buf_put(alt, desc.data, desc.len);
    }
    buf_free(&out);
    buf_free(&desc);
    free(title);
    dboard_layout_free(&l);
    return rc;
}

int dboard_paint_fit(dcanvas *c, const bp_board *b, const draw_note *notes, size_t n_notes,
                     double x, double y, double w, double h, char *err, size_t errn)
{
    dboard_layout l;
    buf desc;
    char *title;
    dlives lv = {NULL, 0};
    if (S_begin(b, notes, n_notes, &lv, DRAW_WIDE, &l, &desc, &title, err, errn) != 0)
        return -1;
    double sx = w / l.width, sy = h / l.height, k = sx < sy ? sx : sy;
    if (k > 2)
        k = 2;
    dc_push_place(c, x + (w - l.width * k) / 2, y + (h - l.height * k) / 2, k);
    S_paint(c, &l);
    dc_pop_place(c);
    buf_free(&desc);
    free(title);
    dboard_layout_free(&l);
    return 0;
}

int draw_board_themes(const bp_board *b, const draw_note *notes, size_t n_notes,
                      const draw_live *live, size_t n_live, draw_layout layout,
                      buf svg[DRAW_THEMES], buf *alt, char *err, size_t errn)
{
    dboard_layout l;
    buf desc;
    char *title;
    dlives lv = {live, n_live};
    if (S_begin(b, notes, n_notes, &lv, layout, &l, &desc, &title, err, errn) != 0)
        return -1;
    int rc = 0;
    buf out[DRAW_THEMES];
    for (int t = 0; t < DRAW_THEMES; t++) {
        buf_init(&out[t]);
        if (rc == 0) { /* one layout (its routing is the costly part), each theme's paint */
            dcanvas *c = dcanvas_new_svg(l.width, l.height, DTEXT_ELEMENTS, (draw_theme)t);
            S_paint(c, &l);
            rc = dcanvas_finish_svg(c, title, desc.data, &out[t], err, errn);
            dcanvas_free(c);
        }
    }
    for (int t = 0; t < DRAW_THEMES; t++) {
        if (rc == 0)
            buf_put(&svg[t], out[t].data, out[t].len);
        buf_free(&out[t]);
    }
    if (rc == 0)
        buf_put(alt, desc.data, desc.len);
    buf_free(&desc);
    free(title);
    dboard_layout_free(&l);
    return rc;
}

int draw_board(const bp_board *b, const draw_note *notes, size_t n_notes, draw_look look, buf *svg,
               buf *alt, char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, look, NULL, 0};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

int draw_board_live(const bp_board *b, const draw_note *notes, size_t n_notes,
                    const draw_live *live, size_t n_live, draw_look look, buf *svg, buf *alt,
                    char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, look, live, n_live};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

/* draw_board.c — the board diagram: what each part's box and each link
 * says (labels, sizes, settings, faults, the measured notes), the painting
 * of a layout (draw_board_layout.c places it), the alt text, and the
 * entry points. */
#include "draw/draw_internal.h"
#include "load/fields.h"

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
    }
    free(lines);
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

/* True when some handler uses this provider's idempotency keys. */
static bool S_provider_keys(const bp_board *b, size_t prov)
{
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        if ((size_t)l->to == prov && dpart_handles(b->sim.parts[l->from].kind) &&
            b->sim.parts[l->from].idempotency == SIM_IDEM_PROVIDER_KEY)
            return true;
    }
    return false;
}

/* The lines under the label: size, faults and settings of the part, in words. */
/* True when the board file itself set part i's field (bp_board.part_set). */
static bool S_board_set(const bp_board *b, size_t i, const char *field)
{
    size_t n;
    const field_def *table = fields_part(&n);
    const field_def *f = fields_find(table, n, field);
    if (!b->part_set || !f)
        return false;
    size_t bit = (size_t)(f - table);
    return (b->part_set[i].bits >> bit) & 1u;
}

static void S_part_facts(const bp_board *b, size_t i, char facts[][128], dcolor *colors, size_t *n)
{
    const sim_part *p = &b->sim.parts[i];
    char a[32], c[32];
    *n = 0;
    if (p->external) {
        snprintf(facts[*n], 128, "external");
        colors[(*n)++] = DC_MUTED;
    } else if (p->vcpu > 0 || p->gb > 0) {
        dfmt_number(a, sizeof a, p->vcpu);
        dfmt_number(c, sizeof c, p->gb);
        if (p->vcpu > 0 && p->gb > 0)
            snprintf(facts[*n], 128, "%s vCPU · %s GB", a, c);
        else if (p->vcpu > 0)
            snprintf(facts[*n], 128, "%s vCPU", a);
        else
            snprintf(facts[*n], 128, "%s GB", c);
        colors[(*n)++] = DC_MUTED;
    }
    /* Sender settings a board chose itself (not the catalog's defaults). */
    if ((p->kind == SIM_KIND_BROKER || p->kind == SIM_KIND_USERS) && S_board_set(b, i, "tries")) {
        snprintf(facts[*n], 128, "%d %s", p->tries, p->tries == 1 ? "try" : "tries");
        colors[(*n)++] = DC_MUTED;
    }
    if (p->kind == SIM_KIND_BROKER && S_board_set(b, i, "redelivery_after")) {
        dfmt_duration(a, sizeof a, p->redelivery_after_us);
        snprintf(facts[*n], 128, "redelivers after %s", a);
        colors[(*n)++] = DC_MUTED;
    }
    if (p->kind == SIM_KIND_USERS && S_board_set(b, i, "timeout")) {
        dfmt_duration(a, sizeof a, p->timeout_us);
        snprintf(facts[*n], 128, "waits %s for a response", a);
        colors[(*n)++] = DC_MUTED;
    }
    if (p->kind == SIM_KIND_BROKER && p->delivery == SIM_DELIVERY_AT_MOST_ONCE) {
        snprintf(facts[*n], 128, "at-most-once delivery");
        colors[(*n)++] = DC_MUTED;
    }
    if (dpart_handles(p->kind) && p->crash_after_effect > 0) {
        dfmt_percent(a, sizeof a, p->crash_after_effect);
        snprintf(facts[*n], 128, "crashes after %s of effects", a);
        colors[(*n)++] = DC_FAIL;
    }
    if (p->kind == SIM_KIND_PROVIDER && p->fail > 0) {
        dfmt_percent(a, sizeof a, p->fail);
        snprintf(facts[*n], 128, "fails %s of calls", a);
        colors[(*n)++] = DC_FAIL;
    }
    bool keyed = (dpart_handles(p->kind) && p->idempotency != SIM_IDEM_NONE &&
                  p->idempotency != SIM_IDEM_PROVIDER_KEY) ||
                 (p->kind == SIM_KIND_PROVIDER && S_provider_keys(b, i));
    if (keyed && p->key_ttl_us != SIM_FOREVER) {
        dfmt_duration(a, sizeof a, p->key_ttl_us);
        snprintf(facts[*n], 128, "%s kept %s",
                 p->idempotency == SIM_IDEM_BUSINESS_KEY && dpart_handles(p->kind) ? "keys" : "IDs",
                 a);
        if (p->kind == SIM_KIND_PROVIDER)
            snprintf(facts[*n], 128, "keys kept %s", a);
        colors[(*n)++] = DC_MUTED;
    }
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

dpart_content *dboard_contents(dcanvas *m, const bp_board *b, const draw_note *notes,
                               size_t n_notes, double text_w, double note_w, bool notes_inside)
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
        size_t nf;
        S_part_facts(b, i, facts, colors, &nf);
        for (size_t k = 0; k < nf; k++)
            S_add_wrapped(m, &c->lines, &c->n, &c->cap, facts[k], DF_SMALL, false, colors[k],
                          text_w);
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
        char *t = xasprintf("%s%s", S_tone_mark(notes[k].tone), notes[k].text);
        S_add_wrapped(m, &c->notes, &c->n_notes, &c->cap_notes, t, DF_SMALL, true,
                      S_tone_color(notes[k].tone), note_w);
        free(t);
    }
    for (size_t i = 0; i < n; i++) {
        dpart_content *c = &pc[i];
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

/* The fault lines of link i in words: "20% of acks lost", "ack of job 3 lost",
 * "transactional". Returns how many (at most 4). */
size_t dlink_faults(const bp_board *b, size_t i, char out[][160])
{
    const sim_link *l = &b->sim.links[i];
    size_t n = 0;
    char pct[48];
    if (l->lose_request > 0) {
        dfmt_percent(pct, sizeof pct, l->lose_request);
        snprintf(out[n++], 160, "%s of %s lost", pct, drequest_word(l->protocol, true));
    }
    if (l->lose_reply > 0) {
        dfmt_percent(pct, sizeof pct, l->lose_reply);
        snprintf(out[n++], 160, "%s of %s lost", pct, dreply_word(l->protocol, true));
    }
    if (l->n_lose_reply_of > 0) {
        buf t;
        buf_init(&t);
        bool many = l->n_lose_reply_of > 1;
        buf_printf(&t, "%s of job%s ", dreply_word(l->protocol, many), many ? "s" : "");
        size_t shown = l->n_lose_reply_of > 6 ? 5 : l->n_lose_reply_of;
        for (size_t k = 0; k < shown; k++) {
            if (k > 0)
                buf_puts(&t, k + 1 == l->n_lose_reply_of ? " and " : ", ");
            buf_printf(&t, "%lld", (long long)l->lose_reply_of[k]);
        }
        if (shown < l->n_lose_reply_of)
            buf_printf(&t, " and %zu more", l->n_lose_reply_of - shown);
        buf_puts(&t, " lost");
        snprintf(out[n++], 160, "%s", t.data);
        buf_free(&t);
    }
    if (l->transactional)
        snprintf(out[n++], 160, "transactional");
    return n;
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

/* A measured note, in whichever layout and theme: the one place that
 * writes a note's text, so what a note carries (its number, later the
 * name of the measure it shows) is the same in every rendering. */
static void S_paint_note(dcanvas *c, const dlabel *t)
{
    dc_text(c, t->x, t->y, t->anchor, t->size, t->bold, t->color, t->text, false);
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
        dc_polyline(c, xy, n, DC_LINE, 1, false);
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
        if (t->kind == DL_NOTE)
            S_paint_note(c, t);
        else
            dc_text(c, t->x, t->y, t->anchor, t->size, t->bold, t->color, t->text, false);
    }
}

/* ------------------------------------------------------------------ alt text */

static void S_alt(const bp_board *b, const draw_note *notes, size_t n_notes, buf *alt)
{
    char facts[8][128];
    dcolor colors[8];
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
        S_part_facts(b, i, facts, colors, &nf);
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
        for (size_t i = 0; i < b->sim.n_links; i++) {
            const sim_link *l = &b->sim.links[i];
            if (i)
                buf_puts(alt, "; ");
            buf_printf(alt, "%s to %s over %s", dpart_label(b, (size_t)l->from),
                       dpart_label(b, (size_t)l->to), dlink_label(b, i));
            size_t k = dlink_faults(b, i, faults);
            for (size_t j = 0; j < k; j++)
                buf_printf(alt, "%s%s", j ? ", " : " (", faults[j]);
            if (k)
                buf_putc(alt, ')');
        }
        buf_putc(alt, '.');
    }
    if (n_notes) {
        buf_puts(alt, " Measured: ");
        for (size_t k = 0; k < n_notes; k++) {
            if (k)
                buf_puts(alt, "; ");
            buf_printf(alt, "%s at %s", notes[k].text, dpart_label(b, (size_t)notes[k].part));
            if (notes[k].tone != DRAW_NEUTRAL)
                buf_puts(alt, notes[k].tone == DRAW_PASS ? " (goal met)" : " (goal missed)");
        }
        buf_putc(alt, '.');
    }
}

/* ------------------------------------------------------------------ entry points */

int draw_board_opts(const bp_board *b, const draw_note *notes, size_t n_notes, buf *svg, buf *alt,
                    const draw_opts *o, char *err, size_t errn)
{
    dcanvas *m = dcanvas_new_measure();
    dboard_layout l;
    int rc = dboard_layout_make(m, b, notes, n_notes, o->look.layout, &l, err, errn);
    dcanvas_free(m);
    if (rc)
        return -1;
    buf desc;
    buf_init(&desc);
    S_alt(b, notes, n_notes, &desc);
    char *title = b->title ? xstrdup(b->title) : xasprintf("Board %s", b->id ? b->id : "");
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

int draw_board(const bp_board *b, const draw_note *notes, size_t n_notes, draw_look look, buf *svg,
               buf *alt, char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, look};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

/* draw_board.c — the board diagram: part boxes on a layered grid, links
 * routed orthogonally around them on a 4 px grid, and every link label put
 * where it overlaps no box, line or other label (else the gutters grow and
 * the layout is tried again). Geometry only; the canvas does the drawing. */
#include "draw/draw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAD_X 12 /* inside a box */
#define PAD_Y 9
#define BOX_MIN_W 96
#define BOX_MIN_H 48
#define BOX_TEXT_W 184 /* wrap width inside a box */
#define NOTE_W 200     /* wrap width of a note */
#define GLYPH_W 28     /* the users glyph's column */
#define BADGE_H 18
#define COL_GAP 64
#define ROW_GAP 32
#define OUTER 24
#define ATTEMPTS 8

/* ------------------------------------------------------------------ box contents */

typedef struct {
    char *text;
    double size;
    bool bold;
    uint32_t color;
    double w;
    dmarks marks; /* a live board's (not wrapped: the runs stay on one line) */
} bline;

typedef struct {
    bline *lines;
    size_t n, cap;
    size_t n_label; /* the first n_label lines are the part's label */
    char *badge;
    double badge_w; /* pill width */
    bline *notes;
    size_t n_notes, cap_notes;
    double w, h; /* box */
    double notes_w, notes_h;
    bool users, external;
} part_content;

static void S_add_wrapped(dcanvas *m, bline **arr, size_t *n, size_t *cap, const char *text,
                          double size, bool bold, uint32_t color, double max_w)
{
    char **lines;

    size_t k = dwrap(m, text, size, bold, max_w, &lines, NULL);
    for (size_t i = 0; i < k; i++) {
        *arr = xgrow(*arr, sizeof **arr, cap, *n + 1);
        bline *l = &(*arr)[(*n)++];
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
static void S_add_marked(dcanvas *m, bline **arr, size_t *n, size_t *cap, const char *text,
                         double size, bool bold, uint32_t color, double max_w, const dmarks *mk)
{
    if (!mk->n && !mk->goal) {
        S_add_wrapped(m, arr, n, cap, text, size, bold, color, max_w);
        return;
    }
    *arr = xgrow(*arr, sizeof **arr, cap, *n + 1);
    bline *l = &(*arr)[(*n)++];
    l->text = xstrdup(text);
    l->size = size;
    l->bold = bold;
    l->color = color;
    l->w = dc_text_width(m, text, size, bold);
    l->marks = *mk;
}

static void S_content_free(part_content *pc, size_t n)
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

static uint32_t S_tone_color(draw_tone t)
{
    return t == DRAW_PASS ? DC_PASS : t == DRAW_FAIL ? DC_FAIL : DC_MUTED;
}

static double S_ceil_to(double v, double step)
{
    return ceil(v / step - 1e-9) * step;
}

static part_content *S_contents(dcanvas *m, const bp_board *b, const draw_note *notes,
                                size_t n_notes, const dlives *lv)
{
    size_t n = b->sim.n_parts;
    part_content *pc = xcalloc(n, sizeof *pc);
    for (size_t i = 0; i < n; i++) {
        part_content *c = &pc[i];
        const sim_part *p = &b->sim.parts[i];
        c->users = p->kind == SIM_KIND_USERS;
        c->external = p->external;
        S_add_wrapped(m, &c->lines, &c->n, &c->cap, dpart_label(b, i), DF_LABEL, false, DC_INK,
                      BOX_TEXT_W);
        c->n_label = c->n;
        char facts[8][128];
        uint32_t colors[8];
        dmarks marks[8];
        size_t nf;
        dpart_facts(b, i, facts, colors, marks, lv, &nf);
        for (size_t k = 0; k < nf; k++)
            S_add_marked(m, &c->lines, &c->n, &c->cap, facts[k], DF_SMALL, false, colors[k],
                         BOX_TEXT_W, &marks[k]);
        double tw = 0, th = 2 * PAD_Y;
        for (size_t k = 0; k < c->n; k++) {
            tw = fmax(tw, c->lines[k].w);
            th += k < c->n_label ? DL_LABEL : DL_SMALL;
        }
        if (dpart_handles(p->kind)) {
            c->badge = xstrdup(dpolicy_badge(p->idempotency));
            c->badge_w = dc_text_width(m, c->badge, DF_BADGE, false) + 14;
            tw = fmax(tw, c->badge_w);
            th += 6 + BADGE_H;
        }
        c->w = S_ceil_to(fmax(BOX_MIN_W, tw + 2 * PAD_X + (c->users ? GLYPH_W : 0)), 8);
        c->h = S_ceil_to(fmax(BOX_MIN_H, th), 8);
    }
    for (size_t k = 0; k < n_notes; k++) {
        part_content *c = &pc[notes[k].part];
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
                     S_tone_color(notes[k].tone), NOTE_W, &mk);
        free(t);
    }
    for (size_t i = 0; i < n; i++) {
        part_content *c = &pc[i];
        for (size_t k = 0; k < c->n_notes; k++)
            c->notes_w = fmax(c->notes_w, c->notes[k].w);
        c->notes_h = c->n_notes ? 6 + DL_SMALL * (double)c->n_notes : 0;
    }
    return pc;
}

/* ------------------------------------------------------------------ grid placement */

/* Column = longest path from a part without incoming links, over the links
 * that go forwards in the board's list order (the list order is the
 * left-to-right order, and cycles cannot run away); row = order within the
 * column. `at:` pins. */
static void S_place(const bp_board *b, int *col, int *row)
{
    size_t n = b->sim.n_parts;
    int layer[DRAW_MAX_PARTS] = {0};
    for (size_t round = 0; round < n; round++) {
        bool changed = false;
        for (size_t i = 0; i < b->sim.n_links; i++) {
            const sim_link *l = &b->sim.links[i];
            if (l->from > l->to) /* against the list order: drawn backwards, no layer */
                continue;
            if (layer[l->to] < layer[l->from] + 1 && layer[l->from] + 1 < (int)n) {
                layer[l->to] = layer[l->from] + 1;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    typedef bool column[DRAW_MAX_GRID + 1 + DRAW_MAX_PARTS];
    column *t = xcalloc(DRAW_MAX_GRID + 1 + DRAW_MAX_PARTS, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        col[i] = -1;
        if (b->parts[i].has_at && !t[b->parts[i].at_col][b->parts[i].at_row]) {
            col[i] = b->parts[i].at_col;
            row[i] = b->parts[i].at_row;
            t[col[i]][row[i]] = true;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (col[i] >= 0)
            continue;
        col[i] = b->parts[i].has_at ? b->parts[i].at_col : layer[i];
        int r = b->parts[i].has_at ? b->parts[i].at_row : 0;
        while (t[col[i]][r])
            r++;
        row[i] = r;
        t[col[i]][r] = true;
    }
    free(t);
    /* drop empty columns and rows (pins may leave gaps) */
    for (int axis = 0; axis < 2; axis++) {
        int *v = axis ? row : col;
        int map[DRAW_MAX_GRID + 1 + DRAW_MAX_PARTS];
        bool seen[DRAW_MAX_GRID + 1 + DRAW_MAX_PARTS] = {false};
        for (size_t i = 0; i < n; i++)
            seen[v[i]] = true;
        int next = 0;
        for (int k = 0; k < DRAW_MAX_GRID + 1 + DRAW_MAX_PARTS; k++)
            map[k] = seen[k] ? next++ : -1;
        for (size_t i = 0; i < n; i++)
            v[i] = map[v[i]];
    }
}

/* ------------------------------------------------------------------ the layout */

static dlabel *S_label(dboard_layout *l)
{
    l->labels = xgrow(l->labels, sizeof *l->labels, &l->cap_labels, l->n_labels + 1);
    dlabel *d = &l->labels[l->n_labels++];
    memset(d, 0, sizeof *d);
    d->part = d->link = -1;
    return d;
}

static bool S_lossy(const sim_link *l)
{
    return l->lose_request > 0 || l->lose_reply > 0 || l->n_lose_reply_of > 0;
}

typedef struct {
    int cols, rows;
    int col[DRAW_MAX_PARTS], row[DRAW_MAX_PARTS];
} grid;

/* One attempt at the whole layout with `extra` px added to every gutter.
 * Returns 0, 1 (no room: try wider), or -1. */
static int S_attempt(dcanvas *m, const bp_board *b, const part_content *pc, const grid *g,
                     double extra, const dlives *lv, dboard_layout *out, size_t *failed_link)
{
    size_t n = b->sim.n_parts, nl = b->sim.n_links;
    double col_w[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2] = {0},
                                                  gap[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2] = {0};
    double band[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2] = {0},
                                                 notes_h[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2] = {0};
    double col_x[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2], row_y[DRAW_MAX_GRID + DRAW_MAX_PARTS + 2];
    for (size_t i = 0; i < n; i++) {
        col_w[g->col[i]] = fmax(col_w[g->col[i]], fmax(pc[i].w, S_ceil_to(pc[i].notes_w, 8)));
        band[g->row[i]] = fmax(band[g->row[i]], pc[i].h);
        notes_h[g->row[i]] = fmax(notes_h[g->row[i]], S_ceil_to(pc[i].notes_h, DR_CELL));
    }
    for (int c = 0; c + 1 < g->cols; c++)
        gap[c] = COL_GAP + extra;
    char faults[4][160];
    dmarks fmarks[4];
    for (size_t i = 0; i < nl; i++) {
        const sim_link *l = &b->sim.links[i];
        int c0 = g->col[l->from], c1 = g->col[l->to];
        if (abs(c0 - c1) != 1)
            continue;
        double need = dc_text_width(m, dlink_label(b, i), DF_SMALL, true);
        size_t nf = dlink_faults(b, i, faults, fmarks, lv);
        for (size_t k = 0; k < nf; k++)
            need = fmax(need, dc_text_width(m, faults[k], DF_SMALL, false));
        need += 2 * 6 + 10 + 2 * DR_CELL * (DR_ZONE + 1) + 8;
        int c = c0 < c1 ? c0 : c1;
        gap[c] = fmax(gap[c], S_ceil_to(need + extra, DR_CELL));
    }
    double outer = OUTER + extra / 2;
    outer = S_ceil_to(outer, DR_CELL);
    double x = outer;
    for (int c = 0; c < g->cols; c++) {
        col_x[c] = x;
        x += S_ceil_to(col_w[c], 8) + S_ceil_to(gap[c], DR_CELL);
    }
    double y = outer;
    for (int r = 0; r < g->rows; r++) {
        row_y[r] = y;
        y += band[r] + notes_h[r] + (r + 1 < g->rows ? S_ceil_to(ROW_GAP + extra, DR_CELL) : 0);
    }
    out->width = (int)S_ceil_to(x - S_ceil_to(gap[g->cols - 1], DR_CELL) + outer, DR_CELL);
    out->height = (int)S_ceil_to(y + outer, DR_CELL);

    out->parts = xcalloc(n, sizeof *out->parts);
    out->n_parts = n;
    out->links = xcalloc(nl ? nl : 1, sizeof *out->links);
    out->n_links = nl;
    dobstacles ob = {0};
    ob.w = out->width;
    ob.h = out->height;
    drouter rt;
    droute_init(&rt, out->width, out->height);
    double asc, desc;
    dc_font_extents(m, DF_SMALL, &asc, &desc);
    double asc_l, desc_l;
    dc_font_extents(m, DF_LABEL, &asc_l, &desc_l);

    for (size_t i = 0; i < n; i++) {
        const part_content *c = &pc[i];
        dpart_geom *pg = &out->parts[i];
        pg->col = g->col[i];
        pg->row = g->row[i];
        pg->users = c->users;
        pg->external = c->external;
        double bw = c->w, bh = band[g->row[i]];
        drect box = {col_x[g->col[i]] +
                         S_ceil_to((S_ceil_to(col_w[g->col[i]], 8) - bw) / 2, DR_CELL),
                     row_y[g->row[i]], bw, bh};
        pg->box = box;
        pg->footprint = box;
        /* contents, vertically centred */
        double content = 0;
        for (size_t k = 0; k < c->n; k++)
            content += k < c->n_label ? DL_LABEL : DL_SMALL;
        if (c->badge)
            content += 6 + BADGE_H;
        double ty = box.y + round((bh - content) / 2);
        double tx = box.x + (c->users ? GLYPH_W : 0) + (bw - (c->users ? GLYPH_W : 0)) / 2;
        for (size_t k = 0; k < c->n; k++) {
            double lh = k < c->n_label ? DL_LABEL : DL_SMALL;
            double a = k < c->n_label ? asc_l : asc, d = k < c->n_label ? desc_l : desc;
            dlabel *dl = S_label(out);
            dl->kind = DL_PART_TEXT;
            dl->part = (int)i;
            dl->text = xstrdup(c->lines[k].text);
            dl->size = c->lines[k].size;
            dl->bold = c->lines[k].bold;
            dl->color = c->lines[k].color;
            dl->marks = c->lines[k].marks;
            dl->anchor = DT_MIDDLE;
            dl->x = tx;
            dl->y = ty + (lh - (a + d)) / 2 + a;
            drect rr = {tx - c->lines[k].w / 2, ty, c->lines[k].w, lh};
            dl->r = rr;
            pg->text_w = fmax(pg->text_w, c->lines[k].w);
            ty += lh;
        }
        if (c->badge) {
            ty += 6;
            pg->has_badge = true;
            drect br = {round(tx - c->badge_w / 2), ty, round(c->badge_w), BADGE_H};
            pg->badge = br;
            double ba, bd;
            dc_font_extents(m, DF_BADGE, &ba, &bd);
            dlabel *dl = S_label(out);
            dl->kind = DL_PART_TEXT;
            dl->part = (int)i;
            dl->text = xstrdup(c->badge);
            dl->size = DF_BADGE;
            dl->color = DC_BADGE_INK;
            dl->anchor = DT_MIDDLE;
            dl->x = tx;
            dl->y = ty + (BADGE_H - (ba + bd)) / 2 + ba;
            double tw = c->badge_w - 14;
            drect rr = {tx - tw / 2, ty + 2, tw, BADGE_H - 4};
            dl->r = rr;
            pg->text_w = fmax(pg->text_w, c->badge_w);
        }
        drect zone = drect_grow(box, DR_ZONE * DR_CELL);
        droute_block(&rt, zone, 0, (int16_t)(i + 1));
        dobst_add(&ob, box);
        double ny = box.y + box.h + 6;
        for (size_t k = 0; k < c->n_notes; k++) {
            dlabel *dl = S_label(out);
            dl->kind = DL_NOTE;
            dl->part = (int)i;
            dl->text = xstrdup(c->notes[k].text);
            dl->size = DF_SMALL;
            dl->bold = true;
            dl->color = c->notes[k].color;
            dl->marks = c->notes[k].marks;
            dl->anchor = DT_MIDDLE;
            dl->x = box.x + box.w / 2;
            dl->y = ny + (DL_SMALL - (asc + desc)) / 2 + asc;
            drect rr = {dl->x - c->notes[k].w / 2, ny, c->notes[k].w, DL_SMALL};
            dl->r = rr;
            droute_block(&rt, rr, DR_CELL, -1);
            dobst_add(&ob, rr);
            pg->footprint.h = ny + DL_SMALL - box.y;
            pg->footprint.x = fmin(pg->footprint.x, rr.x);
            pg->footprint.w = fmax(box.x + box.w, rr.x + rr.w) - pg->footprint.x;
            ny += DL_SMALL;
        }
    }

    /* links: straight neighbours first, then the rest, each in board order */
    int used[DRAW_MAX_PARTS][4] = {{0}};
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (size_t i = 0; i < nl && rc == 0; i++) {
            const sim_link *l = &b->sim.links[i];
            bool straight =
                g->row[l->from] == g->row[l->to] && abs(g->col[l->from] - g->col[l->to]) == 1;
            if (straight != (pass == 0))
                continue;
            dport src[4], dst[4];
            for (int s = 0; s < 4; s++) {
                src[s] = droute_port(&rt, out->parts[l->from].box, s, used[l->from][s], l->from);
                dst[s] = droute_port(&rt, out->parts[l->to].box, s, used[l->to][s], l->to);
            }
            int ss, ds;
            dlink_geom *lg = &out->links[i];
            if (!droute_find(&rt, src, dst, &ss, &ds, &lg->xy, &lg->n_pts)) {
                *failed_link = i;
                rc = 1;
                break;
            }
            used[l->from][ss]++;
            used[l->to][ds]++;
            droute_mark_line(&rt, lg->xy, lg->n_pts);
            dobst_line(&ob, lg->xy, lg->n_pts);
            dltext t[5];
            t[0].text = dlink_label(b, i);
            t[0].bold = true;
            t[0].color = DC_PROTO;
            t[0].kind = DL_LINK_TEXT;
            memset(&t[0].marks, 0, sizeof t[0].marks);
            size_t nf = dlink_faults(b, i, faults, fmarks, lv);
            for (size_t k = 0; k < nf; k++) {
                t[k + 1].marks = fmarks[k];
                t[k + 1].text = faults[k];
                t[k + 1].bold = false;
                t[k + 1].color = strcmp(faults[k], "transactional") == 0 ? DC_MUTED : DC_FAIL;
                t[k + 1].kind = DL_FAULT;
            }
            for (size_t k = 0; k <= nf; k++)
                t[k].w = dc_text_width(m, t[k].text, DF_SMALL, t[k].bold);
            dlplace pl;
            if (!dplace_texts(&ob, lg->xy, lg->n_pts, t, nf + 1, asc, &pl)) {
                *failed_link = i;
                rc = 1;
                break;
            }
            lg->lost_mark = S_lossy(l);
            lg->mark_x = pl.mark_x;
            lg->mark_y = pl.mark_y;
            for (size_t k = 0; k <= nf; k++) {
                dlabel *dl = S_label(out);
                dl->kind = t[k].kind;
                dl->link = (int)i;
                dl->text = xstrdup(t[k].text);
                dl->size = DF_SMALL;
                dl->bold = t[k].bold;
                dl->color = t[k].color;
                dl->marks = t[k].marks;
                dl->anchor = pl.a[k];
                dl->x = pl.x[k];
                dl->y = pl.y[k];
                dl->r = pl.r[k];
                dobst_add(&ob, pl.r[k]);
                droute_block(&rt, pl.r[k], DR_CELL, -1);
            }
        }
    droute_free(&rt);
    free(ob.rects);
    free(ob.segs);
    return rc;
}

void dboard_layout_free(dboard_layout *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_labels; i++)
        free(l->labels[i].text);
    for (size_t i = 0; i < l->n_links; i++)
        free(l->links[i].xy);
    free(l->labels);
    free(l->links);
    free(l->parts);
    memset(l, 0, sizeof *l);
}

static int S_check_notes(const bp_board *b, const draw_note *notes, size_t n_notes, char *err,
                         size_t errn)
{
    char what[64];
    if (n_notes && !notes)
        return dfail(err, errn, "the notes to draw are missing");
    if (n_notes > 256)
        return dfail(err, errn, "at most 256 notes fit a board diagram, not %zu", n_notes);
    for (size_t k = 0; k < n_notes; k++) {
        if (notes[k].part < 0 || (size_t)notes[k].part >= b->sim.n_parts)
            return dfail(err, errn, "note %zu names part %d, which the board does not have", k + 1,
                         notes[k].part + 1);
        if ((unsigned)notes[k].tone > DRAW_FAIL)
            return dfail(err, errn, "note %zu has an unknown tone", k + 1);
        snprintf(what, sizeof what, "the text of note %zu", k + 1);
        if (dcheck_text(what, notes[k].text, err, errn))
            return -1;
    }
    return 0;
}

int dboard_layout_make(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                       dboard_layout *out, char *err, size_t errn)
{
    return dboard_layout_live(m, b, notes, n_notes, NULL, 0, out, err, errn);
}

int dboard_layout_live(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                       const draw_live *live, size_t n_live, dboard_layout *out, char *err,
                       size_t errn)
{
    dlives lv = {live, n_live};
    memset(out, 0, sizeof *out);
    if (dcheck_board(b, err, errn) || S_check_notes(b, notes, n_notes, err, errn))
        return -1;
    grid g = {0};
    S_place(b, g.col, g.row);
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        if (g.col[i] + 1 > g.cols)
            g.cols = g.col[i] + 1;
        if (g.row[i] + 1 > g.rows)
            g.rows = g.row[i] + 1;
    }
    part_content *pc = S_contents(m, b, notes, n_notes, &lv);
    int rc = 1;
    size_t failed = 0;
    for (int a = 0; a < ATTEMPTS && rc == 1; a++) {
        dboard_layout_free(out);
        rc = S_attempt(m, b, pc, &g, 32.0 * a, &lv, out, &failed);
    }
    S_content_free(pc, b->sim.n_parts);
    if (rc != 0) {
        dboard_layout_free(out);
        return dfail(err, errn, "no room found for link %zu (%s to %s) in the board diagram",
                     failed + 1, dpart_label(b, (size_t)b->sim.links[failed].from),
                     dpart_label(b, (size_t)b->sim.links[failed].to));
    }
    return 0;
}

/* ------------------------------------------------------------------ painting */

/* Two people, the front one darker: the users glyph, centred at (x, y). */
static void S_users_glyph(dcanvas *c, double x, double y)
{
    dc_circle(c, x + 5, y - 6, 3.5, 0x9AA5B1, DC_NONE);
    dc_rect(c, x - 1, y - 1, 12, 9, 4.5, 0x9AA5B1, DC_NONE, false);
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
            S_users_glyph(c, p->box.x + PAD_X + 8, p->box.y + p->box.h / 2);
        if (p->has_badge)
            dc_rect(c, p->badge.x, p->badge.y, p->badge.w, p->badge.h, p->badge.h / 2, DC_BADGE,
                    DC_NONE, false);
    }
    for (size_t i = 0; i < l->n_labels; i++) {
        const dlabel *t = &l->labels[i];
        dc_text_marked(c, t->x, t->y, t->anchor, t->size, t->bold, t->color, t->text, &t->marks);
    }
}

/* ------------------------------------------------------------------ alt text */

static void S_alt(const bp_board *b, const draw_note *notes, size_t n_notes, const dlives *lv,
                  buf *alt)
{
    char facts[8][128];
    uint32_t colors[8];
    dmarks marks[8];
    size_t nf;
    buf_puts(alt, "Board diagram");
    if (b->title) {
        buf_puts(alt, " of “");
        buf_puts(alt, b->title);
        buf_puts(alt, "”");
    }
    buf_puts(alt, ". Parts from left to right: ");
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
    if (lv && lv->n)
        buf_puts(alt, " This is the board as it starts; the page rewrites its numbers as the "
                      "settings change.");
}

/* ------------------------------------------------------------------ entry points */

int draw_board_opts(const bp_board *b, const draw_note *notes, size_t n_notes, buf *svg, buf *alt,
                    const draw_opts *o, char *err, size_t errn)
{
    dcanvas *m = dcanvas_new_measure();
    dboard_layout l;
    dlives lv = {o->live, o->n_live};
    int rc = dboard_layout_live(m, b, notes, n_notes, o->live, o->n_live, &l, err, errn);
    dcanvas_free(m);
    if (rc)
        return -1;
    buf desc;
    buf_init(&desc);
    S_alt(b, notes, n_notes, &lv, &desc);
    char *title = b->title ? xstrdup(b->title) : xasprintf("Board %s", b->id ? b->id : "");
    dcanvas *c = dcanvas_new_svg(l.width, l.height, o->text);
    S_paint(c, &l);
    buf out;
    buf_init(&out);
    rc = dcanvas_finish_svg(c, title, desc.data, &out, err, errn);
    dcanvas_free(c);
    if (rc == 0 && o->png_path) {
        c = dcanvas_new_png(l.width, l.height, 2);
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

int draw_board(const bp_board *b, const draw_note *notes, size_t n_notes, buf *svg, buf *alt,
               char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, NULL, 0};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

int draw_board_live(const bp_board *b, const draw_note *notes, size_t n_notes,
                    const draw_live *live, size_t n_live, buf *svg, buf *alt, char *err,
                    size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, live, n_live};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

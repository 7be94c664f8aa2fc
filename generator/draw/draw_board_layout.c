/* draw_board_layout.c — where a board's parts, links and labels go. Parts
 * sit on a layered grid (a column per step along the links), links are
 * routed orthogonally around the boxes on a 4 px grid (draw_route.c), and
 * every link label is put where it overlaps no box, line or other label,
 * else the gutters grow and the layout is tried again. The wide layout
 * wraps its columns onto more bands, like lines of text, when one band
 * would be wider than DRAW_WIDE_MAX; the narrow one gives every part a
 * band of its own: parts top to bottom, links vertical, the measured notes
 * inside their box. */
#include "draw/draw_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BOX_TEXT_W 184    /* wrap width inside a box, wide */
#define NOTE_W 200        /* wrap width of a note, wide */
#define NARROW_TEXT_W 150 /* wrap width of everything in a narrow box */
#define OUTER 20          /* margin, wide */
#define NARROW_OUTER 12   /* margin, narrow */
#define NARROW_AROUND 40  /* room, narrow, beside the texts of a link around a part */
#define ATTEMPTS 8

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
    /* A part that only ends links from one part that also links onward (a
     * second hop's handler's database beside its event broker) hangs
     * under that part instead of taking a column of its own, so the chain
     * reads on along one row and wraps between its steps. */
    for (size_t i = 0; i < n; i++) {
        int from = -1;
        bool sink = true, one = true;
        for (size_t k = 0; k < b->sim.n_links; k++) {
            const sim_link *l = &b->sim.links[k];
            if (l->from == (int)i)
                sink = false;
            if (l->to == (int)i) {
                one &= from < 0 || from == l->from;
                from = l->from;
            }
        }
        if (!sink || !one || from < 0 || b->parts[i].has_at)
            continue;
        bool onward = false;
        for (size_t k = 0; k < b->sim.n_links && !onward; k++) {
            const sim_link *l = &b->sim.links[k];
            if (l->from != from || l->to == (int)i)
                continue;
            for (size_t j = 0; j < b->sim.n_links && !onward; j++)
                onward = b->sim.links[j].from == l->to;
        }
        if (onward)
            layer[i] = layer[from];
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

#define MAX_CELLS (DRAW_MAX_GRID + DRAW_MAX_PARTS + 2)

/* How one attempt lays out: gutters grown by extra_x (between columns, and
 * the margins) and extra_y (between rows); with min_w the figure is at
 * least that wide, the room right of the columns left to links that go
 * around parts. narrow: notes inside their boxes, every box as wide as its
 * column (a stack of equal boxes, links straight down their middle), and
 * nothing routed left of the column, so a link that goes around a part
 * goes round its right, where its texts have room. col_x/col_w (may be
 * NULL) get where the columns went. */
typedef struct {
    double extra_x, extra_y;
    double outer;
    int min_w;
    bool narrow;
    double *col_x, *col_w;
    double fault_wrap; /* narrow: wrap the faults of links around a part at this width (0: not) */
    const dlives *lv;  /* a live board's settings, or NULL */
} attempt_opts;

/* A link's texts: t[0] its protocol (none for an empty label), then its fault lines, each fault
 * wrapped at spaces to at most wrap px (0: not wrapped), at most 8 lines in
 * all (the last keeps what is left). store holds the wrapped lines. A
 * fault that shows a live board's setting (lv) keeps its marks and is not
 * wrapped (the marks' offsets hold). Returns the count. */
#define NARROW_FAULT_W 60 /* narrow: the faults of a link around a part, right of the stack */

static size_t S_link_texts(dcanvas *m, const bp_board *b, size_t i, double wrap, dltext *t,
                           char store[][160], const dlives *lv)
{
    char faults[4][160];
    dmarks marks[4];
    size_t nf = dlink_faults(b, i, faults, marks, lv), n = 0;
    memset(t, 0, 8 * sizeof *t);
    t[n].text = dlink_label(b, i);
    if (*t[n].text) { /* an empty label (a dead-letter link) is no text */
        t[n].bold = true;
        t[n].color = DC_PROTO;
        t[n].kind = DL_LINK_TEXT;
        t[n].w = dc_text_width(m, t[n].text, DF_SMALL, true);
        n++;
    }
    for (size_t k = 0; k < nf; k++) {
        dcolor color = strcmp(faults[k], "transactional") == 0 ? DC_MUTED : DC_FAIL;
        const char *rest = faults[k];
        while (*rest && n < 8) {
            size_t len = strlen(rest), cut = len;
            if (wrap > 0 && n < 7 && !marks[k].n &&
                dc_text_width(m, rest, DF_SMALL, false) > wrap) {
                /* the longest run of whole words that fits, else the first word */
                size_t best = 0;
                for (size_t j = 1; j < len; j++) {
                    if (rest[j] != ' ')
                        continue;
                    char head[160];
                    snprintf(head, sizeof head, "%.*s", (int)j, rest);
                    if (dc_text_width(m, head, DF_SMALL, false) <= wrap || best == 0)
                        best = j;
                    else
                        break;
                }
                if (best > 0)
                    cut = best;
            }
            snprintf(store[n], 160, "%.*s", (int)cut, rest);
            t[n].text = store[n];
            t[n].bold = false;
            t[n].color = color;
            t[n].kind = DL_FAULT;
            if (cut == len)
                t[n].marks = marks[k];
            t[n].w = dc_text_width(m, store[n], DF_SMALL, false);
            n++;
            rest += cut;
            while (*rest == ' ')
                rest++;
        }
    }
    return n;
}

/* The room a link's texts need beside it: the widest across (between
 * columns) or their lines stacked (between rows), with the ports' zones. */
static double S_label_room(dcanvas *m, const bp_board *b, size_t i, bool across, double wrap,
                           const dlives *lv)
{
    dltext t[8];
    char store[8][160];
    size_t nt = S_link_texts(m, b, i, wrap, t, store, lv);
    double need = 0;
    for (size_t k = 0; k < nt; k++)
        need = fmax(need, t[k].w);
    if (!across)
        need = DL_SMALL * (double)nt;
    return need + 2 * 6 + 10 + 2 * DR_CELL + 8;
}

/* One attempt at the whole layout. Returns 0, 1 (no room: try wider), or -1. */
static int S_attempt(dcanvas *m, const bp_board *b, const dpart_content *pc, const grid *g,
                     const attempt_opts *ao, dboard_layout *out, size_t *failed_link)
{
    size_t n = b->sim.n_parts, nl = b->sim.n_links;
    double col_w[MAX_CELLS] = {0}, gap[MAX_CELLS] = {0}, row_gap[MAX_CELLS] = {0};
    double band[MAX_CELLS] = {0}, notes_h[MAX_CELLS] = {0};
    double col_x[MAX_CELLS], row_y[MAX_CELLS];
    for (size_t i = 0; i < n; i++) {
        col_w[g->col[i]] = fmax(col_w[g->col[i]], fmax(pc[i].w, dceil_to(pc[i].notes_w, 8)));
        band[g->row[i]] = fmax(band[g->row[i]], pc[i].h);
        notes_h[g->row[i]] = fmax(notes_h[g->row[i]], dceil_to(pc[i].notes_h, DR_CELL));
    }
    for (int c = 0; c + 1 < g->cols; c++)
        gap[c] = DB_COL_GAP + ao->extra_x;
    for (int r = 0; r + 1 < g->rows; r++)
        row_gap[r] = DB_ROW_GAP + ao->extra_y;
    for (size_t i = 0; i < nl; i++) {
        const sim_link *l = &b->sim.links[i];
        int c0 = g->col[l->from], c1 = g->col[l->to], r0 = g->row[l->from], r1 = g->row[l->to];
        if (abs(c0 - c1) == 1) {
            int c = c0 < c1 ? c0 : c1;
            gap[c] = fmax(gap[c],
                          dceil_to(S_label_room(m, b, i, true, 0, ao->lv) + ao->extra_x, DR_CELL));
        } else if (c0 == c1 && abs(r0 - r1) == 1) {
            /* one under the other: the texts stack beside the link */
            int r = r0 < r1 ? r0 : r1;
            row_gap[r] = fmax(row_gap[r], dceil_to(S_label_room(m, b, i, false, 0, ao->lv) -
                                                       notes_h[r] + ao->extra_y,
                                                   DR_CELL));
        }
    }
    double outer = dceil_to(ao->outer + ao->extra_x / 2, DR_CELL);
    double x = outer;
    for (int c = 0; c < g->cols; c++) {
        col_x[c] = x;
        if (ao->col_x)
            ao->col_x[c] = x;
        if (ao->col_w)
            ao->col_w[c] = dceil_to(col_w[c], 8);
        x += dceil_to(col_w[c], 8) + dceil_to(gap[c], DR_CELL);
    }
    double y = outer;
    for (int r = 0; r < g->rows; r++) {
        row_y[r] = y;
        y += band[r] + notes_h[r] + (r + 1 < g->rows ? dceil_to(row_gap[r], DR_CELL) : 0);
    }
    /* room right of the last column: links that go around a part run
     * there, side by side, each with its texts beside it */
    double around = 0;
    for (size_t i = 0; ao->narrow && i < nl; i++)
        if (abs(g->row[b->sim.links[i].from] - g->row[b->sim.links[i].to]) != 1)
            around += S_label_room(m, b, i, true, ao->fault_wrap, ao->lv) -
                      (2 * 6 + 10 + 2 * DR_CELL + 8) + NARROW_AROUND;
    double right = fmax(outer, dceil_to(around, DR_CELL));
    out->width = (int)dceil_to(x - dceil_to(gap[g->cols - 1], DR_CELL) + right, DR_CELL);
    if (ao->narrow && out->width < ao->min_w) {
        /* centre the stack in the figure, as far as the texts beside its
         * links still fit right of them */
        double shift = (ao->min_w - out->width) / 2.0, centre = col_x[0] + col_w[0] / 2;
        for (size_t i = 0; i < nl; i++) {
            if (abs(g->row[b->sim.links[i].from] - g->row[b->sim.links[i].to]) != 1)
                continue;
            double texts = S_label_room(m, b, i, true, ao->fault_wrap, ao->lv) -
                           (2 * 6 + 10 + 2 * DR_CELL + 8);
            shift = fmin(shift, ao->min_w - 6 - (DR_GAP_TEXT + 2) - texts - 4 - centre);
        }
        shift = floor(fmax(0, shift) / DR_CELL) * DR_CELL;
        for (int c = 0; c < g->cols; c++)
            col_x[c] += shift;
        out->width = ao->min_w;
    } else if (ao->narrow) {
        out->width += ao->min_w - DRAW_NARROW_W; /* the attempts' growth */
    }
    out->height = (int)dceil_to(y + outer, DR_CELL);

    out->parts = xcalloc(n, sizeof *out->parts);
    out->n_parts = n;
    out->links = xcalloc(nl ? nl : 1, sizeof *out->links);
    out->n_links = nl;
    dobstacles ob = {0};
    ob.w = out->width;
    ob.h = out->height;
    drouter rt;
    droute_init(&rt, out->width, out->height);
    if (ao->narrow) {
        drect left = {0, 0, outer, out->height};
        droute_block(&rt, left, 0, -1);
    }
    double asc, desc;
    dc_font_extents(m, DF_SMALL, &asc, &desc);
    double asc_l, desc_l;
    dc_font_extents(m, DF_LABEL, &asc_l, &desc_l);

    for (size_t i = 0; i < n; i++) {
        const dpart_content *c = &pc[i];
        dpart_geom *pg = &out->parts[i];
        pg->col = g->col[i];
        pg->row = g->row[i];
        pg->users = c->users;
        pg->external = c->external;
        double bw = ao->narrow ? dceil_to(col_w[g->col[i]], 8) : c->w, bh = band[g->row[i]];
        drect box = {col_x[g->col[i]] + dceil_to((dceil_to(col_w[g->col[i]], 8) - bw) / 2, DR_CELL),
                     row_y[g->row[i]], bw, bh};
        pg->box = box;
        pg->footprint = box;
        /* contents, vertically centred */
        double content = 0;
        for (size_t k = 0; k < c->n; k++)
            content += k < c->n_label ? DL_LABEL : DL_SMALL;
        if (c->badge)
            content += 6 + DB_BADGE_H;
        if (ao->narrow && c->n_notes)
            content += 6 + DL_SMALL * (double)c->n_notes;
        double ty = box.y + round((bh - content) / 2);
        double tx = box.x + (c->users ? DB_GLYPH_W : 0) + (bw - (c->users ? DB_GLYPH_W : 0)) / 2;
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
            drect br = {round(tx - c->badge_w / 2), ty, round(c->badge_w), DB_BADGE_H};
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
            dl->y = ty + (DB_BADGE_H - (ba + bd)) / 2 + ba;
            double tw = c->badge_w - 14;
            drect rr = {tx - tw / 2, ty + 2, tw, DB_BADGE_H - 4};
            dl->r = rr;
            pg->text_w = fmax(pg->text_w, c->badge_w);
            ty += DB_BADGE_H;
        }
        drect zone = drect_grow(box, DR_ZONE * DR_CELL);
        droute_block(&rt, zone, 0, (int16_t)(i + 1));
        dobst_add(&ob, box);
        double ny = ao->narrow ? ty + 6 : box.y + box.h + 6;
        for (size_t k = 0; k < c->n_notes; k++) {
            dlabel *dl = S_label(out);
            dl->kind = DL_NOTE;
            dl->part = (int)i;
            dl->text = xstrdup(c->notes[k].text);
            dl->size = DF_SMALL;
            dl->bold = c->notes[k].bold;
            dl->color = c->notes[k].color;
            dl->marks = c->notes[k].marks;
            dl->anchor = DT_MIDDLE;
            dl->x = ao->narrow ? tx : box.x + box.w / 2;
            dl->y = ny + (DL_SMALL - (asc + desc)) / 2 + asc;
            drect rr = {dl->x - c->notes[k].w / 2, ny, c->notes[k].w, DL_SMALL};
            dl->r = rr;
            ny += DL_SMALL;
            if (ao->narrow)
                continue;
            droute_block(&rt, rr, DR_CELL, -1);
            dobst_add(&ob, rr);
            pg->footprint.h = ny - box.y;
            pg->footprint.x = fmin(pg->footprint.x, rr.x);
            pg->footprint.w = fmax(box.x + box.w, rr.x + rr.w) - pg->footprint.x;
        }
    }

    /* links: straight neighbours first, then the rest, each in board order */
    int used[DRAW_MAX_PARTS][4] = {{0}};
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (size_t i = 0; i < nl && rc == 0; i++) {
            const sim_link *l = &b->sim.links[i];
            int dc = abs(g->col[l->from] - g->col[l->to]),
                dr = abs(g->row[l->from] - g->row[l->to]);
            bool straight = (dr == 0 && dc == 1) || (dc == 0 && dr == 1);
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
            dltext t[8];
            char store[8][160];
            size_t nt = S_link_texts(m, b, i, ao->narrow && !straight ? ao->fault_wrap : 0, t,
                                     store, ao->lv);
            dlplace pl;
            if (!dplace_texts(&ob, lg->xy, lg->n_pts, t, nt, asc, &pl)) {
                *failed_link = i;
                rc = 1;
                break;
            }
            lg->lost_mark = S_lossy(l);
            lg->mark_x = pl.mark_x;
            lg->mark_y = pl.mark_y;
            for (size_t k = 0; k < nt; k++) {
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

/* The attempts at one grid, the gutters growing until every link and label
 * has room. With a fixed width (narrow) the rows grow first, and the
 * figure widens only when they do not help. Returns 0, 1 (no room) or -1;
 * on 0 out holds the layout. */
static int S_layout(dcanvas *m, const bp_board *b, const dpart_content *pc, const grid *g,
                    attempt_opts ao, dboard_layout *out, size_t *failed)
{
    int rc = 1;
    int min_w = ao.min_w;
    for (int a = 0; a < ATTEMPTS && rc == 1; a++) {
        dboard_layout_free(out);
        if (min_w) {
            int wider = a < ATTEMPTS / 2 ? 0 : a - ATTEMPTS / 2 + 1;
            ao.extra_x = 0;
            ao.extra_y = 32.0 * a;
            ao.min_w = min_w + 32 * wider;
        } else {
            ao.extra_x = ao.extra_y = 32.0 * a;
        }
        rc = S_attempt(m, b, pc, g, &ao, out, failed);
    }
    return rc;
}

/* The grid with its columns cut into bands: band k holds columns
 * [start[k], start[k+1]), renumbered from 0 (from the right in every
 * second band when snaking, so a band ends where the next begins), and its
 * rows come below the rows of the bands before it. */
static grid S_banded(const grid *g, size_t n_parts, const int *start, int n_bands, bool snake)
{
    grid w = {0};
    int row0 = 0;
    for (int k = 0; k < n_bands; k++) {
        int lo = start[k], hi = k + 1 < n_bands ? start[k + 1] : g->cols, rows = 0;
        for (size_t i = 0; i < n_parts; i++)
            if (g->col[i] >= lo && g->col[i] < hi) {
                w.col[i] = snake && k % 2 ? hi - 1 - g->col[i] : g->col[i] - lo;
                w.row[i] = row0 + g->row[i];
                rows = rows > g->row[i] + 1 ? rows : g->row[i] + 1;
                w.cols = w.cols > hi - lo ? w.cols : hi - lo;
            }
        row0 += rows;
    }
    /* a band whose columns held no part leaves no empty rows behind */
    bool seen[MAX_CELLS] = {false};
    int map[MAX_CELLS], next = 0;
    for (size_t i = 0; i < n_parts; i++)
        seen[w.row[i]] = true;
    for (int r = 0; r < row0 && r < MAX_CELLS; r++)
        map[r] = seen[r] ? next++ : -1;
    for (size_t i = 0; i < n_parts; i++)
        w.row[i] = map[w.row[i]];
    w.rows = next;
    return w;
}

/* The length of every link's line, with a bend counted as 48 px: how
 * roundabout a layout's links are. */
static double S_link_length(const dboard_layout *l)
{
    double len = 0;
    for (size_t i = 0; i < l->n_links; i++)
        for (size_t k = 0; k + 1 < l->links[i].n_pts; k++) {
            const double *xy = l->links[i].xy + 2 * k;
            len += fabs(xy[2] - xy[0]) + fabs(xy[3] - xy[1]) + (k ? 48 : 0);
        }
    return len;
}

/* The fewest bands columns can be cut into, each no wider than w (columns
 * at col_x, col_w wide, from a one-band layout); start gets each band's
 * first column. Greedy, which is the fewest for cuts in order. */
static int S_greedy(const double *col_x, const double *col_w, int cols, double w, int *start)
{
    int n = 0;
    for (int c = 0; c < cols; c++)
        if (c == 0 || col_x[c] + col_w[c] - col_x[start[n - 1]] > w)
            start[n++] = c;
    return n;
}

/* Cuts into the fewest bands within max_w, balanced: at the smallest width
 * that needs no more of them. Returns the band count. */
static int S_cut(const double *col_x, const double *col_w, int cols, double max_w, int *start)
{
    int need = S_greedy(col_x, col_w, cols, max_w, start);
    double widest = 0;
    for (int c = 0; c < cols; c++)
        widest = fmax(widest, col_w[c]);
    int s[MAX_CELLS];
    for (double w = widest; w < max_w; w += 8)
        if (S_greedy(col_x, col_w, cols, w, s) <= need) {
            memcpy(start, s, (size_t)need * sizeof *s);
            break;
        }
    return need;
}

/* The narrow layout: a band per column, every part on a row of its own. */
static int S_narrow(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                    const dlives *lv, const grid *g, dboard_layout *out, size_t *failed)
{
    dpart_content *pc =
        dboard_contents(m, b, notes, n_notes, NARROW_TEXT_W, NARROW_TEXT_W, true, lv);
    attempt_opts ao = {0, 0, NARROW_OUTER, DRAW_NARROW_W, true, NULL, NULL, 0, lv};
    int start[MAX_CELLS];
    for (int c = 0; c < g->cols; c++)
        start[c] = c;
    grid one = S_banded(g, b->sim.n_parts, start, g->cols, false);
    int rc = S_layout(m, b, pc, &one, ao, out, failed);
    if (rc == 0 && out->width > DRAW_NARROW_W) {
        /* too wide for a phone's column: the faults of the links around a
         * part on more lines, if that is narrower */
        dboard_layout wrapped = {0};
        size_t wfailed = 0;
        ao.fault_wrap = NARROW_FAULT_W;
        if (S_layout(m, b, pc, &one, ao, &wrapped, &wfailed) == 0 && wrapped.width < out->width) {
            dboard_layout_free(out);
            *out = wrapped;
        } else {
            dboard_layout_free(&wrapped);
        }
    }
    dboard_contents_free(pc, b->sim.n_parts);
    out->layout = DRAW_NARROW;
    return rc;
}

/* The wide layout: one band, or when that is wider than DRAW_WIDE_MAX the
 * fewest bands that fit, the budget tightened while a banded layout still
 * comes out too wide (its gutters differ from the one band's). */
static int S_wide(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                  const dlives *lv, const grid *g, dboard_layout *out, size_t *failed)
{
    dpart_content *pc = dboard_contents(m, b, notes, n_notes, BOX_TEXT_W, NOTE_W, false, lv);
    double col_x[MAX_CELLS], col_w[MAX_CELLS];
    attempt_opts ao = {0, 0, OUTER, 0, false, col_x, col_w, 0, lv};
    int rc = S_layout(m, b, pc, g, ao, out, failed);
    ao.col_x = ao.col_w = NULL;
    int start[MAX_CELLS];
    for (double budget = DRAW_WIDE_MAX - 2 * OUTER;
         rc == 0 && out->width > DRAW_WIDE_MAX && budget > 0 && g->cols > 1; budget -= 64) {
        int n_bands = S_cut(col_x, col_w, g->cols, budget, start);
        if (n_bands < 2)
            continue;
        /* bands that read on from the left like lines of text, or that
         * snake: whichever runs its links the shorter way */
        dboard_layout best;
        memset(&best, 0, sizeof best);
        for (int snake = 0; snake < 2; snake++) {
            grid w = S_banded(g, b->sim.n_parts, start, n_bands, snake);
            dboard_layout banded;
            memset(&banded, 0, sizeof banded);
            size_t f2 = 0;
            if (S_layout(m, b, pc, &w, ao, &banded, &f2) == 0 &&
                (!best.parts || S_link_length(&banded) < S_link_length(&best))) {
                dboard_layout_free(&best);
                best = banded;
            } else {
                dboard_layout_free(&banded);
            }
        }
        if (best.parts && best.width < out->width) {
            dboard_layout_free(out);
            *out = best;
        } else {
            dboard_layout_free(&best);
        }
        if (n_bands == g->cols)
            break;
    }
    dboard_contents_free(pc, b->sim.n_parts);
    out->layout = DRAW_WIDE;
    return rc;
}

int dboard_layout_make(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                       draw_layout layout, const dlives *lv, dboard_layout *out, char *err,
                       size_t errn)
{
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
    size_t failed = 0;
    int rc = 1;
    if (layout == DRAW_NARROW)
        rc = S_narrow(m, b, notes, n_notes, lv, &g, out, &failed);
    /* A board the narrow stack cannot route (links that cross back and
     * around one another) is drawn in the wide layout instead: a picture
     * that shrinks on a phone rather than none. out->layout says so. */
    if (rc == 1) {
        dboard_layout_free(out);
        rc = S_wide(m, b, notes, n_notes, lv, &g, out, &failed);
    }
    if (rc != 0) {
        dboard_layout_free(out);
        return dfail(err, errn, "no room found for link %zu (%s to %s) in the board diagram",
                     failed + 1, dpart_label(b, (size_t)b->sim.links[failed].from),
                     dpart_label(b, (size_t)b->sim.links[failed].to));
    }
    return 0;
}

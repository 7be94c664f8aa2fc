/* draw_board.c — the board diagram: part boxes on a layered grid, links
 * routed orthogonally around them on a 4 px grid, and every link label put
 * where it overlaps no box, line or other label (else the gutters grow and
 * the layout is tried again). Geometry only; the canvas does the drawing. */
#include "draw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 64
#define MAX_LINKS 256
#define MAX_GRID 63 /* largest `at:` column or row */
#define CELL 4      /* router grid, px */
#define PAD_X 12    /* inside a box */
#define PAD_Y 9
#define BOX_MIN_W 96
#define BOX_MIN_H 48
#define BOX_TEXT_W 184 /* wrap width inside a box */
#define NOTE_W 200     /* wrap width of a note */
#define GLYPH_W 28     /* the users glyph's column */
#define BADGE_H 18
#define GAP_TEXT 5 /* between a line and its label */
#define COL_GAP 64
#define ROW_GAP 32
#define OUTER 24
#define ZONE 2  /* cells kept free around a box */
#define STUB 3  /* cells a link leaves a box straight */
#define BEND 16 /* router costs, in cells */
#define CROSS 6
#define SIDE_NS 6 /* leaving or entering through the top or bottom */
#define ATTEMPTS 8

enum { E_, S_, W_, N_ };
static const int DX[4] = {1, 0, -1, 0};
static const int DY[4] = {0, 1, 0, -1};
enum { OCC_H = 1, OCC_V = 2 };

/* ------------------------------------------------------------------ shared words */

const char *dpart_label(const bp_board *b, size_t i)
{
    const bp_part_info *p = &b->parts[i];
    return p->label ? p->label : p->id ? p->id : "part";
}

const char *dreply_word(sim_protocol p, bool plural)
{
    if (p == SIM_PROTO_AMQP)
        return plural ? "acks" : "ack";
    if (p == SIM_PROTO_SQL)
        return plural ? "replies" : "reply";
    return plural ? "responses" : "response";
}

const char *drequest_word(sim_protocol p, bool plural)
{
    if (p == SIM_PROTO_AMQP)
        return plural ? "deliveries" : "delivery";
    if (p == SIM_PROTO_SQL)
        return plural ? "writes" : "write";
    return plural ? "requests" : "request";
}

const char *dpolicy_badge(sim_idempotency i)
{
    switch (i) {
    case SIM_IDEM_NONE:
        return "no ID check";
    case SIM_IDEM_KEY_AFTER_EFFECT:
        return "ID check after effect";
    case SIM_IDEM_KEY_IN_TRANSACTION:
        return "ID check in transaction";
    case SIM_IDEM_PROVIDER_KEY:
        return "provider idempotency key";
    case SIM_IDEM_BUSINESS_KEY:
        return "business-key check";
    default:
        return "unknown policy";
    }
}

static bool S_handler(sim_kind k)
{
    return k == SIM_KIND_CONSUMER || k == SIM_KIND_SERVICE;
}

static const char *S_link_label(const bp_board *b, size_t i)
{
    const char *l = b->links ? b->links[i].label : NULL;
    if (l)
        return l;
    switch (b->sim.links[i].protocol) {
    case SIM_PROTO_AMQP:
        return "AMQP";
    case SIM_PROTO_HTTP1:
        return "HTTP/1.1";
    case SIM_PROTO_HTTP2:
        return "HTTP/2";
    case SIM_PROTO_SQL:
        return "SQL";
    default:
        return "link";
    }
}

int dcheck_board(const bp_board *b, char *err, size_t errn)
{
    char what[96];
    if (!b)
        return dfail(err, errn, "no board to draw");
    const sim_board *s = &b->sim;
    if (s->n_parts == 0 || s->n_parts > MAX_PARTS)
        return dfail(err, errn, "a board to draw needs 1 to %d parts, not %zu", MAX_PARTS,
                     s->n_parts);
    if (s->n_links > MAX_LINKS)
        return dfail(err, errn, "a board to draw has at most %d links, not %zu", MAX_LINKS,
                     s->n_links);
    if (!s->parts || !b->parts || (s->n_links && !s->links))
        return dfail(err, errn, "the board has no part or link list to draw");
    if (b->title && dcheck_text("the board title", b->title, err, errn))
        return -1;
    if (b->id && dcheck_text("the board id", b->id, err, errn))
        return -1;
    for (size_t i = 0; i < s->n_parts; i++) {
        const sim_part *p = &s->parts[i];
        snprintf(what, sizeof what, "the label of part %zu", i + 1);
        if (dcheck_text(what, dpart_label(b, i), err, errn))
            return -1;
        if ((unsigned)p->kind >= SIM_KIND_COUNT)
            return dfail(err, errn, "part %zu has an unknown kind", i + 1);
        if ((unsigned)p->idempotency >= SIM_IDEM_COUNT)
            return dfail(err, errn, "part %zu has an unknown idempotency policy", i + 1);
        snprintf(what, sizeof what, "the vcpu of part %zu", i + 1);
        if (dcheck_number(what, p->vcpu, 0, 1e6, err, errn))
            return -1;
        snprintf(what, sizeof what, "the gb of part %zu", i + 1);
        if (dcheck_number(what, p->gb, 0, 1e6, err, errn))
            return -1;
        snprintf(what, sizeof what, "crash_after_effect of part %zu", i + 1);
        if (dcheck_number(what, p->crash_after_effect, 0, 1, err, errn))
            return -1;
        snprintf(what, sizeof what, "fail of part %zu", i + 1);
        if (dcheck_number(what, p->fail, 0, 1, err, errn))
            return -1;
        if (p->key_ttl_us < 0)
            return dfail(err, errn, "key_ttl of part %zu is negative", i + 1);
        const bp_part_info *pi = &b->parts[i];
        if (pi->has_at &&
            (pi->at_col < 0 || pi->at_col > MAX_GRID || pi->at_row < 0 || pi->at_row > MAX_GRID))
            return dfail(err, errn,
                         "part %zu is pinned at [%d, %d]; columns and rows go from 0 to %d", i + 1,
                         pi->at_col, pi->at_row, MAX_GRID);
    }
    for (size_t i = 0; i < s->n_links; i++) {
        const sim_link *l = &s->links[i];
        if (l->from < 0 || (size_t)l->from >= s->n_parts || l->to < 0 ||
            (size_t)l->to >= s->n_parts)
            return dfail(err, errn, "link %zu names a part the board does not have", i + 1);
        if (l->from == l->to)
            return dfail(err, errn, "link %zu connects part %d to itself", i + 1, l->from + 1);
        if ((unsigned)l->protocol >= SIM_PROTO_COUNT)
            return dfail(err, errn, "link %zu has an unknown protocol", i + 1);
        snprintf(what, sizeof what, "the protocol label of link %zu", i + 1);
        if (dcheck_text(what, S_link_label(b, i), err, errn))
            return -1;
        snprintf(what, sizeof what, "lose_request of link %zu", i + 1);
        if (dcheck_number(what, l->lose_request, 0, 1, err, errn))
            return -1;
        snprintf(what, sizeof what, "lose_reply of link %zu", i + 1);
        if (dcheck_number(what, l->lose_reply, 0, 1, err, errn))
            return -1;
        if (l->n_lose_reply_of > 1000 || (l->n_lose_reply_of && !l->lose_reply_of))
            return dfail(err, errn, "lose_reply_of of link %zu is not a short list", i + 1);
    }
    return 0;
}

/* ------------------------------------------------------------------ box contents */

typedef struct {
    char *text;
    double size;
    bool bold;
    uint32_t color;
    double w;
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
    }
    free(lines);
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

/* True when some handler uses this provider's idempotency keys. */
static bool S_provider_keys(const bp_board *b, size_t prov)
{
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        if ((size_t)l->to == prov && S_handler(b->sim.parts[l->from].kind) &&
            b->sim.parts[l->from].idempotency == SIM_IDEM_PROVIDER_KEY)
            return true;
    }
    return false;
}

/* The lines under the label: size, faults and settings of the part, in words. */
static void S_part_facts(const bp_board *b, size_t i, char facts[][128], uint32_t *colors,
                         size_t *n)
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
    if (p->kind == SIM_KIND_BROKER && p->delivery == SIM_DELIVERY_AT_MOST_ONCE) {
        snprintf(facts[*n], 128, "at-most-once delivery");
        colors[(*n)++] = DC_MUTED;
    }
    if (S_handler(p->kind) && p->crash_after_effect > 0) {
        dfmt_percent(a, sizeof a, p->crash_after_effect);
        snprintf(facts[*n], 128, "crashes after %s of effects", a);
        colors[(*n)++] = DC_FAIL;
    }
    if (p->kind == SIM_KIND_PROVIDER && p->fail > 0) {
        dfmt_percent(a, sizeof a, p->fail);
        snprintf(facts[*n], 128, "fails %s of calls", a);
        colors[(*n)++] = DC_FAIL;
    }
    bool keyed = (S_handler(p->kind) && p->idempotency != SIM_IDEM_NONE &&
                  p->idempotency != SIM_IDEM_PROVIDER_KEY) ||
                 (p->kind == SIM_KIND_PROVIDER && S_provider_keys(b, i));
    if (keyed && p->key_ttl_us != SIM_FOREVER) {
        dfmt_duration(a, sizeof a, p->key_ttl_us);
        snprintf(facts[*n], 128, "%s kept %s",
                 p->idempotency == SIM_IDEM_BUSINESS_KEY && S_handler(p->kind) ? "keys" : "IDs", a);
        if (p->kind == SIM_KIND_PROVIDER)
            snprintf(facts[*n], 128, "keys kept %s", a);
        colors[(*n)++] = DC_MUTED;
    }
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
                                size_t n_notes)
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
        size_t nf;
        S_part_facts(b, i, facts, colors, &nf);
        for (size_t k = 0; k < nf; k++)
            S_add_wrapped(m, &c->lines, &c->n, &c->cap, facts[k], DF_SMALL, false, colors[k],
                          BOX_TEXT_W);
        double tw = 0, th = 2 * PAD_Y;
        for (size_t k = 0; k < c->n; k++) {
            tw = fmax(tw, c->lines[k].w);
            th += k < c->n_label ? DL_LABEL : DL_SMALL;
        }
        if (S_handler(p->kind)) {
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
        char *t = xasprintf("%s%s", S_tone_mark(notes[k].tone), notes[k].text);
        S_add_wrapped(m, &c->notes, &c->n_notes, &c->cap_notes, t, DF_SMALL, true,
                      S_tone_color(notes[k].tone), NOTE_W);
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

/* Column = longest path from a part without incoming links (at most n-1, so
 * a cycle cannot run away); row = order within the column. `at:` pins. */
static void S_place(const bp_board *b, int *col, int *row)
{
    size_t n = b->sim.n_parts;
    int layer[MAX_PARTS] = {0};
    for (size_t round = 0; round < n; round++) {
        bool changed = false;
        for (size_t i = 0; i < b->sim.n_links; i++) {
            const sim_link *l = &b->sim.links[i];
            if (layer[l->to] < layer[l->from] + 1 && layer[l->from] + 1 < (int)n) {
                layer[l->to] = layer[l->from] + 1;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    typedef bool column[MAX_GRID + 1 + MAX_PARTS];
    column *t = xcalloc(MAX_GRID + 1 + MAX_PARTS, sizeof *t);
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
        int map[MAX_GRID + 1 + MAX_PARTS];
        bool seen[MAX_GRID + 1 + MAX_PARTS] = {false};
        for (size_t i = 0; i < n; i++)
            seen[v[i]] = true;
        int next = 0;
        for (int k = 0; k < MAX_GRID + 1 + MAX_PARTS; k++)
            map[k] = seen[k] ? next++ : -1;
        for (size_t i = 0; i < n; i++)
            v[i] = map[v[i]];
    }
}

/* ------------------------------------------------------------------ router */

typedef struct {
    int gw, gh;
    int16_t *owner; /* 0 free, part+1 the zone around a box, -1 text */
    uint8_t *occ;   /* OCC_H / OCC_V: a line runs here (with clearance) */
    int32_t *dist, *prev;
    int32_t *heap;
    size_t n_heap, cap_heap;
} router;

static void S_router_init(router *r, int w, int h)
{
    r->gw = w / CELL + 1;
    r->gh = h / CELL + 1;
    size_t cells = (size_t)r->gw * (size_t)r->gh;
    r->owner = xcalloc(cells, sizeof *r->owner);
    r->occ = xcalloc(cells, sizeof *r->occ);
    r->dist = xmalloc(cells * 4 * sizeof *r->dist);
    r->prev = xmalloc(cells * 4 * sizeof *r->prev);
    r->heap = NULL;
    r->n_heap = r->cap_heap = 0;
}

static void S_router_free(router *r)
{
    free(r->owner);
    free(r->occ);
    free(r->dist);
    free(r->prev);
    free(r->heap);
}

static bool S_in(const router *r, int x, int y)
{
    return x >= 0 && y >= 0 && x < r->gw && y < r->gh;
}

/* Mark the cells covering px rectangle rr (grown by `by` px) with owner o,
 * leaving box zones as they are. */
static void S_mark_rect(router *r, drect rr, double by, int16_t o)
{
    int x0 = (int)floor((rr.x - by) / CELL), x1 = (int)ceil((rr.x + rr.w + by) / CELL);
    int y0 = (int)floor((rr.y - by) / CELL), y1 = (int)ceil((rr.y + rr.h + by) / CELL);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (S_in(r, x, y) && r->owner[y * r->gw + x] <= 0)
                r->owner[y * r->gw + x] = o;
}

/* Heap of states ordered by (dist, state) so ties break the same way always. */
static bool S_less(const router *r, int32_t a, int32_t b)
{
    return r->dist[a] < r->dist[b] || (r->dist[a] == r->dist[b] && a < b);
}

static void S_push(router *r, int32_t s)
{
    r->heap = xgrow(r->heap, sizeof *r->heap, &r->cap_heap, r->n_heap + 1);
    size_t i = r->n_heap++;
    r->heap[i] = s;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!S_less(r, r->heap[i], r->heap[p]))
            break;
        int32_t t = r->heap[i];
        r->heap[i] = r->heap[p];
        r->heap[p] = t;
        i = p;
    }
}

static int32_t S_pop(router *r)
{
    int32_t top = r->heap[0];
    r->heap[0] = r->heap[--r->n_heap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < r->n_heap && S_less(r, r->heap[l], r->heap[m]))
            m = l;
        if (l + 1 < r->n_heap && S_less(r, r->heap[l + 1], r->heap[m]))
            m = l + 1;
        if (m == i)
            break;
        int32_t t = r->heap[i];
        r->heap[i] = r->heap[m];
        r->heap[m] = t;
        i = m;
    }
    return top;
}

typedef struct {
    bool ok;
    int side;
    int px, py; /* port on the box edge, cells */
    int sx, sy; /* stub end, cells */
    int cost;
} port;

/* The next free slot on each side of a box: centre first, then 3 cells either
 * way, alternating. */
static port S_port(const router *r, drect box, int side, int used, int part)
{
    port p = {0};
    p.side = side;
    int k = used;
    int off = ((k + 1) / 2) * 3 * (k % 2 ? 1 : -1);
    int cx = (int)((box.x + box.w / 2) / CELL), cy = (int)((box.y + box.h / 2) / CELL);
    int half = (int)((side == E_ || side == W_ ? box.h : box.w) / 2 / CELL) - 2;
    if (abs(off) > half)
        return p;
    if (side == E_ || side == W_) {
        p.px = side == E_ ? (int)((box.x + box.w) / CELL) : (int)(box.x / CELL);
        p.py = cy + off;
    } else {
        p.px = cx + off;
        p.py = side == S_ ? (int)((box.y + box.h) / CELL) : (int)(box.y / CELL);
    }
    p.sx = p.px + DX[side] * STUB;
    p.sy = p.py + DY[side] * STUB;
    for (int s = 1; s <= STUB; s++) {
        int x = p.px + DX[side] * s, y = p.py + DY[side] * s;
        if (!S_in(r, x, y))
            return p;
        int16_t o = r->owner[y * r->gw + x];
        if ((o != 0 && o != part + 1) || r->occ[y * r->gw + x])
            return p;
    }
    if (r->owner[p.sy * r->gw + p.sx] != 0)
        return p;
    p.ok = true;
    p.cost = side == N_ || side == S_ ? SIDE_NS : 0;
    return p;
}

/* Route from one of src's ports to one of dst's; writes the polyline (px)
 * into *xy. Returns false when no route exists. */
static bool S_route(router *r, const port *src, const port *dst, int *src_side, int *dst_side,
                    double **xy, size_t *n_pts)
{
    size_t states = (size_t)r->gw * (size_t)r->gh * 4;
    for (size_t i = 0; i < states; i++) {
        r->dist[i] = INT32_MAX;
        r->prev[i] = -1;
    }
    r->n_heap = 0;
    for (int s = 0; s < 4; s++) {
        if (!src[s].ok)
            continue;
        int32_t st = (int32_t)(((size_t)src[s].sy * (size_t)r->gw + (size_t)src[s].sx) * 4) + s;
        if (src[s].cost < r->dist[st]) {
            r->dist[st] = src[s].cost;
            S_push(r, st);
        }
    }
    int best = INT32_MAX;
    int32_t best_state = -1;
    int best_goal = -1;
    while (r->n_heap) {
        int32_t st = S_pop(r);
        int d = st % 4;
        int cell = st / 4;
        int x = cell % r->gw, y = cell / r->gw;
        int cost = r->dist[st];
        if (cost >= best)
            break;
        for (int g = 0; g < 4; g++) {
            if (!dst[g].ok || dst[g].sx != x || dst[g].sy != y)
                continue;
            int in = (g + 2) % 4; /* the direction of the last move into the box */
            int extra;
            if (d == in)
                extra = 0;
            else if (d == g) /* moving away from the box */
                continue;
            else if (r->occ[cell])
                continue;
            else
                extra = BEND;
            if (cost + extra + dst[g].cost < best) {
                best = cost + extra + dst[g].cost;
                best_state = st;
                best_goal = g;
            }
        }
        for (int nd = 0; nd < 4; nd++) {
            if (nd == (d + 2) % 4)
                continue;
            int nx = x + DX[nd], ny = y + DY[nd];
            if (!S_in(r, nx, ny))
                continue;
            int ncell = ny * r->gw + nx;
            if (r->owner[ncell] != 0)
                continue;
            int c = cost + 1;
            if (nd != d) {
                if (r->occ[cell])
                    continue;
                c += BEND;
            }
            uint8_t same = nd == E_ || nd == W_ ? OCC_H : OCC_V;
            if (r->occ[ncell] & same)
                continue;
            if (r->occ[ncell])
                c += CROSS;
            int32_t ns = ncell * 4 + nd;
            if (c < r->dist[ns]) {
                r->dist[ns] = c;
                r->prev[ns] = st;
                S_push(r, ns);
            }
        }
    }
    if (best_state < 0)
        return false;
    /* walk back: cells from the goal stub end to the source stub end */
    size_t n = 0, cap = 0;
    int *cells = NULL;
    for (int32_t st = best_state; st >= 0; st = r->prev[st]) {
        cells = xgrow(cells, sizeof *cells, &cap, n + 1);
        cells[n++] = st / 4;
    }
    int first = cells[n - 1];
    int fx = first % r->gw, fy = first / r->gw;
    int s = 0;
    for (; s < 4; s++)
        if (src[s].ok && src[s].sx == fx && src[s].sy == fy)
            break;
    /* points: source port, the cells in order, target port; then keep bends */
    size_t m = n + 2;
    int *px = xmalloc(m * sizeof *px), *py = xmalloc(m * sizeof *py);
    px[0] = src[s].px;
    py[0] = src[s].py;
    for (size_t i = 0; i < n; i++) {
        px[i + 1] = cells[n - 1 - i] % r->gw;
        py[i + 1] = cells[n - 1 - i] / r->gw;
    }
    px[m - 1] = dst[best_goal].px;
    py[m - 1] = dst[best_goal].py;
    double *out = xmalloc(m * 2 * sizeof *out);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (i > 0 && i + 1 < m) {
            bool colx = px[i - 1] == px[i] && px[i] == px[i + 1];
            bool coly = py[i - 1] == py[i] && py[i] == py[i + 1];
            if (colx || coly)
                continue;
        }
        out[2 * k] = px[i] * CELL;
        out[2 * k + 1] = py[i] * CELL;
        k++;
    }
    free(px);
    free(py);
    free(cells);
    *src_side = s;
    *dst_side = best_goal;
    *xy = out;
    *n_pts = k;
    return true;
}

/* Mark a routed polyline with one cell of clearance either side. */
static void S_mark_line(router *r, const double *xy, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        int x0 = (int)(xy[2 * i] / CELL), y0 = (int)(xy[2 * i + 1] / CELL);
        int x1 = (int)(xy[2 * i + 2] / CELL), y1 = (int)(xy[2 * i + 3] / CELL);
        bool horiz = y0 == y1;
        int a = horiz ? (x0 < x1 ? x0 : x1) : (y0 < y1 ? y0 : y1);
        int bnd = horiz ? (x0 < x1 ? x1 : x0) : (y0 < y1 ? y1 : y0);
        for (int t = a; t <= bnd; t++)
            for (int c = -1; c <= 1; c++) {
                int x = horiz ? t : x0 + c, y = horiz ? y0 + c : t;
                if (S_in(r, x, y))
                    r->occ[y * r->gw + x] |= horiz ? OCC_H : OCC_V;
            }
    }
}

/* ------------------------------------------------------------------ label placement */

typedef struct {
    drect *rects; /* obstacles for text: boxes, notes, placed labels */
    size_t n, cap;
    drect *segs; /* every routed segment as a zero-width rect */
    size_t n_segs, cap_segs;
    int w, h;
} obstacles;

static void S_obst_add(obstacles *o, drect r)
{
    o->rects = xgrow(o->rects, sizeof *o->rects, &o->cap, o->n + 1);
    o->rects[o->n++] = r;
}

static void S_obst_line(obstacles *o, const double *xy, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        double x0 = fmin(xy[2 * i], xy[2 * i + 2]), x1 = fmax(xy[2 * i], xy[2 * i + 2]);
        double y0 = fmin(xy[2 * i + 1], xy[2 * i + 3]), y1 = fmax(xy[2 * i + 1], xy[2 * i + 3]);
        o->segs = xgrow(o->segs, sizeof *o->segs, &o->cap_segs, o->n_segs + 1);
        drect s = {x0, y0, x1 - x0 + 1, y1 - y0 + 1}; /* the 1 px line */
        o->segs[o->n_segs++] = s;
    }
}

static bool S_free(const obstacles *o, drect r)
{
    if (r.x < 6 || r.y < 6 || r.x + r.w > o->w - 6 || r.y + r.h > o->h - 6)
        return false;
    for (size_t i = 0; i < o->n; i++)
        if (drect_overlap(drect_grow(o->rects[i], 3), r))
            return false;
    for (size_t i = 0; i < o->n_segs; i++)
        if (drect_overlap(drect_grow(o->segs[i], 3), r))
            return false;
    return true;
}

typedef struct {
    const char *text;
    double w;
    uint32_t color;
    bool bold;
    dlabel_kind kind;
} ltext;

typedef struct {
    drect r[8];
    double x[8], y[8];
    dtext_anchor a[8];
    double mark_x, mark_y;
} lplace;

/* Try the link's texts (t[0] the protocol, the rest faults) at every 4 px
 * along each segment: above/below a horizontal one, beside a vertical one. */
static bool S_place_texts(const obstacles *o, const double *xy, size_t n, const ltext *t, size_t nt,
                          double asc_small, lplace *out)
{
    double bw = 0;
    for (size_t k = 0; k < nt; k++)
        bw = fmax(bw, t[k].w);
    double base = (DL_SMALL - asc_small) / 2 + asc_small - 1.5; /* baseline in a line box */
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: horizontal segments, longest first; pass 1: vertical ones */
        size_t order[64];
        size_t no = 0;
        for (size_t i = 0; i + 1 < n && no < 64; i++) {
            bool horiz = xy[2 * i + 1] == xy[2 * i + 3];
            if (horiz == (pass == 0))
                order[no++] = i;
        }
        for (size_t a = 1; a < no; a++)
            for (size_t b2 = a; b2 > 0; b2--) {
                size_t i = order[b2], j = order[b2 - 1];
                double li = fabs(xy[2 * i] - xy[2 * i + 2]) + fabs(xy[2 * i + 1] - xy[2 * i + 3]);
                double lj = fabs(xy[2 * j] - xy[2 * j + 2]) + fabs(xy[2 * j + 1] - xy[2 * j + 3]);
                if (li > lj) {
                    order[b2] = j;
                    order[b2 - 1] = i;
                }
            }
        for (size_t oi = 0; oi < no; oi++) {
            size_t i = order[oi];
            bool last = i + 2 == n;
            double ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3];
            if (pass == 0) {
                double lo = fmin(ax, bx) + 6, hi = fmax(ax, bx) - 6;
                if (last && bx > ax)
                    hi -= 10;
                if (last && bx < ax)
                    lo += 10;
                double mid = (lo + hi) / 2;
                /* arrangement 0: protocol above, faults below; 1: all above; 2: all below */
                for (int arr = 0; arr < 3; arr++)
                    for (int step = 0; step < 400; step++) {
                        double cx = mid + (step % 2 ? 1 : -1) * ((step + 1) / 2) * CELL;
                        if (cx - bw / 2 < lo || cx + bw / 2 > hi) {
                            if (step > 1)
                                break;
                            continue;
                        }
                        bool ok = true;
                        for (size_t k = 0; k < nt && ok; k++) {
                            double top;
                            if (arr == 0)
                                top = k == 0 ? ay - GAP_TEXT - DL_SMALL
                                             : ay + GAP_TEXT + DL_SMALL * (double)(k - 1);
                            else if (arr == 1)
                                top = ay - GAP_TEXT - DL_SMALL * (double)(nt - k);
                            else
                                top = ay + GAP_TEXT + DL_SMALL * (double)k;
                            drect rr = {cx - t[k].w / 2, top, t[k].w, DL_SMALL};
                            out->r[k] = rr;
                            out->x[k] = cx;
                            out->y[k] = top + base;
                            out->a[k] = DT_MIDDLE;
                            ok = S_free(o, rr);
                        }
                        if (ok) {
                            out->mark_x = cx;
                            out->mark_y = ay;
                            return true;
                        }
                    }
            } else {
                double lo = fmin(ay, by) + 6, hi = fmax(ay, by) - 6;
                if (last && by > ay)
                    hi -= 10;
                if (last && by < ay)
                    lo += 10;
                double th = DL_SMALL * (double)nt;
                double mid = (lo + hi) / 2;
                for (int side = 0; side < 2; side++)
                    for (int step = 0; step < 400; step++) {
                        double cy = mid + (step % 2 ? 1 : -1) * ((step + 1) / 2) * CELL;
                        if (cy - th / 2 < lo || cy + th / 2 > hi) {
                            if (step > 1)
                                break;
                            continue;
                        }
                        bool ok = true;
                        for (size_t k = 0; k < nt && ok; k++) {
                            double top = cy - th / 2 + DL_SMALL * (double)k;
                            drect rr = {side == 0 ? ax + GAP_TEXT + 2 : ax - GAP_TEXT - 2 - t[k].w,
                                        top, t[k].w, DL_SMALL};
                            out->r[k] = rr;
                            out->x[k] = side == 0 ? rr.x : ax - GAP_TEXT - 2;
                            out->y[k] = top + base;
                            out->a[k] = side == 0 ? DT_START : DT_END;
                            ok = S_free(o, rr);
                        }
                        if (ok) {
                            out->mark_x = ax;
                            out->mark_y = cy;
                            return true;
                        }
                    }
            }
        }
    }
    return false;
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

/* The fault lines of link i in words: "20% of acks lost", "ack of job 3 lost",
 * "transactional". Returns how many (at most 4). */
static size_t S_link_faults(const bp_board *b, size_t i, char out[][160])
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

static bool S_lossy(const sim_link *l)
{
    return l->lose_request > 0 || l->lose_reply > 0 || l->n_lose_reply_of > 0;
}

typedef struct {
    int cols, rows;
    int col[MAX_PARTS], row[MAX_PARTS];
} grid;

/* One attempt at the whole layout with `extra` px added to every gutter.
 * Returns 0, 1 (no room: try wider), or -1. */
static int S_attempt(dcanvas *m, const bp_board *b, const part_content *pc, const grid *g,
                     double extra, dboard_layout *out, size_t *failed_link)
{
    size_t n = b->sim.n_parts, nl = b->sim.n_links;
    double col_w[MAX_GRID + MAX_PARTS + 2] = {0}, gap[MAX_GRID + MAX_PARTS + 2] = {0};
    double band[MAX_GRID + MAX_PARTS + 2] = {0}, notes_h[MAX_GRID + MAX_PARTS + 2] = {0};
    double col_x[MAX_GRID + MAX_PARTS + 2], row_y[MAX_GRID + MAX_PARTS + 2];
    for (size_t i = 0; i < n; i++) {
        col_w[g->col[i]] = fmax(col_w[g->col[i]], fmax(pc[i].w, S_ceil_to(pc[i].notes_w, 8)));
        band[g->row[i]] = fmax(band[g->row[i]], pc[i].h);
        notes_h[g->row[i]] = fmax(notes_h[g->row[i]], S_ceil_to(pc[i].notes_h, CELL));
    }
    for (int c = 0; c + 1 < g->cols; c++)
        gap[c] = COL_GAP + extra;
    char faults[4][160];
    for (size_t i = 0; i < nl; i++) {
        const sim_link *l = &b->sim.links[i];
        int c0 = g->col[l->from], c1 = g->col[l->to];
        if (abs(c0 - c1) != 1)
            continue;
        double need = dc_text_width(m, S_link_label(b, i), DF_SMALL, true);
        size_t nf = S_link_faults(b, i, faults);
        for (size_t k = 0; k < nf; k++)
            need = fmax(need, dc_text_width(m, faults[k], DF_SMALL, false));
        need += 2 * 6 + 10 + 2 * CELL * (ZONE + 1) + 8;
        int c = c0 < c1 ? c0 : c1;
        gap[c] = fmax(gap[c], S_ceil_to(need + extra, CELL));
    }
    double outer = OUTER + extra / 2;
    outer = S_ceil_to(outer, CELL);
    double x = outer;
    for (int c = 0; c < g->cols; c++) {
        col_x[c] = x;
        x += S_ceil_to(col_w[c], 8) + S_ceil_to(gap[c], CELL);
    }
    double y = outer;
    for (int r = 0; r < g->rows; r++) {
        row_y[r] = y;
        y += band[r] + notes_h[r] + (r + 1 < g->rows ? S_ceil_to(ROW_GAP + extra, CELL) : 0);
    }
    out->width = (int)S_ceil_to(x - S_ceil_to(gap[g->cols - 1], CELL) + outer, CELL);
    out->height = (int)S_ceil_to(y + outer, CELL);

    out->parts = xcalloc(n, sizeof *out->parts);
    out->n_parts = n;
    out->links = xcalloc(nl ? nl : 1, sizeof *out->links);
    out->n_links = nl;
    obstacles ob = {0};
    ob.w = out->width;
    ob.h = out->height;
    router rt;
    S_router_init(&rt, out->width, out->height);
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
        drect box = {col_x[g->col[i]] + S_ceil_to((S_ceil_to(col_w[g->col[i]], 8) - bw) / 2, CELL),
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
        drect zone = drect_grow(box, ZONE * CELL);
        S_mark_rect(&rt, zone, 0, (int16_t)(i + 1));
        S_obst_add(&ob, box);
        double ny = box.y + box.h + 6;
        for (size_t k = 0; k < c->n_notes; k++) {
            dlabel *dl = S_label(out);
            dl->kind = DL_NOTE;
            dl->part = (int)i;
            dl->text = xstrdup(c->notes[k].text);
            dl->size = DF_SMALL;
            dl->bold = true;
            dl->color = c->notes[k].color;
            dl->anchor = DT_MIDDLE;
            dl->x = box.x + box.w / 2;
            dl->y = ny + (DL_SMALL - (asc + desc)) / 2 + asc;
            drect rr = {dl->x - c->notes[k].w / 2, ny, c->notes[k].w, DL_SMALL};
            dl->r = rr;
            S_mark_rect(&rt, rr, CELL, -1);
            S_obst_add(&ob, rr);
            pg->footprint.h = ny + DL_SMALL - box.y;
            pg->footprint.x = fmin(pg->footprint.x, rr.x);
            pg->footprint.w = fmax(box.x + box.w, rr.x + rr.w) - pg->footprint.x;
            ny += DL_SMALL;
        }
    }

    /* links: straight neighbours first, then the rest, each in board order */
    int used[MAX_PARTS][4] = {{0}};
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (size_t i = 0; i < nl && rc == 0; i++) {
            const sim_link *l = &b->sim.links[i];
            bool straight =
                g->row[l->from] == g->row[l->to] && abs(g->col[l->from] - g->col[l->to]) == 1;
            if (straight != (pass == 0))
                continue;
            port src[4], dst[4];
            for (int s = 0; s < 4; s++) {
                src[s] = S_port(&rt, out->parts[l->from].box, s, used[l->from][s], l->from);
                dst[s] = S_port(&rt, out->parts[l->to].box, s, used[l->to][s], l->to);
            }
            int ss, ds;
            dlink_geom *lg = &out->links[i];
            if (!S_route(&rt, src, dst, &ss, &ds, &lg->xy, &lg->n_pts)) {
                *failed_link = i;
                rc = 1;
                break;
            }
            used[l->from][ss]++;
            used[l->to][ds]++;
            S_mark_line(&rt, lg->xy, lg->n_pts);
            S_obst_line(&ob, lg->xy, lg->n_pts);
            ltext t[5];
            t[0].text = S_link_label(b, i);
            t[0].bold = true;
            t[0].color = DC_PROTO;
            t[0].kind = DL_LINK_TEXT;
            size_t nf = S_link_faults(b, i, faults);
            for (size_t k = 0; k < nf; k++) {
                t[k + 1].text = faults[k];
                t[k + 1].bold = false;
                t[k + 1].color = strcmp(faults[k], "transactional") == 0 ? DC_MUTED : DC_FAIL;
                t[k + 1].kind = DL_FAULT;
            }
            for (size_t k = 0; k <= nf; k++)
                t[k].w = dc_text_width(m, t[k].text, DF_SMALL, t[k].bold);
            lplace pl;
            if (!S_place_texts(&ob, lg->xy, lg->n_pts, t, nf + 1, asc, &pl)) {
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
                dl->anchor = pl.a[k];
                dl->x = pl.x[k];
                dl->y = pl.y[k];
                dl->r = pl.r[k];
                S_obst_add(&ob, pl.r[k]);
                S_mark_rect(&rt, pl.r[k], CELL, -1);
            }
        }
    S_router_free(&rt);
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
    part_content *pc = S_contents(m, b, notes, n_notes);
    int rc = 1;
    size_t failed = 0;
    for (int a = 0; a < ATTEMPTS && rc == 1; a++) {
        dboard_layout_free(out);
        rc = S_attempt(m, b, pc, &g, 32.0 * a, out, &failed);
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
        dc_text(c, t->x, t->y, t->anchor, t->size, t->bold, t->color, t->text, false);
    }
}

/* ------------------------------------------------------------------ alt text */

static void S_alt(const bp_board *b, const draw_note *notes, size_t n_notes, buf *alt)
{
    char facts[8][128];
    uint32_t colors[8];
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
        S_part_facts(b, i, facts, colors, &nf);
        bool open = false;
        for (size_t k = 0; k < nf; k++) {
            buf_puts(alt, open ? ", " : " (");
            open = true;
            buf_puts(alt, facts[k]);
        }
        if (S_handler(p->kind)) {
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
                       dpart_label(b, (size_t)l->to), S_link_label(b, i));
            size_t k = S_link_faults(b, i, faults);
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
    int rc = dboard_layout_make(m, b, notes, n_notes, &l, err, errn);
    dcanvas_free(m);
    if (rc)
        return -1;
    buf desc;
    buf_init(&desc);
    S_alt(b, notes, n_notes, &desc);
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
    draw_opts o = {DTEXT_ELEMENTS, NULL};
    return draw_board_opts(b, notes, n_notes, svg, alt, &o, err, errn);
}

/* draw_route.c — links on the board diagram: orthogonal routes on a grid of
 * DR_CELL px cells found by Dijkstra (bends and crossings cost extra, lines
 * keep a cell apart, boxes keep a zone free), and a search along each route
 * for a place where the link's texts touch no box, line or other text. */
#include "draw/draw_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STUB 3  /* cells a link leaves a box straight */
#define BEND 24 /* router costs, in cells */
#define CROSS 6
#define SIDE_NS 6    /* leaving or entering through the top or bottom */
#define OFF_CENTRE 6 /* per slot away from the middle of a side */
#define NEAR 3       /* cells outside a box zone where lines cost more... */
#define NEAR_COST 2  /* ...per step, so they run down the middle of a gutter */

enum { E_, S_, W_, N_ };
static const int DX[4] = {1, 0, -1, 0};
static const int DY[4] = {0, 1, 0, -1};
enum { OCC_H = 1, OCC_V = 2 };

/* ------------------------------------------------------------------ drouter */

void droute_init(drouter *r, int w, int h)
{
    r->gw = w / DR_CELL + 1;
    r->gh = h / DR_CELL + 1;
    size_t cells = (size_t)r->gw * (size_t)r->gh;
    r->owner = xcalloc(cells, sizeof *r->owner);
    r->occ = xcalloc(cells, sizeof *r->occ);
    r->near = xcalloc(cells, sizeof *r->near);
    r->dist = xmalloc(cells * 4 * sizeof *r->dist);
    r->prev = xmalloc(cells * 4 * sizeof *r->prev);
    for (size_t i = 0; i < cells * 4; i++)
        r->dist[i] = INT32_MAX;
    memset(r->prev, 0xff, cells * 4 * sizeof *r->prev); /* every one -1 */
    r->touched = xmalloc(cells * 4 * sizeof *r->touched);
    r->n_touched = 0;
    r->heap = NULL;
    r->n_heap = r->cap_heap = 0;
}

void droute_free(drouter *r)
{
    free(r->owner);
    free(r->occ);
    free(r->near);
    free(r->dist);
    free(r->prev);
    free(r->touched);
    free(r->heap);
}

static bool S_in(const drouter *r, int x, int y)
{
    return x >= 0 && y >= 0 && x < r->gw && y < r->gh;
}

/* Mark the cells covering px rectangle rr (grown by `by` px) with owner o,
 * leaving box zones as they are. */
void droute_block(drouter *r, drect rr, double by, int16_t o)
{
    int x0 = (int)floor((rr.x - by) / DR_CELL), x1 = (int)ceil((rr.x + rr.w + by) / DR_CELL);
    int y0 = (int)floor((rr.y - by) / DR_CELL), y1 = (int)ceil((rr.y + rr.h + by) / DR_CELL);
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (S_in(r, x, y) && r->owner[y * r->gw + x] <= 0)
                r->owner[y * r->gw + x] = o;
    if (o <= 0)
        return;
    for (int y = y0 - NEAR; y <= y1 + NEAR; y++)
        for (int x = x0 - NEAR; x <= x1 + NEAR; x++)
            if (S_in(r, x, y))
                r->near[y * r->gw + x] = 1;
}

/* Set state s's distance and where it came from, noting it for the reset. */
static void S_set(drouter *r, int32_t s, int32_t d, int32_t from)
{
    if (r->dist[s] == INT32_MAX)
        r->touched[r->n_touched++] = s;
    r->dist[s] = d;
    r->prev[s] = from;
}

/* Heap of states ordered by (dist, state) so ties break the same way always
 * (keys are unique, so any heap pops them in the same order; four children
 * a node halve the levels a pop sifts through). Each entry carries the
 * distance it was pushed with: a state pushed again at a lower distance
 * leaves its old entry behind, which S_pop skips. */
static void S_push(drouter *r, int32_t s)
{
    if (r->n_heap == r->cap_heap)
        r->heap = xgrow(r->heap, sizeof *r->heap, &r->cap_heap, r->n_heap + 1);
    uint64_t key = (uint64_t)(uint32_t)r->dist[s] << 32 | (uint32_t)s;
    uint64_t *h = r->heap;
    size_t i = r->n_heap++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (h[p] <= key)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = key;
}

/* The state with the least (dist, state), or -1 when none is left. */
static int32_t S_pop(drouter *r)
{
    uint64_t *h = r->heap;
    while (r->n_heap) {
        uint64_t top = h[0], last = h[--r->n_heap];
        size_t n = r->n_heap, i = 0;
        for (;;) {
            size_t c = 4 * i + 1;
            if (c >= n)
                break;
            size_t m = c;
            size_t end = c + 4 < n ? c + 4 : n;
            for (size_t k = c + 1; k < end; k++)
                if (h[k] < h[m])
                    m = k;
            if (h[m] >= last)
                break;
            h[i] = h[m];
            i = m;
        }
        if (n)
            h[i] = last;
        int32_t s = (int32_t)(uint32_t)top;
        if ((int32_t)(top >> 32) == r->dist[s]) /* else a stale entry */
            return s;
    }
    return -1;
}

/* The next free slot on each side of a box: centre first, then 3 cells either
 * way, alternating. */
dport droute_port(const drouter *r, drect box, int side, int used, int part)
{
    dport p = {0};
    p.side = side;
    int k = used;
    int off = ((k + 1) / 2) * 3 * (k % 2 ? 1 : -1);
    int cx = (int)((box.x + box.w / 2) / DR_CELL), cy = (int)((box.y + box.h / 2) / DR_CELL);
    int half = (int)((side == E_ || side == W_ ? box.h : box.w) / 2 / DR_CELL) - 2;
    if (abs(off) > half)
        return p;
    if (side == E_ || side == W_) {
        p.px = side == E_ ? (int)((box.x + box.w) / DR_CELL) : (int)(box.x / DR_CELL);
        p.py = cy + off;
    } else {
        p.px = cx + off;
        p.py = side == S_ ? (int)((box.y + box.h) / DR_CELL) : (int)(box.y / DR_CELL);
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
    p.cost = (side == N_ || side == S_ ? SIDE_NS : 0) + OFF_CENTRE * used;
    return p;
}

/* Route from one of src's ports to one of dst's; writes the polyline (px)
 * into *xy. Returns false when no route exists. */
bool droute_find(drouter *r, const dport *src, const dport *dst, int *src_side, int *dst_side,
                 double **xy, size_t *n_pts)
{
    /* the states the last route set, back to unset (not the whole grid:
     * a route sets a fraction of it) */
    for (size_t i = 0; i < r->n_touched; i++) {
        r->dist[r->touched[i]] = INT32_MAX;
        r->prev[r->touched[i]] = -1;
    }
    r->n_touched = 0;
    r->n_heap = 0;
    for (int s = 0; s < 4; s++) {
        if (!src[s].ok)
            continue;
        int32_t st = (int32_t)(((size_t)src[s].sy * (size_t)r->gw + (size_t)src[s].sx) * 4) + s;
        if (src[s].cost < r->dist[st]) {
            S_set(r, st, src[s].cost, -1);
            S_push(r, st);
        }
    }
    int best = INT32_MAX;
    int32_t best_state = -1;
    int best_goal = -1;
    for (int32_t st; (st = S_pop(r)) >= 0;) {
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
            int c = cost + 1 + (r->near[ncell] ? NEAR_COST : 0);
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
                S_set(r, ns, c, st);
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
    /* points: source dport, the cells in order, target dport; then keep bends */
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
        out[2 * k] = px[i] * DR_CELL;
        out[2 * k + 1] = py[i] * DR_CELL;
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
void droute_mark_line(drouter *r, const double *xy, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        int x0 = (int)(xy[2 * i] / DR_CELL), y0 = (int)(xy[2 * i + 1] / DR_CELL);
        int x1 = (int)(xy[2 * i + 2] / DR_CELL), y1 = (int)(xy[2 * i + 3] / DR_CELL);
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

void dobst_add(dobstacles *o, drect r)
{
    o->rects = xgrow(o->rects, sizeof *o->rects, &o->cap, o->n + 1);
    o->rects[o->n++] = r;
}

void dobst_line(dobstacles *o, const double *xy, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        double x0 = fmin(xy[2 * i], xy[2 * i + 2]), x1 = fmax(xy[2 * i], xy[2 * i + 2]);
        double y0 = fmin(xy[2 * i + 1], xy[2 * i + 3]), y1 = fmax(xy[2 * i + 1], xy[2 * i + 3]);
        o->segs = xgrow(o->segs, sizeof *o->segs, &o->cap_segs, o->n_segs + 1);
        drect s = {x0, y0, x1 - x0 + 1, y1 - y0 + 1}; /* the 1 px line */
        o->segs[o->n_segs++] = s;
    }
}

static bool S_free(const dobstacles *o, drect r)
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

/* Try the link's texts (t[0] the protocol, the rest faults) at every 4 px
 * along each segment: above/below a horizontal one, beside a vertical one. */
bool dplace_texts(const dobstacles *o, const double *xy, size_t n, const dltext *t, size_t nt,
                  double asc_small, dlplace *out)
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
                        double cx = mid + (step % 2 ? 1 : -1) * ((step + 1) / 2) * DR_CELL;
                        if (cx - bw / 2 < lo || cx + bw / 2 > hi) {
                            if (step > 1)
                                break;
                            continue;
                        }
                        bool ok = true;
                        for (size_t k = 0; k < nt && ok; k++) {
                            double top;
                            if (arr == 0)
                                top = k == 0 ? ay - DR_GAP_TEXT - DL_SMALL
                                             : ay + DR_GAP_TEXT + DL_SMALL * (double)(k - 1);
                            else if (arr == 1)
                                top = ay - DR_GAP_TEXT - DL_SMALL * (double)(nt - k);
                            else
                                top = ay + DR_GAP_TEXT + DL_SMALL * (double)k;
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
                        double cy = mid + (step % 2 ? 1 : -1) * ((step + 1) / 2) * DR_CELL;
                        if (cy - th / 2 < lo || cy + th / 2 > hi) {
                            if (step > 1)
                                break;
                            continue;
                        }
                        bool ok = true;
                        for (size_t k = 0; k < nt && ok; k++) {
                            double top = cy - th / 2 + DL_SMALL * (double)k;
                            drect rr = {side == 0 ? ax + DR_GAP_TEXT + 2
                                                  : ax - DR_GAP_TEXT - 2 - t[k].w,
                                        top, t[k].w, DL_SMALL};
                            out->r[k] = rr;
                            out->x[k] = side == 0 ? rr.x : ax - DR_GAP_TEXT - 2;
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

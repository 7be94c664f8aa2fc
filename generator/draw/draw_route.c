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
    r->ring = NULL;
    r->n_ring = 0;
}

void droute_free(drouter *r)
{
    free(r->owner);
    free(r->occ);
    free(r->near);
    free(r->dist);
    free(r->prev);
    free(r->touched);
    for (size_t i = 0; i < r->n_ring; i++)
        free(r->ring[i].v);
    free(r->ring);
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

/* States come out in (dist, state) order, so ties break the same way
 * always: the least distance first, and within one distance the least
 * state. Pushing appends to the bucket of its distance; a bucket is sorted
 * when it is first taken (no push goes into it after that: every step costs
 * at least one). Each entry is a state pushed at its bucket's distance: a
 * state pushed again at a lower distance leaves its old entry behind,
 * which S_pop skips. */
static void S_queue_reset(drouter *r, int32_t most)
{
    size_t need = 64;
    while (need <= (size_t)most + 64)
        need *= 2;
    if (need > r->n_ring) {
        r->ring = xrealloc(r->ring, need * sizeof *r->ring);
        memset(r->ring + r->n_ring, 0, (need - r->n_ring) * sizeof *r->ring);
        r->n_ring = need;
    }
    for (size_t i = 0; i < r->n_ring; i++)
        r->ring[i].n = 0;
    r->at_dist = 0;
    r->at = 0;
    r->queued = 0;
}

static void S_push(drouter *r, int32_t s)
{
    drbucket *b = &r->ring[(size_t)r->dist[s] & (r->n_ring - 1)];
    if (b->n == b->cap)
        b->v = xgrow(b->v, sizeof *b->v, &b->cap, b->n + 1);
    b->v[b->n++] = s;
    r->queued++;
}

/* Sort a bucket's states, ascending (they are distinct: a state is pushed
 * at a distance only when that is less than it had). A bucket holds a
 * wavefront, tens to hundreds of states: quicksort down to runs of 16,
 * then insertion, inline (qsort's calls cost more than the search). */
static void S_sort(int32_t *v, size_t n)
{
    while (n > 16) {
        int32_t a = v[0], b = v[n / 2], c = v[n - 1];
        int32_t p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        size_t i = 0, j = n - 1;
        for (;;) {
            while (v[i] < p)
                i++;
            while (v[j] > p)
                j--;
            if (i >= j)
                break;
            int32_t t = v[i];
            v[i++] = v[j];
            v[j--] = t;
        }
        /* [0, j] and (j, n): sort the smaller part, go on with the larger */
        size_t left = j + 1;
        if (left < n - left) {
            S_sort(v, left);
            v += left;
            n -= left;
        } else {
            S_sort(v + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        int32_t x = v[i];
        size_t k = i;
        for (; k > 0 && v[k - 1] > x; k--)
            v[k] = v[k - 1];
        v[k] = x;
    }
}

/* The state with the least (dist, state), or -1 when none is left. */
static int32_t S_pop(drouter *r)
{
    while (r->queued) {
        drbucket *b = &r->ring[(size_t)r->at_dist & (r->n_ring - 1)];
        if (r->at == 0 && b->n > 1)
            S_sort(b->v, b->n);
        while (r->at < b->n) {
            int32_t s = b->v[r->at++];
            r->queued--;
            if (r->dist[s] == r->at_dist) /* else a stale entry */
                return s;
        }
        b->n = 0;
        r->at = 0;
        r->at_dist++;
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
    /* the ring spans the largest distance a push can be ahead of the
     * least: a source's own cost, or a step (1, near a box, a bend, a
     * crossing) */
    int32_t most = 1 + NEAR_COST + BEND + CROSS;
    for (int s = 0; s < 4; s++)
        if (src[s].ok && src[s].cost > most)
            most = src[s].cost;
    S_queue_reset(r, most);
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

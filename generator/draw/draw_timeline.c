/* draw_timeline.c — the sequence diagram of a small trace: one lane per part,
 * one row per event in trace order (time is not to scale: long idle gaps
 * only add a little space and their time is printed at the left). */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROW_H 24       /* px per event */
#define IDLE_GAP 12    /* extra px before an event after a long wait */
#define IDLE_US 500000 /* a wait this long is "long" */
#define MARGIN DTL_MARGIN

static dtl_item *S_item(dtimeline_layout *l, dtl_kind kind, int from, int to, dcolor color,
                        const sim_trace_entry *e, char *text)
{
    l->items = xgrow(l->items, sizeof *l->items, &l->cap_items, l->n_items + 1);
    dtl_item *it = &l->items[l->n_items++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->from_lane = from;
    it->to_lane = to;
    it->color = color;
    it->text = text;
    it->t_us = e->t_us;
    it->job = e->job;
    return it;
}

dcolor dtl_arrow_ink(const dtl_item *it)
{
    return it->kind == DTL_LOST || it->kind == DTL_DEAD_LETTER ? DC_FAIL : DC_INK;
}

/* Duplicates and skips are the point of the picture: their words are bold. */
bool dtl_bold(dtl_kind k)
{
    return k == DTL_DUPLICATE || k == DTL_SKIP || k == DTL_PROV_SKIP;
}

void dtimeline_layout_free(dtimeline_layout *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_items; i++)
        free(l->items[i].text);
    free(l->items);
    for (size_t i = 0; i < l->n_folds; i++)
        free(l->folds[i].words);
    free(l->folds);
    free(l->row_of);
    free(l->lane_part);
    free(l->lane_x);
    memset(l, 0, sizeof *l);
}

static int S_check(const bp_board *b, const sim_trace_entry *tr, size_t n, char *err, size_t errn)
{
    if (dcheck_board(b, err, errn))
        return -1;
    if (n == 0 || !tr)
        return dfail(err, errn, "the trace to draw is empty");
    if (n > DRAW_TIMELINE_MAX)
        return dfail(err, errn,
                     "the trace has %zu events; a timeline shows at most %d (use a smaller board)",
                     n, DRAW_TIMELINE_MAX);
    int np = (int)b->sim.n_parts;
    for (size_t i = 0; i < n; i++) {
        const sim_trace_entry *e = &tr[i];
        if ((unsigned)e->kind >= SIM_TR_COUNT)
            return dfail(err, errn, "trace event %zu has an unknown kind", i + 1);
        if (e->part < 0 || e->part >= np || e->peer < -1 || e->peer >= np)
            return dfail(err, errn, "trace event %zu names a part the board does not have", i + 1);
        if (e->t_us < 0 || e->job < 0 || e->job > 1000000000)
            return dfail(err, errn, "trace event %zu has a negative time or a bad job number",
                         i + 1);
        if (i > 0 && e->t_us < tr[i - 1].t_us)
            return dfail(err, errn, "trace event %zu is earlier than the event before it", i + 1);
    }
    return 0;
}

/* The other end of a message from part: the peer when the trace names it,
 * else the part at the other end of its first link in that direction. */
static int S_peer(const bp_board *b, const sim_trace_entry *e, bool outgoing)
{
    if (e->peer >= 0)
        return e->peer;
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        if (outgoing && l->from == e->part)
            return l->to;
        if (!outgoing && l->to == e->part)
            return l->from;
    }
    return -1;
}

static sim_protocol S_protocol(const bp_board *b, int p, int q)
{
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        if ((l->from == p && l->to == q) || (l->from == q && l->to == p))
            return l->protocol;
    }
    return SIM_PROTO_HTTP2;
}

/* The first later entry of the same job that is one of the kinds in `find`
 * before any of the kinds in `stop`; -1 if none. */
static long S_ahead(const sim_trace_entry *tr, size_t n, size_t i, const bool *consumed,
                    unsigned find, unsigned stop)
{
    for (size_t j = i + 1; j < n; j++) {
        if (tr[j].job != tr[i].job || consumed[j])
            continue;
        if (find & (1u << tr[j].kind))
            return (long)j;
        if (stop & (1u << tr[j].kind))
            return -1;
    }
    return -1;
}

/* A step of the effect's own commit (the ID recorded, the event stored)
 * joins the effect's row: one step, one row. True when it did. */
static bool S_join_effect(dtimeline_layout *out, const sim_trace_entry *e, const char *what)
{
    dtl_item *last = out->n_items ? &out->items[out->n_items - 1] : NULL;
    if (!last || last->kind != DTL_EFFECT || last->job != e->job || last->t_us != e->t_us)
        return false;
    char *t = xasprintf("%s, %s", last->text, what);
    free(last->text);
    last->text = t;
    return true;
}

/* The handler an entry is about: the part itself, or the handler that
 * wrote to it (a database names its handler as the peer). */
static int S_handler(const bp_board *b, const sim_trace_entry *e)
{
    if (dpart_handles(b->sim.parts[e->part].kind) || e->peer < 0)
        return e->part;
    return e->peer;
}

/* Handlers of the second hop: fed by a broker that a handler publishes to. */
static bool *S_second_hop(const bp_board *b)
{
    size_t np = b->sim.n_parts;
    bool *second = xcalloc(np, sizeof *second);
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *in = &b->sim.links[i];
        if (!dpart_handles(b->sim.parts[in->from].kind) ||
            b->sim.parts[in->to].kind != SIM_KIND_BROKER)
            continue;
        for (size_t k = 0; k < b->sim.n_links; k++)
            if (b->sim.links[k].from == in->to)
                second[b->sim.links[k].to] = true;
    }
    return second;
}

#define K(k) (1u << (k))

int dtimeline_layout_make(dcanvas *m, const bp_board *b, const sim_trace_entry *tr, size_t n,
                          draw_layout layout, dtimeline_layout *out, char *err, size_t errn)
{
    memset(out, 0, sizeof *out);
    if (S_check(b, tr, n, err, errn))
        return -1;
    size_t np = b->sim.n_parts;
    int *lane_of = xmalloc(np * sizeof *lane_of);
    bool *present = xcalloc(np, sizeof *present);
    int *effects = NULL;     /* standing effects per message and handler: "charged twice" */
    dtl_tries *tries = NULL; /* per message and handler: which tries it took, which charged */
    int *publishes = NULL;   /* a handler's (or its relay's) publishes per job */
    bool *second = S_second_hop(b);
    bool *publisher = xcalloc(np, sizeof *publisher); /* parts whose publishes are traced */
    int64_t max_job = 0;
    for (size_t i = 0; i < n; i++) {
        present[tr[i].part] = true;
        if (tr[i].peer >= 0)
            present[tr[i].peer] = true;
        if (tr[i].kind == SIM_TR_ARRIVE) {
            int q = S_peer(b, &tr[i], true);
            if (q >= 0 && b->sim.parts[q].kind == SIM_KIND_BROKER)
                present[q] = true;
        }
        if (tr[i].job > max_job)
            max_job = tr[i].job;
        if (tr[i].kind == SIM_TR_PUBLISH)
            publisher[tr[i].part] = true;
    }
    effects = xcalloc(((size_t)max_job + 1) * np, sizeof *effects);
    tries = xcalloc(((size_t)max_job + 1) * np, sizeof *tries);
    publishes = xcalloc((size_t)max_job + 1, sizeof *publishes);
    for (size_t p = 0; p < np; p++) {
        lane_of[p] = -1;
        if (present[p]) {
            out->lane_part = xrealloc(out->lane_part, (out->n_lanes + 1) * sizeof(int));
            lane_of[p] = (int)out->n_lanes;
            out->lane_part[out->n_lanes++] = (int)p;
        }
    }
    bool *consumed = xcalloc(n, sizeof *consumed);
    long *took = xmalloc(n * sizeof *took); /* an entry consumed by a later one's row */
    out->row_of = xmalloc(n * sizeof *out->row_of);
    out->n_entries = n;
    for (size_t i = 0; i < n; i++)
        took[i] = out->row_of[i] = -1;
#define TAKE(j) (consumed[j] = true, took[j] = (long)i)
    const char *verb = board_verb(b);
    const char *noun = board_noun(b, false);
    for (size_t i = 0; i < n; i++) {
        if (tr[i].kind == SIM_TR_RECEIVE && tr[i].detail > 0) {
            dtl_tries *d = &tries[(size_t)tr[i].job * np + (size_t)tr[i].part];
            if (tr[i].detail > d->received)
                d->received = tr[i].detail;
        }
        if (consumed[i])
            continue;
        size_t had = out->n_items;
        bool joined = false;
        const sim_trace_entry *e = &tr[i];
        int lane = lane_of[e->part];
        long long job = (long long)e->job;
        const sim_part *part = &b->sim.parts[e->part];
        bool bkey = part->idempotency == SIM_IDEM_BUSINESS_KEY;
        switch (e->kind) {
        case SIM_TR_ARRIVE: {
            int q = S_peer(b, e, true);
            if (publisher[e->part])
                break; /* its publishes are drawn, with their tries */
            if (q >= 0 && b->sim.parts[q].kind == SIM_KIND_BROKER)
                S_item(out, DTL_ARROW, lane, lane_of[q], DC_LINE, e,
                       xasprintf("%s %lld", noun, job));
            break;
        }
        case SIM_TR_SEND:
        case SIM_TR_LOST_REQUEST: {
            int q = S_peer(b, e, true);
            if (q < 0)
                break;
            bool lost = e->kind == SIM_TR_LOST_REQUEST;
            if (!lost) {
                long j = S_ahead(tr, n, i, consumed, K(SIM_TR_LOST_REQUEST) | K(SIM_TR_DROPPED),
                                 K(SIM_TR_SEND) | K(SIM_TR_RECEIVE));
                if (j >= 0) {
                    TAKE(j);
                    lost = true;
                }
            }
            char try_s[32] = "";
            if (e->kind == SIM_TR_SEND && e->detail > 1)
                snprintf(try_s, sizeof try_s, ", try %lld", (long long)e->detail);
            /* the second hop carries the first handler's event about the job */
            S_item(out, lost ? DTL_LOST : DTL_ARROW, lane, lane_of[q], lost ? DC_FAIL : DC_LINE, e,
                   xasprintf("%s%s %lld%s%s", second[q] ? "event of " : "", noun, job, try_s,
                             lost ? " lost" : ""));
            break;
        }
        case SIM_TR_CALL:
        case SIM_TR_CALL_LOST: {
            int q = S_peer(b, e, true);
            if (q < 0)
                break;
            bool lost = e->kind == SIM_TR_CALL_LOST;
            if (!lost) {
                long j = S_ahead(tr, n, i, consumed, K(SIM_TR_CALL_LOST),
                                 K(SIM_TR_CALL) | K(SIM_TR_EFFECT) | K(SIM_TR_PROVIDER_SKIP) |
                                     K(SIM_TR_CALL_FAILED));
                if (j >= 0) {
                    TAKE(j);
                    lost = true;
                }
            }
            S_item(out, lost ? DTL_LOST : DTL_ARROW, lane, lane_of[q], lost ? DC_FAIL : DC_LINE, e,
                   xasprintf("call for %s %lld%s", noun, job, lost ? " lost" : ""));
            break;
        }
        case SIM_TR_REPLY:
        case SIM_TR_LOST_REPLY: {
            int q = S_peer(b, e, false);
            if (q < 0)
                break;
            bool lost = e->kind == SIM_TR_LOST_REPLY;
            if (!lost) {
                long j = S_ahead(tr, n, i, consumed, K(SIM_TR_LOST_REPLY),
                                 K(SIM_TR_SEND) | K(SIM_TR_ACKED) | K(SIM_TR_REPLY));
                if (j >= 0) {
                    TAKE(j);
                    lost = true;
                }
            }
            /* a broker's answer to whoever published to it is a confirm */
            bool confirm = part->kind == SIM_KIND_BROKER;
            S_item(out, lost ? DTL_LOST : DTL_ARROW, lane, lane_of[q], lost ? DC_FAIL : DC_LINE, e,
                   xasprintf("%s %lld%s",
                             confirm ? "confirm" : dreply_word(S_protocol(b, e->part, q), false),
                             job, lost ? " lost" : ""));
            break;
        }
        case SIM_TR_PUBLISH: {
            int q = S_peer(b, e, true);
            if (q < 0)
                break;
            long j = S_ahead(tr, n, i, consumed, K(SIM_TR_LOST_REQUEST),
                             K(SIM_TR_PUBLISH) | K(SIM_TR_ACCEPT) | K(SIM_TR_DEDUP));
            bool lost = j >= 0;
            if (lost)
                TAKE(j);
            char *t;
            if (part->kind == SIM_KIND_USERS) {
                char try_s[32] = "";
                if (e->detail > 1)
                    snprintf(try_s, sizeof try_s, ", try %lld", (long long)e->detail);
                t = xasprintf("%s %lld%s%s", noun, job, try_s, lost ? " lost" : "");
            } else {
                int k = ++publishes[e->job];
                t = xasprintf("event of %s %lld%s%s", noun, job, k > 1 ? " again" : "",
                              lost ? " lost" : "");
            }
            S_item(out, lost ? DTL_LOST : DTL_ARROW, lane, lane_of[q], lost ? DC_FAIL : DC_LINE, e,
                   t);
            break;
        }
        case SIM_TR_ACCEPT:
            /* a publish the broker takes as a new message: only a second copy
             * of the same job is news */
            if (e->copy > 0)
                S_item(out, DTL_OTHER_MARK, lane, lane, DC_FAIL, e,
                       e->copy == 1 ? xasprintf("%s %lld queued twice", noun, job)
                                    : xasprintf("%s %lld queued %d times", noun, job, e->copy + 1));
            break;
        case SIM_TR_DEDUP:
            S_item(out, DTL_SKIP, lane, lane, DC_SKIP, e,
                   xasprintf("%s %lld: ID seen, publish dropped", noun, job));
            break;
        case SIM_TR_CONFIRM: {
            int q = S_peer(b, e, true);
            if (q >= 0)
                S_item(out, DTL_ARROW, lane_of[q], lane, DC_LINE, e,
                       xasprintf("confirm %lld", job));
            break;
        }
        case SIM_TR_CLAIM:
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_MUTED, e,
                   xasprintf("%s of %s %lld claimed", bkey ? "key" : "ID", noun, job));
            break;
        case SIM_TR_FAILED:
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_FAIL, e,
                   xasprintf("%s %lld failed%s", noun, job, e->detail ? ": poison message" : ""));
            break;
        case SIM_TR_HELD:
            S_item(out, DTL_SKIP, lane, lane, DC_SKIP, e,
                   xasprintf("%s %lld: claimed by another copy, held", noun, job));
            break;
        case SIM_TR_OUTBOX: {
            /* stored with the commit of the effect it goes with */
            if ((joined = S_join_effect(out, e, "event in outbox")))
                break;
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_MUTED, e,
                   xasprintf("event of %s %lld in outbox", noun, job));
            break;
        }
        case SIM_TR_SKIP:
            S_item(out, DTL_SKIP, lane, lane, DC_SKIP, e,
                   xasprintf("%s %lld: %s seen, skipped", noun, job, bkey ? "key" : "ID"));
            break;
        case SIM_TR_PROVIDER_SKIP:
            S_item(out, DTL_PROV_SKIP, lane, lane, DC_SKIP, e,
                   xasprintf("%s %lld: key seen, not %s again", noun, job, verb));
            break;
        case SIM_TR_EFFECT: {
            int h = S_handler(b, e);
            size_t at = (size_t)e->job * np + (size_t)h;
            int k = ++effects[at];
            bool dup = sim_effect_duplicate(e);
            /* the second hop's handler acts on the event: it is not the charge */
            const char *v = second[h] ? "handled" : verb;
            S_item(out, dup ? DTL_DUPLICATE : DTL_EFFECT, lane, lane, dup ? DC_FAIL : DC_INK, e,
                   dtl_effect_text(&tries[at], e, k, noun, v));
            break;
        }
        case SIM_TR_ROLLBACK: {
            int *c = &effects[(size_t)e->job * np + (size_t)S_handler(b, e)];
            if (*c > 0)
                (*c)--;
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_MUTED, e,
                   xasprintf("%s %lld rolled back", noun, job));
            break;
        }
        case SIM_TR_CALL_FAILED:
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_FAIL, e,
                   xasprintf("call for %s %lld failed", noun, job));
            break;
        case SIM_TR_CRASH:
            S_item(out, DTL_CRASH, lane, lane, DC_FAIL, e,
                   xasprintf("crashed (%s %lld)", noun, job));
            break;
        case SIM_TR_RESTART:
            S_item(out, DTL_RESTART, lane, lane, DC_MUTED, e, xstrdup("restarted"));
            break;
        case SIM_TR_RECORD_KEY: {
            /* recorded in the effect's own transaction */
            if (part->idempotency == SIM_IDEM_KEY_IN_TRANSACTION &&
                (joined = S_join_effect(out, e, bkey ? "key recorded" : "ID recorded")))
                break;
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_MUTED, e,
                   xasprintf("%s of %s %lld recorded", bkey ? "key" : "ID", noun, job));
            break;
        }
        case SIM_TR_TIMEOUT: {
            int q = S_peer(b, e, true);
            sim_protocol pr = q >= 0 ? S_protocol(b, e->part, q) : SIM_PROTO_HTTP2;
            bool confirm = q >= 0 && publisher[e->part] && b->sim.parts[q].kind == SIM_KIND_BROKER;
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_MUTED, e,
                   xasprintf("no %s for %s %lld", confirm ? "confirm" : dreply_word(pr, false),
                             noun, job));
            break;
        }
        case SIM_TR_GIVE_UP:
            S_item(out, DTL_OTHER_MARK, lane, lane, DC_FAIL, e,
                   xasprintf("%s %lld given up", noun, job));
            break;
        case SIM_TR_DEAD_LETTER: /* at the queue, from its broker */
            if (e->peer >= 0)
                S_item(out, DTL_DEAD_LETTER, lane_of[e->peer], lane, DC_FAIL, e,
                       xasprintf("%s %lld set aside after %lld %s", noun, job, (long long)e->detail,
                                 e->detail == 1 ? "try" : "tries"));
            break;
        case SIM_TR_DROPPED:
            S_item(out, DTL_LOST, lane, lane, DC_FAIL, e, xasprintf("%s %lld dropped", noun, job));
            break;
        case SIM_TR_RECEIVE:
        case SIM_TR_ACKED:
        default:
            break; /* shown by the arrow that brought it */
        }
        if (out->n_items > had || joined)
            out->row_of[i] = (long)out->n_items - 1;
    }
#undef TAKE
    for (size_t j = 0; j < n; j++)
        if (took[j] >= 0)
            out->row_of[j] = out->row_of[took[j]];
    free(took);
    free(consumed);
    free(effects);
    free(tries);
    free(publishes);
    free(second);
    free(publisher);
    free(present);
    free(lane_of);
    out->layout = layout;
    dtimeline_folds(b, out);
    if (layout == DRAW_NARROW) {
        dtimeline_place_narrow(m, b, out);
        return 0;
    }

    dtimeline_place_wide(m, b, out, false);
    if (out->width > DRAW_WIDE_MAX) /* too wide for a desktop column: the tight spacing */
        dtimeline_place_wide(m, b, out, true);
    /* rows */
    double y = MARGIN + 0; /* header height is added by the painter's layout below */
    int64_t prev_t = out->n_items ? out->items[0].t_us : 0;
    for (size_t i = 0; i < out->n_items; i++) {
        if (out->items[i].t_us - prev_t >= IDLE_US)
            y += IDLE_GAP;
        prev_t = out->items[i].t_us;
        out->items[i].y = y;
        y += ROW_H;
    }
    out->height = (int)ceil(y);
    return 0;
}

/* ------------------------------------------------------------------ painting */

typedef struct {
    double head_h;     /* lane header boxes */
    double legend_top; /* legend row */
    double legend_h;
} tl_frame;

long dtl_restart_of(const dtimeline_layout *l, size_t crash)
{
    for (size_t j = crash + 1; j < l->n_items; j++)
        if (l->items[j].kind == DTL_RESTART && l->items[j].from_lane == l->items[crash].from_lane)
            return (long)j;
    return -1;
}

double dtl_legend(dcanvas *c, dcanvas *m, const dtimeline_layout *l, double x0, double ly,
                  double max_x, int *rows)
{
    static const struct {
        dtl_kind kind;
        const char *text;
    } legend[] = {
        {DTL_LOST, "lost message"}, {DTL_SKIP, "ID check hit: effect skipped"},
        {DTL_EFFECT, "effect"},     {DTL_DUPLICATE, "duplicate effect"},
        {DTL_CRASH, "crash"},
    };
    double lx = x0, right = x0;
    *rows = 1;
    for (size_t k = 0; k < sizeof legend / sizeof legend[0]; k++) {
        bool seen = false;
        for (size_t i = 0; i < l->n_items && !seen; i++)
            seen = l->items[i].kind == legend[k].kind ||
                   (legend[k].kind == DTL_SKIP && l->items[i].kind == DTL_PROV_SKIP);
        if (!seen)
            continue;
        double w = 16 + dc_text_width(m, legend[k].text, DF_SMALL, false);
        if (lx > x0 && lx + w > max_x) { /* on the next row */
            lx = x0;
            ly += DTL_LEGEND_ROW;
            (*rows)++;
        }
        if (c) {
            dtl_mark(c, legend[k].kind, lx + 5, ly, legend[k].kind == DTL_SKIP ? DC_SKIP : DC_FAIL);
            dc_text(c, lx + 16, ly + 4, DT_START, DF_SMALL, false, DC_MUTED, legend[k].text, false);
        }
        right = fmax(right, lx + w);
        lx += w + 20;
    }
    return right;
}

static void S_paint(dcanvas *c, dcanvas *m, const bp_board *b, const dtimeline_layout *l,
                    const tl_frame *f, int width, int height)
{
    double asc, desc;
    dc_font_extents(m, DF_SMALL, &asc, &desc);
    dc_rect(c, 0.5, 0.5, width - 1, height - 1, 8, DC_CARD, DC_CARD_EDGE, false);
    double top = MARGIN + f->head_h + 10; /* first row */
    double bottom = top + l->height - MARGIN + 4;
    /* duplicate rows get a band across the figure */
    for (size_t i = 0; i < l->n_items; i++)
        if (l->items[i].kind == DTL_DUPLICATE)
            dc_rect(c, 8, top + l->items[i].y - MARGIN, width - 16, ROW_H, 4, DC_FAIL_BG, DC_NONE,
                    false);
    /* down time between a crash and the restart */
    for (size_t i = 0; i < l->n_items; i++) {
        if (l->items[i].kind != DTL_CRASH)
            continue;
        long r = dtl_restart_of(l, i);
        double y0 = top + l->items[i].y - MARGIN + ROW_H / 2,
               y1 = r < 0 ? bottom : top + l->items[r].y - MARGIN + ROW_H / 2;
        dc_rect(c, l->lane_x[l->items[i].from_lane] - 3, y0, 7, y1 - y0, 0, DC_FAIL_BG, DC_NONE,
                false);
    }
    /* lane headers and lifelines */
    for (size_t i = 0; i < l->n_lanes; i++) {
        double x = l->lane_x[i];
        dc_line(c, x + 0.5, MARGIN + f->head_h, x + 0.5, bottom, DC_LIFELINE, 1, true);
        dtl_head(c, m, b, (int)i, l->lane_part[i], x, MARGIN, f->head_h, DF_LABEL, l->head_wrap, 24,
                 6);
    }
    /* a mark's words that cross another lane's lifeline (the tight
     * layout) lie on a clearing of the card's colour, under the row's band */
    for (size_t i = 0; i < l->n_items; i++) {
        const dtl_item *it = &l->items[i];
        if (it->from_lane != it->to_lane)
            continue;
        double x0 = l->lane_x[it->from_lane] + 0.5;
        double w = dc_text_width(m, it->text, DF_SMALL, dtl_bold(it->kind));
        double a = it->left ? x0 - 14 - w : x0 + 14, z = a + w;
        bool crosses = false;
        for (size_t k = 0; k < l->n_lanes && !crosses; k++)
            crosses = l->lane_x[k] + 0.5 >= a - 3 && l->lane_x[k] + 0.5 <= z + 3;
        if (crosses)
            dc_rect(c, a - 3, top + it->y - MARGIN + 16.5 - asc - 1, w + 6, asc + desc + 2, 2,
                    DC_CARD, DC_NONE, false);
    }
    /* rows */
    char tbuf[48] = "", last[48] = "";
    double *row_top = xmalloc((l->n_items + 1) * sizeof *row_top);
    for (size_t i = 0; i < l->n_items; i++) {
        const dtl_item *it = &l->items[i];
        double row = top + it->y - MARGIN;
        double line_y = row + 16.5;
        row_top[i] = row;
        dtl_row_band(c, l, i, 8, width - 16, row, row + ROW_H);
        fmt_label_duration(tbuf, sizeof tbuf, it->t_us);
        if (strcmp(tbuf, last) != 0 || dtl_time_edge(l, i)) {
            dc_text(c, MARGIN + 4, line_y + 3, DT_START, DF_BADGE, false, DC_MUTED, tbuf, false);
            snprintf(last, sizeof last, "%s", tbuf);
        }
        double x0 = l->lane_x[it->from_lane] + 0.5, x1 = l->lane_x[it->to_lane] + 0.5;
        bool bold = dtl_bold(it->kind);
        if (it->from_lane != it->to_lane) {
            double mid = (x0 + dtl_message(c, it, x0, x1, line_y)) / 2;
            dc_text(c, mid, line_y - 5, DT_MIDDLE, DF_SMALL, bold, dtl_arrow_ink(it), it->text,
                    false);
        } else {
            dtl_mark(c, it->kind, x0, line_y - 4, it->color);
            if (it->left)
                dc_text(c, x0 - 14, line_y, DT_END, DF_SMALL, bold, it->color, it->text, false);
            else
                dc_text(c, x0 + 14, line_y, DT_START, DF_SMALL, bold, it->color, it->text, false);
        }
    }
    dtl_fold_marks(c, l, row_top, bottom - 4 + MARGIN / 2);
    free(row_top);
    int rows;
    dtl_legend(c, m, l, MARGIN + 4, f->legend_top + 10, INFINITY, &rows);
}

static void S_alt(const bp_board *b, const dtimeline_layout *l, buf *alt)
{
    int64_t lo = INT64_MAX, hi = 0, dups = 0, effects = 0;
    for (size_t i = 0; i < l->n_items; i++) {
        if (l->items[i].job < lo)
            lo = l->items[i].job;
        if (l->items[i].job > hi)
            hi = l->items[i].job;
        effects += l->items[i].kind == DTL_EFFECT || l->items[i].kind == DTL_DUPLICATE;
        dups += l->items[i].kind == DTL_DUPLICATE;
    }
    buf_puts(alt, "Timeline");
    if (l->n_items)
        buf_printf(alt, lo == hi ? " of %s %lld" : " of %s %lld to %lld", board_noun(b, lo != hi),
                   (long long)lo, (long long)hi);
    buf_puts(alt, ", in event order (not to scale), between ");
    for (size_t i = 0; i < l->n_lanes; i++) {
        if (i)
            buf_puts(alt, i + 1 == l->n_lanes ? " and " : ", ");
        buf_puts(alt, dpart_label(b, (size_t)l->lane_part[i]));
    }
    buf_putc(alt, '.');
    bool any = false;
    for (size_t i = 0; i < l->n_items; i++) {
        const dtl_item *it = &l->items[i];
        bool notable = it->kind == DTL_LOST || it->kind == DTL_SKIP || it->kind == DTL_DUPLICATE ||
                       it->kind == DTL_DEAD_LETTER || it->kind == DTL_PROV_SKIP ||
                       it->kind == DTL_CRASH || it->kind == DTL_RESTART ||
                       (it->kind == DTL_OTHER_MARK && it->color == DC_FAIL) ||
                       strstr(it->text, ", try ") != NULL;
        if (!notable)
            continue;
        buf_puts(alt, any ? "; " : " Notable events: ");
        any = true;
        buf_puts(alt, it->text);
    }
    if (any)
        buf_putc(alt, '.');
    const char *nouns = board_noun(b, true);
    buf_printf(alt, " %c%s %s %lld %s in all, %lld of them duplicates.",
               nouns[0] >= 'a' && nouns[0] <= 'z' ? nouns[0] - 'a' + 'A' : nouns[0], nouns + 1,
               board_verb(b), (long long)effects, effects == 1 ? "time" : "times", (long long)dups);
}

/* The wide frame: lane headers above the rows, the legend below them. */
static void S_frame(dcanvas *m, const bp_board *b, const dtimeline_layout *l, tl_frame *f,
                    int *width, int *height)
{
    double hmax = 1;
    for (size_t i = 0; i < l->n_lanes; i++) {
        char **lines;
        size_t k = dwrap(m, dpart_label(b, (size_t)l->lane_part[i]), DF_LABEL, false, l->head_wrap,
                         &lines, NULL);
        dlines_free(lines, k);
        hmax = fmax(hmax, (double)k);
    }
    f->head_h = ceil(DL_LABEL * hmax + 18);
    f->legend_top = MARGIN + f->head_h + 10 + l->height - MARGIN + 12;
    f->legend_h = 24;
    int rows;
    *width =
        (int)fmax(l->width, ceil(dtl_legend(NULL, m, l, MARGIN + 4, 0, INFINITY, &rows) + MARGIN));
    *height = (int)ceil(f->legend_top + f->legend_h + MARGIN - 8);
}

static void S_paint_look(dcanvas *c, dcanvas *m, const bp_board *b, const dtimeline_layout *l,
                         const tl_frame *f, int width, int height)
{
    if (l->layout == DRAW_NARROW)
        dtimeline_paint_narrow(c, m, b, l);
    else
        S_paint(c, m, b, l, f, width, height);
}

int draw_timeline_opts(const bp_board *b, const sim_trace_entry *tr, size_t n, buf *svg, buf *alt,
                       const draw_opts *o, char *err, size_t errn)
{
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    if (dtimeline_layout_make(m, b, tr, n, o->look.layout, &l, err, errn)) {
        dcanvas_free(m);
        return -1;
    }
    tl_frame f = {0, 0, 0};
    int width = l.width, height = l.height; /* narrow: the layout is the whole figure */
    if (l.layout == DRAW_WIDE)
        S_frame(m, b, &l, &f, &width, &height);
    buf desc;
    buf_init(&desc);
    S_alt(b, &l, &desc);
    char *title = b->title ? xasprintf("Timeline: %s", b->title)
                           : xasprintf("Timeline of board %s", b->id ? b->id : "");
    dcanvas *c = dcanvas_new_svg(width, height, o->text, o->look.theme);
    S_paint_look(c, m, b, &l, &f, width, height);
    buf doc;
    buf_init(&doc);
    int rc = dcanvas_finish_svg(c, title, desc.data, &doc, err, errn);
    dcanvas_free(c);
    if (rc == 0 && o->png_path) {
        c = dcanvas_new_png(width, height, 2, o->look.theme);
        S_paint_look(c, m, b, &l, &f, width, height);
        rc = dcanvas_finish_png(c, o->png_path, err, errn);
        dcanvas_free(c);
    }
    if (rc == 0) {
        buf_put(svg, doc.data, doc.len);
        buf_put(alt, desc.data, desc.len);
    }
    buf_free(&doc);
    buf_free(&desc);
    free(title);
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    return rc;
}

int draw_timeline(const bp_board *b, const sim_trace_entry *tr, size_t n, draw_look look, buf *svg,
                  buf *alt, char *err, size_t errn)
{
    draw_opts o = {DTEXT_ELEMENTS, NULL, look, NULL, 0};
    return draw_timeline_opts(b, tr, n, svg, alt, &o, err, errn);
}

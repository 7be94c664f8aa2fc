/* test_draw_board.c — board diagrams: layout without overlaps, labels in
 * full, golden SVGs, well-formed XML, determinism, input checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/draw_internal.h"
#include "test_draw_fixtures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static drect seg_rect(const double *xy, size_t i)
{
    double x0 = fmin(xy[2 * i], xy[2 * i + 2]), x1 = fmax(xy[2 * i], xy[2 * i + 2]);
    double y0 = fmin(xy[2 * i + 1], xy[2 * i + 3]), y1 = fmax(xy[2 * i + 1], xy[2 * i + 3]);
    drect r = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    return r;
}

static bool on_edge(drect box, double x, double y)
{
    bool vert = (x == box.x || x == box.x + box.w) && y > box.y && y < box.y + box.h;
    bool horiz = (y == box.y || y == box.y + box.h) && x > box.x && x < box.x + box.w;
    return vert || horiz;
}

static void squeeze_spaces(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++)
        if (!(*p == ' ' && (o == s || o[-1] == ' ')))
            *o++ = *p;
    if (o > s && o[-1] == ' ')
        o--;
    *o = '\0';
}

/* Every layout rule the issue names, checked on the layout the SVG is
 * painted from. */
static draw_layout check_layout_in(const bp_board *b, const draw_note *notes, size_t n_notes,
                                   draw_layout want)
{
    dcanvas *m = dcanvas_new_measure();
    dboard_layout l;
    char err[256] = "";
    int rc = dboard_layout_make(m, b, notes, n_notes, want, NULL, &l, err, sizeof err);
    if (rc != 0)
        fail_msg("board %s (%s): %s", b->id, want == DRAW_NARROW ? "narrow" : "wide", err);
    draw_layout layout = l.layout; /* narrow may fall back to wide */
    assert_true(want == DRAW_NARROW || layout == DRAW_WIDE);
    drect canvas = {0, 0, l.width, l.height};
    /* boxes: apart, inside the card, wide enough for their texts */
    for (size_t i = 0; i < l.n_parts; i++) {
        drect bi = l.parts[i].box;
        assert_true(bi.x >= 8 && bi.y >= 8 && bi.x + bi.w <= l.width - 8 &&
                    bi.y + bi.h <= l.height - 8);
        for (size_t j = i + 1; j < l.n_parts; j++)
            if (drect_overlap(drect_grow(bi, 8), l.parts[j].box))
                fail_msg("board %s: parts %zu and %zu overlap", b->id, i, j);
    }
    /* texts inside a box: measured, within the box, the label in full */
    for (size_t i = 0; i < l.n_parts; i++) {
        buf joined;
        buf_init(&joined);
        drect box = l.parts[i].box;
        for (size_t k = 0; k < l.n_labels; k++) {
            const dlabel *t = &l.labels[k];
            if (t->kind != DL_PART_TEXT || t->part != (int)i)
                continue;
            double w = draw_text_width(t->text, t->size, t->bold);
            assert_true(fabs(w - t->r.w) < 0.01);
            if (!(t->r.x >= box.x + 8 && t->r.x + t->r.w <= box.x + box.w - 8))
                fail_msg("board %s: '%s' (%.1f px) does not fit its box (%.0f px)", b->id, t->text,
                         w, box.w);
            assert_true(t->r.y >= box.y + 2 && t->r.y + t->r.h <= box.y + box.h - 2);
            assert_null(strstr(t->text, "…"));
            buf_puts(&joined, t->text);
            buf_putc(&joined, ' ');
        }
        char *label = xstrdup(dpart_label(b, i));
        squeeze_spaces(label);
        if (!strstr(joined.data, label))
            fail_msg("board %s: label '%s' not drawn in full ('%s')", b->id, label, joined.data);
        free(label);
        buf_free(&joined);
    }
    /* links: orthogonal, from the sender's edge to the receiver's, through no box */
    for (size_t i = 0; i < l.n_links; i++) {
        const dlink_geom *g = &l.links[i];
        const sim_link *sl = &b->sim.links[i];
        assert_true(g->n_pts >= 2);
        assert_true(on_edge(l.parts[sl->from].box, g->xy[0], g->xy[1]));
        assert_true(on_edge(l.parts[sl->to].box, g->xy[2 * g->n_pts - 2], g->xy[2 * g->n_pts - 1]));
        for (size_t s = 0; s + 1 < g->n_pts; s++) {
            assert_true(g->xy[2 * s] == g->xy[2 * s + 2] || g->xy[2 * s + 1] == g->xy[2 * s + 3]);
            drect sr = seg_rect(g->xy, s);
            for (size_t p = 0; p < l.n_parts; p++) {
                drect inner = drect_grow(l.parts[p].box, -1);
                if (drect_overlap(sr, inner))
                    fail_msg("board %s: link %zu runs through part %zu", b->id, i, p);
            }
            /* no two links share a stretch of line */
            for (size_t j = 0; j < i; j++) {
                const dlink_geom *h = &l.links[j];
                for (size_t t = 0; t + 1 < h->n_pts; t++) {
                    drect tr = seg_rect(h->xy, t);
                    bool both_h = sr.h == 1 && tr.h == 1, both_v = sr.w == 1 && tr.w == 1;
                    if ((both_h || both_v) && drect_overlap(sr, tr))
                        fail_msg("board %s: links %zu and %zu overlap", b->id, j, i);
                }
            }
        }
    }
    /* narrow: every part in one column, notes inside their box */
    for (size_t k = 0; layout == DRAW_NARROW && k < l.n_labels; k++) {
        const dlabel *t = &l.labels[k];
        if (t->kind != DL_NOTE)
            continue;
        drect box = l.parts[t->part].box;
        if (!(t->r.x >= box.x + 8 && t->r.x + t->r.w <= box.x + box.w - 8 && t->r.y >= box.y &&
              t->r.y + t->r.h <= box.y + box.h))
            fail_msg("board %s: narrow note '%s' is not inside its box", b->id, t->text);
    }
    for (size_t i = 0; layout == DRAW_NARROW && i < l.n_parts; i++)
        assert_int_equal(l.parts[i].col, 0);
    /* free texts (link labels, faults, notes): apart from each other, boxes and lines */
    for (size_t k = 0; k < l.n_labels; k++) {
        const dlabel *t = &l.labels[k];
        if (t->kind == DL_PART_TEXT || (layout == DRAW_NARROW && t->kind == DL_NOTE))
            continue;
        assert_true(t->r.x >= 0 && t->r.y >= 0 && t->r.x + t->r.w <= canvas.w &&
                    t->r.y + t->r.h <= canvas.h);
        assert_true(fabs(draw_text_width(t->text, t->size, t->bold) - t->r.w) < 0.01);
        for (size_t p = 0; p < l.n_parts; p++)
            if (drect_overlap(t->r, l.parts[p].box))
                fail_msg("board %s: '%s' overlaps part %zu", b->id, t->text, p);
        for (size_t j = 0; j < l.n_labels; j++)
            if (j != k && l.labels[j].kind != DL_PART_TEXT &&
                !(layout == DRAW_NARROW && l.labels[j].kind == DL_NOTE) &&
                drect_overlap(t->r, l.labels[j].r))
                fail_msg("board %s: '%s' overlaps '%s'", b->id, t->text, l.labels[j].text);
        for (size_t i = 0; i < l.n_links; i++)
            for (size_t s = 0; s + 1 < l.links[i].n_pts; s++)
                if (drect_overlap(drect_grow(seg_rect(l.links[i].xy, s), 1), t->r))
                    fail_msg("board %s: '%s' overlaps link %zu", b->id, t->text, i);
    }
    dboard_layout_free(&l);
    dcanvas_free(m);
    return layout;
}

/* Both layouts obey every rule; returns the layout the narrow one made. */
static draw_layout check_layout(const bp_board *b, const draw_note *notes, size_t n_notes)
{
    check_layout_in(b, notes, n_notes, DRAW_WIDE);
    return check_layout_in(b, notes, n_notes, DRAW_NARROW);
}

static char *render_opts(const bp_board *b, const draw_note *notes, size_t n, dtext_mode mode,
                         draw_look look)
{
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256] = "";
    draw_opts o = {mode, NULL, look, NULL, 0};
    if (draw_board_opts(b, notes, n, &svg, &alt, &o, err, sizeof err) != 0)
        fail_msg("board %s: %s", b->id, err);
    assert_true(alt.len > 0);
    buf_free(&alt);
    return buf_detach(&svg);
}

static char *render(const bp_board *b, const draw_note *notes, size_t n, dtext_mode mode)
{
    return render_opts(b, notes, n, mode, FX_LOOK);
}

static char *render_look(const bp_board *b, const draw_note *notes, size_t n, draw_look look)
{
    return render_opts(b, notes, n, DTEXT_ELEMENTS, look);
}

/* ------------------------------------------------------------------ tests */

static void layout_known_boards(void **state)
{
    (void)state;
    draw_note notes[] = {{2, "183 charged twice", DRAW_FAIL, NULL, 0},
                         {2, "0 lost writes", DRAW_PASS, NULL, 0},
                         {1, "1200 deliveries", DRAW_NEUTRAL, NULL, 0}};
    bp_board *b = fx_every_delivery();
    check_layout(b, NULL, 0);
    check_layout(b, notes, 3);
    fx_board_free(b);
    b = fx_mini();
    check_layout(b, NULL, 0);
    fx_board_free(b);
    b = fx_service();
    check_layout(b, notes, 2);
    fx_board_free(b);
}

static void layout_long_labels(void **state)
{
    (void)state;
    fx_part parts[] = {
        {"users", "Users of the shop at peak hours", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"broker", "Message broker", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"processor", "Payment processor with a very long name", SIM_KIND_CONSUMER, 2, 2, false,
         SIM_IDEM_KEY_AFTER_EFFECT},
        {"provider", "Supercalifragilisticexpialidocious-payments-gateway", SIM_KIND_PROVIDER, 0, 0,
         true, SIM_IDEM_NONE},
        {"db", "Ledger", SIM_KIND_DATABASE, 1, 8, false, SIM_IDEM_NONE},
        {"audit", "Audit log kept for seven years", SIM_KIND_DATABASE, 1, 1, false, SIM_IDEM_NONE},
    };
    fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0.01, 0, NULL, 0, false},
        {1, 2, SIM_PROTO_AMQP, 0.05, 0.2, NULL, 0, true},
        {2, 3, SIM_PROTO_HTTP1, 0, 0.3, NULL, 0, false},
        {2, 4, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
        {2, 5, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
    };
    draw_note notes[] = {{2, "12 charged twice, far above the goal of none", DRAW_FAIL, NULL, 0},
                         {3, "0 lost writes", DRAW_PASS, NULL, 0}};
    for (size_t n = 2; n <= 6; n++) {
        bp_board *b = fx_board("long", "Long labels", parts, n, links, n - 1);
        if (n > 2) {
            b->sim.parts[2].crash_after_effect = 0.015;
            b->sim.parts[2].key_ttl_us = 300000000;
        }
        check_layout(b, notes, n > 3 ? 2 : 0);
        char *svg = render(b, notes, n > 3 ? 2 : 0, DTEXT_ELEMENTS);
        if (n >= 3) /* wrapped onto lines, every word kept */
            assert_non_null(strstr(svg, "very long name</text>"));
        fx_board_free(b);
        free(svg);
    }
}

static void layout_pinned(void **state)
{
    (void)state;
    fx_part parts[] = {
        {"users", "Users", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"svc", "Service", SIM_KIND_SERVICE, 1, 1, false, SIM_IDEM_BUSINESS_KEY},
        {"prov", "Provider", SIM_KIND_PROVIDER, 0, 0, true, SIM_IDEM_NONE},
    };
    fx_link links[] = {{0, 1, SIM_PROTO_HTTP2, 0, 0.1, NULL, 0, false},
                       {1, 2, SIM_PROTO_HTTP2, 0.1, 0, NULL, 0, false}};
    bp_board *b = fx_board("pinned", NULL, parts, 3, links, 2);
    b->parts[2].has_at = true; /* the provider under the users */
    b->parts[2].at_col = 0;
    b->parts[2].at_row = 1;
    check_layout(b, NULL, 0);
    dcanvas *m = dcanvas_new_measure();
    dboard_layout l;
    char err[256];
    assert_int_equal(dboard_layout_make(m, b, NULL, 0, DRAW_WIDE, NULL, &l, err, sizeof err), 0);
    assert_int_equal(l.parts[2].col, 0);
    assert_int_equal(l.parts[2].row, 1);
    assert_true(l.parts[2].box.y > l.parts[0].box.y + l.parts[0].box.h);
    dboard_layout_free(&l);
    dcanvas_free(m);
    fx_board_free(b);
}

/* Random boards from a fixed seed: 2-6 parts of any kind, a chain plus a few
 * extra links (some backwards), random labels, faults and notes. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static void layout_random_boards(void **state)
{
    (void)state;
    static const char *const words[] = {
        "Users",     "Message",
        "broker",    "Payment",
        "processor", "provider",
        "with",      "a",
        "very",      "long",
        "name",      "DB",
        "ledger",    "EU-west",
        "service",   "queue",
        "Ω-store",   "façade",
        "checkout",  "orders",
        "x",         "Antidisestablishmentarianism-handler",
    };
    static const sim_kind kinds[] = {SIM_KIND_USERS,   SIM_KIND_BROKER,   SIM_KIND_CONSUMER,
                                     SIM_KIND_SERVICE, SIM_KIND_PROVIDER, SIM_KIND_DATABASE};
    /* make check cuts the rounds (BP_LAYOUT_ROUNDS=N, the first N of the
     * same sequence); make test runs all 200 */
    int rounds = 200;
    const char *env = getenv("BP_LAYOUT_ROUNDS");
    if (env && atoi(env) > 0 && atoi(env) < rounds)
        rounds = atoi(env);
    int fallbacks = 0;
    for (int round = 0; round < rounds; round++) {
        size_t n = 2 + rnd(5);
        fx_part parts[6];
        char labels[6][200];
        char ids[6][24];
        for (size_t i = 0; i < n; i++) {
            labels[i][0] = '\0';
            size_t nw = 1 + rnd(5);
            for (size_t w = 0; w < nw; w++) {
                if (w)
                    strcat(labels[i], " ");
                strcat(labels[i], words[rnd(sizeof words / sizeof words[0])]);
            }
            snprintf(ids[i], sizeof ids[i], "p%zu", i);
            parts[i].id = ids[i];
            parts[i].label = labels[i];
            parts[i].kind = i == 0 ? SIM_KIND_USERS : kinds[rnd(6)];
            parts[i].vcpu = rnd(3) ? rnd(4) : 0.5;
            parts[i].gb = rnd(4);
            parts[i].external = rnd(4) == 0;
            parts[i].idem = (sim_idempotency)rnd(SIM_IDEM_COUNT);
        }
        fx_link links[10];
        size_t nl = 0;
        for (size_t i = 0; i + 1 < n; i++)
            if (rnd(5))
                links[nl++] = (fx_link){(int)i,
                                        (int)i + 1,
                                        (sim_protocol)rnd(SIM_PROTO_COUNT),
                                        rnd(3) ? 0 : 0.05 * rnd(5),
                                        rnd(2) ? 0 : 0.2,
                                        NULL,
                                        0,
                                        rnd(4) == 0};
        for (uint32_t k = rnd(3); k > 0; k--) {
            int a = (int)rnd((uint32_t)n), c = (int)rnd((uint32_t)n);
            if (a != c)
                links[nl++] = (fx_link){
                    a, c, (sim_protocol)rnd(SIM_PROTO_COUNT), 0, rnd(2) ? 0 : 0.1, NULL, 0, false};
        }
        bp_board *b = fx_board("random", NULL, parts, n, links, nl);
        for (size_t i = 0; i < n; i++) {
            if (rnd(4) == 0)
                b->sim.parts[i].crash_after_effect = 0.01 * rnd(10);
            if (rnd(4) == 0)
                b->sim.parts[i].key_ttl_us = 1000000LL * (1 + rnd(100000));
            if (rnd(6) == 0) {
                b->parts[i].has_at = true;
                b->parts[i].at_col = (int)rnd(4);
                b->parts[i].at_row = (int)rnd(3);
            }
        }
        draw_note notes[3];
        size_t nn = rnd(4);
        static const char *const note_text[] = {"0 lost writes", "183 charged twice",
                                                "12.5% errors, far above the goal"};
        for (size_t k = 0; k < nn; k++)
            notes[k] =
                (draw_note){(int)rnd((uint32_t)n), note_text[rnd(3)], (draw_tone)rnd(3), NULL, 0};
        fallbacks += check_layout(b, notes, nn) != DRAW_NARROW;
        fx_board_free(b);
    }
    /* boards whose links cross back around each other may not stack */
    if (fallbacks * 20 > rounds)
        fail_msg("%d of %d random boards had no narrow layout", fallbacks, rounds);
}

/* A board with two hops, like the outbox page's: seven parts in a chain
 * with a database beside each handler. */
static bp_board *two_hop(void)
{
    fx_part parts[] = {
        {"users", "Checkout", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"q", "Order queue", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"orders", "Order service", SIM_KIND_CONSUMER, 2, 2, false, SIM_IDEM_KEY_IN_TRANSACTION},
        {"odb", "Order database", SIM_KIND_DATABASE, 2, 4, false, SIM_IDEM_NONE},
        {"events", "Event broker", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"ship", "Shipping service", SIM_KIND_CONSUMER, 2, 2, false, SIM_IDEM_KEY_IN_TRANSACTION},
        {"sdb", "Shipping database", SIM_KIND_DATABASE, 2, 4, false, SIM_IDEM_NONE},
    };
    fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
        {1, 2, SIM_PROTO_AMQP, 0, 0, NULL, 0, false},
        {2, 3, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
        {2, 4, SIM_PROTO_AMQP, 0, 0, NULL, 0, false},
        {4, 5, SIM_PROTO_AMQP, 0, 0.02, NULL, 0, false},
        {5, 6, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
    };
    bp_board *b = fx_board("two-hop", "Event published after the commit", parts, 7, links, 6);
    b->sim.parts[2].crash_after_effect = 0.005;
    return b;
}

/* Each layout fits its width with no text under DRAW_MIN_TEXT; narrow puts
 * the parts top to bottom in the order of the chain; a wide board that
 * would pass DRAW_WIDE_MAX wraps onto more bands. */
static void layouts_fit(void **state)
{
    (void)state;
    draw_note notes[] = {{2, "4.9 lost events", DRAW_FAIL, NULL, 0},
                         {5, "0 duplicates downstream", DRAW_PASS, NULL, 0}};
    /* and a relay whose acks get lost: "5% of acks lost" beside the link
     * around the database would put the narrow layout at 312 px unless it
     * takes two lines */
    bp_board *lossy_relay = two_hop();
    lossy_relay->sim.links[3].lose_reply = 0.05;
    bp_board *boards[] = {fx_every_delivery(), fx_mini(), fx_service(), two_hop(), lossy_relay};
    for (size_t k = 0; k < sizeof boards / sizeof boards[0]; k++) {
        bp_board *b = boards[k];
        check_layout(b, notes, b->sim.n_parts == 7 ? 2 : 0);
        for (int layout = 0; layout < 2; layout++) {
            dcanvas *m = dcanvas_new_measure();
            dboard_layout l;
            char err[256];
            assert_int_equal(dboard_layout_make(m, b, notes, b->sim.n_parts == 7 ? 2 : 0,
                                                (draw_layout)layout, NULL, &l, err, sizeof err),
                             0);
            if (layout == DRAW_NARROW) {
                assert_int_equal(l.layout, DRAW_NARROW);
                if (l.width > DRAW_NARROW_W)
                    fail_msg("board %s: narrow layout is %d px wide", b->id, l.width);
                for (size_t i = 0; i < b->sim.n_links; i++) {
                    const sim_link *sl = &b->sim.links[i];
                    assert_true(l.parts[sl->to].box.y > l.parts[sl->from].box.y);
                }
            } else if (l.width > DRAW_WIDE_MAX) {
                fail_msg("board %s: wide layout is %d px wide", b->id, l.width);
            }
            for (size_t i = 0; i < l.n_labels; i++)
                assert_true(l.labels[i].size >= DRAW_MIN_TEXT);
            if (b->sim.n_parts == 7 && layout == DRAW_WIDE) {
                /* two bands: the second hop's handler under the first row */
                assert_true(l.parts[5].box.y > l.parts[0].box.y + l.parts[0].box.h);
                assert_true(l.parts[3].col == l.parts[2].col); /* the database under its service */
            }
            dboard_layout_free(&l);
            dcanvas_free(m);
        }
        fx_board_free(b);
    }
}

/* A broker's dead-letter queue: the drawing links it from the broker by a
 * dashed line with no words beside it (the queue's box says "after the
 * last try"), so the narrow stack, where that line goes around the parts
 * between, stays in a phone's column: every such board, with a long label,
 * a back-off and notes, and with the queue anywhere in the list. */
static int svg_width(const char *svg)
{
    const char *w = strstr(svg, " width=\"");
    assert_non_null(w);
    return atoi(w + 8);
}

static size_t count_of(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static void dead_letter_fits(void **state)
{
    (void)state;
    draw_note notes[] = {{2, "1206 deliveries", DRAW_NEUTRAL, NULL, 0},
                         {3, "51.5 moved to dead letters", DRAW_NEUTRAL, NULL, 0}};
    for (int variant = 0; variant < 4; variant++) {
        fx_part parts[] = {
            {"checkout", "Checkout", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
            {"queue", variant == 1 ? "Payment queue with a long name" : "Payment queue",
             SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
            {"processor", "Payment processor", SIM_KIND_CONSUMER, 2, 2, false,
             SIM_IDEM_KEY_IN_TRANSACTION},
            {"dead", variant == 2 ? "Payments that failed every try" : "Dead-letter queue",
             SIM_KIND_DLQ, 0, 0, false, SIM_IDEM_NONE},
        };
        fx_link links[] = {{0, 1, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
                           {1, 2, SIM_PROTO_AMQP, variant == 3 ? 0.05 : 0, 0, NULL, 0, false}};
        bp_board *b = fx_board("dlq", "Dead letters", parts, 4, links, 2);
        b->sim.parts[1].dead_letter = 4;
        b->sim.parts[1].redelivery_after_us = 5000000;
        if (variant >= 2) {
            b->sim.parts[1].backoff_factor = 2;
            b->sim.parts[1].backoff_max_us = 60000000;
            b->sim.parts[1].backoff_jitter = true;
        }
        b->sim.traffic.poison = 0.05;
        for (int layout = 0; layout < 2; layout++) {
            char *svg = render_look(b, notes, variant == 3 ? 2 : 0,
                                    (draw_look){(draw_layout)layout, DRAW_LIGHT});
            int w = svg_width(svg);
            if (layout == DRAW_NARROW ? w > DRAW_NARROW_W : w > DRAW_WIDE_MAX)
                fail_msg("variant %d: the %s drawing is %d px wide", variant,
                         layout == DRAW_NARROW ? "narrow" : "wide", w);
            assert_true(strstr(svg, "stroke-dasharray") != NULL);
            assert_int_equal(count_of(svg, ">after the last try<"), 1);
            free(svg);
        }
        fx_board_free(b);
    }
}

static void goldens(void **state)
{
    (void)state;
    draw_note notes[] = {{2, "183 charged twice", DRAW_FAIL, NULL, 0},
                         {2, "0 lost writes", DRAW_PASS, NULL, 0}};
    bp_board *b = fx_every_delivery();
    char *svg = render(b, notes, 2, DTEXT_ELEMENTS);
    fx_golden("every-delivery", svg);
    free(svg);
    fx_board_free(b);
    b = fx_mini();
    svg = render(b, NULL, 0, DTEXT_ELEMENTS);
    fx_golden("mini", svg);
    free(svg);
    fx_board_free(b);
    b = fx_service();
    svg = render(b, NULL, 0, DTEXT_ELEMENTS);
    fx_golden("service", svg);
    free(svg);
    fx_board_free(b);
    /* the narrow layout and the dark palette */
    b = fx_every_delivery();
    svg = render_look(b, notes, 2, (draw_look){DRAW_NARROW, DRAW_LIGHT});
    fx_golden("every-delivery-narrow", svg);
    free(svg);
    svg = render_look(b, notes, 2, (draw_look){DRAW_NARROW, DRAW_DARK});
    fx_golden("every-delivery-narrow-dark", svg);
    free(svg);
    svg = render_look(b, notes, 2, (draw_look){DRAW_WIDE, DRAW_DARK});
    fx_golden("every-delivery-dark", svg);
    free(svg);
    fx_board_free(b);
    b = two_hop();
    svg = render_look(b, NULL, 0, (draw_look){DRAW_WIDE, DRAW_LIGHT});
    fx_golden("two-hop", svg);
    free(svg);
    svg = render_look(b, NULL, 0, (draw_look){DRAW_NARROW, DRAW_LIGHT});
    fx_golden("two-hop-narrow", svg);
    free(svg);
    fx_board_free(b);
}

static void xml_wellformed_and_accessible(void **state)
{
    (void)state;
    fx_part parts[] = {
        {"users", "Users <&> \"friends\" 'n' co", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"svc", "Service ]]> <!-- -->", SIM_KIND_SERVICE, 1, 1, false, SIM_IDEM_NONE},
    };
    fx_link links[] = {{0, 1, SIM_PROTO_HTTP2, 0, 0.1, NULL, 0, false}};
    bp_board *b = fx_board("xml", "Tricky <title> & more", parts, 2, links, 1);
    for (int mode = 0; mode < 2; mode++) {
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        char err[256];
        draw_opts o = {(dtext_mode)mode, NULL, FX_LOOK, NULL, 0};
        assert_int_equal(draw_board_opts(b, NULL, 0, &svg, &alt, &o, err, sizeof err), 0);
        assert_true(fx_wellformed(&svg));
        assert_non_null(strstr(svg.data, "<title>Tricky &lt;title&gt; &amp; more</title>"));
        assert_non_null(strstr(svg.data, "<desc>Board diagram"));
        assert_non_null(strstr(alt.data, "Users <&> \"friends\" 'n' co"));
        if (mode == DTEXT_ELEMENTS)
            assert_non_null(strstr(svg.data, ">Service ]]&gt; &lt;!-- --&gt;</text>"));
        buf_free(&svg);
        buf_free(&alt);
    }
    fx_board_free(b);
    b = fx_service();
    char *s = render(b, NULL, 0, DTEXT_ELEMENTS);
    buf w = {s, strlen(s), strlen(s) + 1};
    assert_true(fx_wellformed(&w));
    assert_non_null(strstr(s, "width=\""));
    assert_null(strstr(s, "pt\""));
    free(s);
    fx_board_free(b);
}

static void deterministic(void **state)
{
    (void)state;
    bp_board *a = fx_every_delivery(), *b = fx_service();
    for (int mode = 0; mode < 2; mode++) {
        char *a1 = render(a, NULL, 0, (dtext_mode)mode);
        char *b1 = render(b, NULL, 0, (dtext_mode)mode);
        char *a2 = render(a, NULL, 0, (dtext_mode)mode);
        char *b2 = render(b, NULL, 0, (dtext_mode)mode);
        assert_string_equal(a1, a2);
        assert_string_equal(b1, b2);
        /* cairo's process-wide ids are renumbered per document */
        assert_null(strstr(a2, "surface2"));
        if (mode == DTEXT_GLYPHS)
            assert_non_null(strstr(b2, "id=\"glyph1\""));
        assert_null(strstr(b2, "glyph0"));
        free(a1);
        free(a2);
        free(b1);
        free(b2);
    }
    fx_board_free(a);
    fx_board_free(b);
}

static void bad_input(void **state)
{
    (void)state;
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    bp_board *b = fx_every_delivery();
    free(b->parts[1].label);
    b->parts[1].label = xstrdup("Message \xC3\x28 broker");
    assert_int_equal(draw_board(b, NULL, 0, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the label of part 2 is not valid UTF-8 (bad byte at offset 8)");
    assert_int_equal(svg.len, 0);
    assert_int_equal(alt.len, 0);
    free(b->parts[1].label);
    b->parts[1].label = xstrdup("Message\tbroker");
    assert_int_equal(draw_board(b, NULL, 0, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the label of part 2 contains a control character at offset 7");
    free(b->parts[1].label);
    b->parts[1].label = xstrdup("Message broker");
    b->sim.parts[1].vcpu = NAN;
    assert_int_equal(draw_board(b, NULL, 0, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the vcpu of part 2 is not a finite number");
    b->sim.parts[1].vcpu = 1;
    b->sim.links[1].lose_reply = 1.5;
    assert_int_equal(draw_board(b, NULL, 0, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "lose_reply of link 2 is 1.5, outside 0 to 1");
    b->sim.links[1].lose_reply = 0.2;
    draw_note bad_note[] = {{7, "x", DRAW_PASS, NULL, 0}};
    assert_int_equal(draw_board(b, bad_note, 1, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "note 1 names part 8, which the board does not have");
    draw_note bad_text[] = {{1, "\xFF", DRAW_PASS, NULL, 0}};
    assert_int_equal(draw_board(b, bad_text, 1, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the text of note 1 is not valid UTF-8 (bad byte at offset 0)");
    assert_int_equal(draw_board(b, NULL, 0, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    fx_board_free(b);
    buf_free(&svg);
    buf_free(&alt);
}

/* A board that runs more than once measures means, not counts: a plain
 * line under its notes says "per run, on average", as its alt text does;
 * a board run once keeps its counts bare. */
static void means_say_per_run(void **state)
{
    (void)state;
    draw_note notes[] = {{2, "110.3 duplicates", DRAW_FAIL, NULL, 0},
                         {2, "0 lost writes", DRAW_PASS, NULL, 0}};
    bp_board *b = fx_mini();
    for (int look = 0; look < DRAW_LOOKS; look++) {
        char *s = render_look(b, notes, 2, draw_look_at(look));
        assert_non_null(strstr(s, "110.3 duplicates</text>"));
        assert_null(strstr(s, "per run"));
        free(s);
    }
    b->sim.replications = 20;
    for (int look = 0; look < DRAW_LOOKS; look++) {
        char *s = render_look(b, notes, 2, draw_look_at(look));
        const char *at = strstr(s, ">per run, on average</text>");
        assert_non_null(at);
        assert_null(strstr(at + 1, ">per run, on average<")); /* once, under the part's notes */
        const char *el = at;
        while (el > s && strncmp(el, "<text", 5))
            el--;
        const char *bold = strstr(el, "font-weight");
        assert_true(!bold || bold > at); /* plain, not a note of its own */
        assert_true(strstr(s, "0 lost writes</text>") < at);
        free(s);
    }
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_board(b, notes, 2, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_non_null(strstr(alt.data, "Measured, per run on average: 110.3 duplicates"));
    buf_free(&svg);
    buf_free(&alt);
    b->sim.replications = 1;
    b->sim.until = 0.05;
    char *s = render(b, notes, 2, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">per run, on average</text>"));
    free(s);
    fx_board_free(b);
}

static void words_on_the_picture(void **state)
{
    (void)state;
    bp_board *b = fx_service();
    char *s = render(b, NULL, 0, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">5% of requests lost</text>"));
    assert_non_null(strstr(s, ">10% of responses lost</text>"));
    assert_non_null(strstr(s, ">provider idempotency key</text>"));
    assert_non_null(strstr(s, ">crashes after the effect: 1%</text>"));
    assert_non_null(strstr(s, ">keys kept 24 h</text>"));
    assert_non_null(strstr(s, ">1 vCPU · 2 GB</text>"));
    assert_non_null(strstr(s, "stroke-dasharray")); /* the external provider */
    free(s);
    fx_board_free(b);
    b = fx_mini();
    s = render(b, NULL, 0, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">ack of payment 3 lost</text>"));
    assert_non_null(strstr(s, ">ID check in transaction</text>"));
    free(s);
    fx_board_free(b);
    /* the second release's settings, each on the part it acts on */
    b = two_hop();
    s = render(b, NULL, 0, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">publishes after the commit</text>"));
    free(s);
    b->sim.parts[2].publish = SIM_PUBLISH_OUTBOX;
    b->sim.parts[2].relay_every_us = 2000000;
    b->sim.parts[2].crash_after_commit = 0.01;
    b->sim.parts[5].idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
    b->sim.parts[5].lease_us = 30000000;
    b->sim.parts[4].dedup_window_us = 300000000;
    b->sim.parts[0].tries = 3;
    b->sim.links[0].lose_reply = 0.1;
    b->sim.parts[0].message_id = SIM_MESSAGE_ID_PER_PUBLISH;
    s = render(b, NULL, 0, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">outbox, relayed every 2 s</text>"));
    assert_non_null(strstr(s, ">crashes after the commit: 1%</text>"));
    assert_non_null(strstr(s, ">claim held 30 s</text>"));
    assert_non_null(strstr(s, ">drops repeated IDs for 5 min</text>"));
    assert_non_null(strstr(s, ">a new ID every try</text>"));
    assert_null(strstr(s, "publishes after"));
    free(s);
    b->sim.parts[4].dedup_window_us = INT64_MAX; /* never "for forever" */
    s = render(b, NULL, 0, DTEXT_ELEMENTS);
    assert_non_null(strstr(s, ">drops repeated IDs forever</text>"));
    free(s);
    fx_board_free(b);
}

/* Word-wrap gives lines of even length: a box never ends on one short word
 * where the line above could spare one, and takes no more lines for it. */
static void wrap_evens_lines(void **state)
{
    (void)state;
    dcanvas *c = dcanvas_new_measure();
    double all = dc_text_width(c, "publishes after the commit", 12, false);
    char **lines;
    size_t n = dwrap(c, "publishes after the commit", 12, false, all - 1, &lines, NULL);
    assert_int_equal(n, 2);
    assert_string_equal(lines[0], "publishes after");
    assert_string_equal(lines[1], "the commit");
    dlines_free(lines, n);
    all = dc_text_width(c, "waits 3 min for a response", 12, false);
    n = dwrap(c, "waits 3 min for a response", 12, false, all - 1, &lines, NULL);
    assert_int_equal(n, 2);
    assert_string_equal(lines[0], "waits 3 min");
    assert_string_equal(lines[1], "for a response");
    dlines_free(lines, n);
    /* one line when it fits, and a word wider than the box alone */
    n = dwrap(c, "publishes after the commit", 12, false, all + 40, &lines, NULL);
    assert_int_equal(n, 1);
    dlines_free(lines, n);
    n = dwrap(c, "a payment-provider-idempotency-key b", 12, false, 30, &lines, NULL);
    assert_int_equal(n, 3);
    assert_string_equal(lines[1], "payment-provider-idempotency-key");
    dlines_free(lines, n);
    dcanvas_free(c);
}

/* Word-wrap keeps a number and its unit on one line, however narrow. */
static void wrap_keeps_units(void **state)
{
    (void)state;
    dcanvas *c = dcanvas_new_measure();
    double one = dc_text_width(c, "outbox, relayed every 2", 13, false);
    char **lines;
    size_t n = dwrap(c, "outbox, relayed every 2 s", 13, false, one + 1, &lines, NULL);
    assert_true(n >= 2);
    for (size_t i = 0; i < n; i++)
        if (strcmp(lines[i], "s") == 0 || (strlen(lines[i]) && lines[i][strlen(lines[i]) - 1] == '2'))
            fail_msg("line %zu of the wrap is \"%s\": the 2 and its s are apart", i, lines[i]);
    assert_string_equal(lines[n - 1], "every 2 s"); /* even lines: "outbox, relayed" above */
    dlines_free(lines, n);
    n = dwrap(c, "at most 0.15 at 95 %) and 12 USD/mo", 13, false, 1, &lines, NULL);
    assert_string_equal(lines[2], "0.15"); /* "at" is no unit */
    assert_string_equal(lines[4], "95 %)");
    assert_string_equal(lines[6], "12 USD/mo");
    dlines_free(lines, n);
    n = dwrap(c, "payment 2 lost", 13, false, 1, &lines, NULL);
    assert_int_equal(n, 3); /* "lost" is no unit: each word on its line */
    dlines_free(lines, n);
    dcanvas_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_known_boards),
        cmocka_unit_test(layout_long_labels),
        cmocka_unit_test(layout_pinned),
        cmocka_unit_test(layout_random_boards),
        cmocka_unit_test(layouts_fit),
        cmocka_unit_test(dead_letter_fits),
        cmocka_unit_test(goldens),
        cmocka_unit_test(xml_wellformed_and_accessible),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(means_say_per_run),
        cmocka_unit_test(words_on_the_picture),
        cmocka_unit_test(wrap_keeps_units),
        cmocka_unit_test(wrap_evens_lines),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    draw_shutdown();
    return rc;
}

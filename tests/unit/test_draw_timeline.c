/* test_draw_timeline.c — the sequence diagram of a small trace: lost ack as a
 * cross, the ID check's skip, the duplicate charge, XML, determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/draw_internal.h"
#include "test_draw_fixtures.h"

#include <stdlib.h>
#include <string.h>

static size_t count(const dtimeline_layout *l, dtl_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n_items; i++)
        n += l->items[i].kind == k;
    return n;
}

static const dtl_item *find(const dtimeline_layout *l, dtl_kind k)
{
    for (size_t i = 0; i < l->n_items; i++)
        if (l->items[i].kind == k)
            return &l->items[i];
    return NULL;
}

static void lost_ack_then_skip(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry *tr;
    size_t n = fx_mini_trace(true, &tr);
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_int_equal(l.n_lanes, 4);
    /* the lost ack: one cross, from the processor towards the broker */
    assert_int_equal(count(&l, DTL_LOST), 1);
    const dtl_item *lost = find(&l, DTL_LOST);
    assert_string_equal(lost->text, "ack 3 lost");
    assert_int_equal(lost->from_lane, 2);
    assert_int_equal(lost->to_lane, 1);
    /* the repeat is skipped, nothing is charged twice */
    assert_int_equal(count(&l, DTL_SKIP), 1);
    assert_string_equal(find(&l, DTL_SKIP)->text, "payment 3: ID seen, skipped");
    assert_int_equal(count(&l, DTL_EFFECT), 5);
    assert_int_equal(count(&l, DTL_DUPLICATE), 0);
    /* rows go down in trace order, no two on the same height */
    for (size_t i = 1; i < l.n_items; i++)
        assert_true(l.items[i].y >= l.items[i - 1].y + 20);
    /* lanes left to right, far enough apart for every label */
    for (size_t i = 1; i < l.n_lanes; i++)
        assert_true(l.lane_x[i] > l.lane_x[i - 1] + 100);
    for (size_t i = 0; i < l.n_items; i++) {
        const dtl_item *it = &l.items[i];
        double w = draw_text_width(it->text, DF_SMALL, true);
        if (it->from_lane == it->to_lane && (size_t)it->from_lane + 1 < l.n_lanes)
            assert_true(l.lane_x[it->from_lane] + 14 + w < l.lane_x[it->from_lane + 1]);
        else if (it->from_lane == it->to_lane)
            assert_true(l.lane_x[it->from_lane] + 14 + w < l.width);
    }
    dtimeline_layout_free(&l);
    dcanvas_free(m);

    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_true(fx_wellformed(&svg));
    assert_non_null(strstr(svg.data, ">ack 3 lost</text>"));
    assert_non_null(strstr(svg.data, ">payment 3: ID seen, skipped</text>"));
    assert_non_null(strstr(svg.data, ">payment 3, try 2</text>"));
    assert_non_null(strstr(svg.data, ">lost message</text>"));
    assert_non_null(strstr(svg.data, "<title>Timeline: Delivered twice, charged once</title>"));
    assert_non_null(strstr(alt.data, "ack 3 lost"));
    assert_non_null(strstr(alt.data, "Payments charged 5 times in all, 0 of them duplicates."));
    /* deterministic, whatever was drawn before */
    buf again, alt2;
    buf_init(&again);
    buf_init(&alt2);
    bp_board *other = fx_service();
    assert_int_equal(draw_board(other, NULL, 0, FX_LOOK, &again, &alt2, err, sizeof err), 0);
    buf_clear(&again);
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &again, &alt2, err, sizeof err), 0);
    assert_string_equal(svg.data, again.data);
    fx_board_free(other);
    buf_free(&again);
    buf_free(&alt2);
    buf_free(&svg);
    buf_free(&alt);
    free(tr);
    fx_board_free(b);
}

static void duplicate_charge_highlighted(void **state)
{
    (void)state;
    bp_board *b = fx_every_delivery();
    sim_trace_entry *tr;
    size_t n = fx_mini_trace(false, &tr);
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_int_equal(count(&l, DTL_DUPLICATE), 1);
    assert_string_equal(find(&l, DTL_DUPLICATE)->text,
                        "payment 3 charged twice: on try 1 and again on try 2");
    assert_int_equal(find(&l, DTL_DUPLICATE)->color, DC_FAIL);
    assert_int_equal(count(&l, DTL_SKIP), 0);
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_true(fx_wellformed(&svg));
    /* bold and red, to either side of its lane (the wide layout's choice) */
    const char *dup = strstr(svg.data, ">payment 3 charged twice: on try 1 and again on try 2<");
    assert_non_null(dup);
    const char *el = dup;
    while (el > svg.data && strncmp(el, "<text", 5))
        el--;
    const char *bold = strstr(el, "font-weight=\"bold\""), *red = strstr(el, "fill=\"#b42318\"");
    assert_true(bold && bold < dup && red && red < dup);
    assert_non_null(strstr(alt.data, "Payments charged 6 times in all, 1 of them duplicates."));
    buf_free(&svg);
    buf_free(&alt);
    free(tr);
    fx_board_free(b);
}

/* key-after-effect: the processor crashes between the charge and recording
 * the ID, so the redelivery charges again. */
static void crash_restart_marks(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    b->sim.parts[2].idempotency = SIM_IDEM_KEY_AFTER_EFFECT;
    sim_trace_entry tr[] = {
        {0, SIM_TR_ARRIVE, 1, 0, -1, 0, 0},           {1000, SIM_TR_SEND, 1, 1, 2, 1, 0},
        {2000, SIM_TR_RECEIVE, 1, 2, 1, 1, 0},        {3000, SIM_TR_CALL, 1, 2, 3, 0, 0},
        {150000, SIM_TR_EFFECT, 1, 3, 2, 1, 0},       {151000, SIM_TR_CRASH, 1, 2, -1, 0, 0},
        {1151000, SIM_TR_RESTART, 0, 2, -1, 0, 0},    {3001000, SIM_TR_TIMEOUT, 1, 1, 2, 1, 0},
        {3001000, SIM_TR_SEND, 1, 1, 2, 2, 0},        {3002000, SIM_TR_RECEIVE, 1, 2, 1, 2, 0},
        {3003000, SIM_TR_CALL, 1, 2, 3, 0, 0},        {3150000, SIM_TR_EFFECT, 1, 3, 2, -2, 0},
        {3151000, SIM_TR_RECORD_KEY, 1, 2, -1, 0, 0}, {3152000, SIM_TR_REPLY, 1, 2, 1, 0, 0},
        {3153000, SIM_TR_ACKED, 1, 1, 2, 0, 0},
    };
    size_t n = sizeof tr / sizeof tr[0];
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_int_equal(count(&l, DTL_CRASH), 1);
    assert_string_equal(find(&l, DTL_CRASH)->text, "crashed (payment 1)");
    assert_int_equal(count(&l, DTL_RESTART), 1);
    assert_int_equal(count(&l, DTL_DUPLICATE), 1);
    assert_string_equal(find(&l, DTL_DUPLICATE)->text,
                        "payment 1 charged twice: on try 1 and again on try 2");
    assert_int_equal(count(&l, DTL_LOST), 0);
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_true(fx_wellformed(&svg));
    assert_non_null(strstr(svg.data, ">crash</text>")); /* in the legend */
    assert_non_null(strstr(alt.data, "crashed (payment 1); restarted"));
    buf_free(&svg);
    buf_free(&alt);
    fx_board_free(b);
}

/* Racing tries with no check (the race page): try 2 starts while try 1
 * still works, and each charge's row names the try the effect entry
 * carries, not the delivery that started last; here try 2 charges first. A
 * third charge is "again on try 3". */
static void racing_tries_named(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry tr[] = {
        {0, SIM_TR_ARRIVE, 1, 0, -1, 0, 0},       {1000, SIM_TR_SEND, 1, 1, 2, 1, 0},
        {2000, SIM_TR_RECEIVE, 1, 2, 1, 1, 0},    {1001000, SIM_TR_TIMEOUT, 1, 1, 2, 1, 0},
        {1001000, SIM_TR_SEND, 1, 1, 2, 2, 0},    {1002000, SIM_TR_RECEIVE, 1, 2, 1, 2, 0},
        {1400000, SIM_TR_EFFECT, 1, 2, -1, 2, 0}, {1500000, SIM_TR_EFFECT, 1, 2, -1, -1, 0},
        {2001000, SIM_TR_TIMEOUT, 1, 1, 2, 2, 0}, {2001000, SIM_TR_SEND, 1, 1, 2, 3, 0},
        {2002000, SIM_TR_RECEIVE, 1, 2, 1, 3, 0}, {2300000, SIM_TR_EFFECT, 1, 2, -1, -3, 0},
        {2300000, SIM_TR_REPLY, 1, 2, 1, 3, 0},   {2301000, SIM_TR_ACKED, 1, 1, 2, 3, 0},
    };
    size_t n = sizeof tr / sizeof tr[0];
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_string_equal(find(&l, DTL_EFFECT)->text, "payment 1 charged on try 2");
    const char *dups[2] = {NULL, NULL};
    for (size_t i = 0, k = 0; i < l.n_items && k < 2; i++)
        if (l.items[i].kind == DTL_DUPLICATE)
            dups[k++] = l.items[i].text;
    assert_non_null(dups[1]);
    assert_string_equal(dups[0], "payment 1 charged twice: on try 2 and again on try 1");
    assert_string_equal(dups[1], "payment 1 charged 3 times: again on try 3");
    dtimeline_layout_free(&l);
    /* one delivery only: its charge names no try */
    sim_trace_entry one[] = {tr[0], tr[1], tr[2], {150000, SIM_TR_EFFECT, 1, 2, -1, 1, 0}};
    assert_int_equal(dtimeline_layout_make(m, b, one, 4, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_string_equal(find(&l, DTL_EFFECT)->text, "payment 1 charged");
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    fx_board_free(b);
}

/* The narrow layout: lanes spread across DRAW_NARROW_W, rows carry their
 * words above their arrows, no text under DRAW_MIN_TEXT; the ID recorded
 * in the effect's transaction is one row with it; goldens of the narrow
 * and the dark timeline. */
static void narrow_and_dark(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry *tr;
    size_t n = fx_mini_trace(true, &tr);
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_NARROW, &l, err, sizeof err), 0);
    assert_int_equal(l.width, DRAW_NARROW_W);
    assert_true(l.lane_x[0] > 10 && l.lane_x[l.n_lanes - 1] < DRAW_NARROW_W - 10);
    for (size_t i = 0; i < l.n_items; i++) {
        const dtl_item *it = &l.items[i];
        double w = draw_text_width(it->text, DF_SMALL, true);
        assert_true(10 + l.time_w + w <= DRAW_NARROW_W - 4); /* every row's words fit */
        if (i)
            assert_true(it->y >= l.items[i - 1].y + 28);
    }
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    for (int k = 0; k < DRAW_LOOKS; k++) {
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        draw_look look = draw_look_at(k);
        assert_int_equal(draw_timeline(b, tr, n, look, &svg, &alt, err, sizeof err), 0);
        assert_true(fx_wellformed(&svg));
        /* font sizes: 12 unless written, never under the minimum */
        for (const char *p = strstr(svg.data, "font-size=\""); p; p = strstr(p + 1, "font-size=\""))
            assert_true(strtod(p + 11, NULL) >= DRAW_MIN_TEXT);
        if (look.layout == DRAW_NARROW) {
            char *name = xasprintf("mini-timeline%s", draw_look_suffix(look));
            fx_golden(name, svg.data);
            free(name);
        } else if (look.theme == DRAW_DARK) {
            fx_golden("mini-timeline-dark", svg.data);
        }
        buf_free(&svg);
        buf_free(&alt);
    }
    free(tr);
    fx_board_free(b);
}

/* With the ID checked in the effect's transaction, recording it is part of
 * the effect's row, so the timeline with the check is no taller than the
 * one without. */
static void record_in_transaction_is_one_row(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry tr[] = {
        {0, SIM_TR_ARRIVE, 1, 0, -1, 0, 0},     {1000, SIM_TR_SEND, 1, 1, 2, 1, 0},
        {2000, SIM_TR_RECEIVE, 1, 2, 1, 0, 0},  {3000, SIM_TR_CALL, 1, 2, 3, 0, 0},
        {150000, SIM_TR_EFFECT, 1, 3, 2, 1, 0}, {150000, SIM_TR_RECORD_KEY, 1, 2, -1, 0, 0},
        {150000, SIM_TR_REPLY, 1, 2, 1, 0, 0},  {151000, SIM_TR_ACKED, 1, 1, 2, 0, 0},
    };
    size_t n = sizeof tr / sizeof tr[0];
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_int_equal(count(&l, DTL_OTHER_MARK), 0);
    assert_string_equal(find(&l, DTL_EFFECT)->text, "payment 1 charged, ID recorded");
    dtimeline_layout_free(&l);
    /* recorded after the effect, in a step of its own: a row of its own */
    b->sim.parts[2].idempotency = SIM_IDEM_KEY_AFTER_EFFECT;
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    assert_int_equal(count(&l, DTL_OTHER_MARK), 1);
    assert_string_equal(find(&l, DTL_EFFECT)->text, "payment 1 charged");
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    fx_board_free(b);
}

/* The second release's steps: a relay publishes from the outbox, its
 * confirm is lost, it publishes again, the broker queues a second copy,
 * and the second hop's handler applies the event twice (not "charged three
 * times": effects count per handler). */
static void outbox_relay_publishes_twice(void **state)
{
    (void)state;
    const fx_part parts[] = {
        {"users", "Checkout", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"q", "Order queue", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"orders", "Orders", SIM_KIND_CONSUMER, 1, 1, false, SIM_IDEM_KEY_IN_TRANSACTION},
        {"odb", "Order database", SIM_KIND_DATABASE, 1, 1, false, SIM_IDEM_NONE},
        {"events", "Event broker", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"ship", "Shipping", SIM_KIND_CONSUMER, 1, 1, false, SIM_IDEM_NONE},
        {"sdb", "Shipping database", SIM_KIND_DATABASE, 1, 1, false, SIM_IDEM_NONE},
    };
    const fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false}, {1, 2, SIM_PROTO_AMQP, 0, 0, NULL, 0, false},
        {2, 3, SIM_PROTO_SQL, 0, 0, NULL, 0, false},   {2, 4, SIM_PROTO_AMQP, 0, 0, NULL, 0, false},
        {4, 5, SIM_PROTO_AMQP, 0, 0, NULL, 0, false},  {5, 6, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
    };
    bp_board *b = fx_board("ob", "Outbox", parts, 7, links, 6);
    sim_trace_entry tr[] = {
        {0, SIM_TR_ARRIVE, 1, 0, -1, 0, 0},       {1000, SIM_TR_SEND, 1, 1, 2, 1, 0},
        {2000, SIM_TR_RECEIVE, 1, 2, 1, 1, 0},    {9000, SIM_TR_EFFECT, 1, 3, 2, 1, 0},
        {9000, SIM_TR_OUTBOX, 1, 3, -1, 0, 0},    {9000, SIM_TR_RECORD_KEY, 1, 2, -1, 0, 0},
        {9000, SIM_TR_REPLY, 1, 2, 1, 1, 0},      {10000, SIM_TR_ACKED, 1, 1, 2, 1, 0},
        {2000000, SIM_TR_PUBLISH, 1, 2, 4, 1, 0}, {2000500, SIM_TR_ACCEPT, 1, 4, 2, 1, 0},
        {2000500, SIM_TR_SEND, 1, 4, 5, 1, 0},    {2000500, SIM_TR_LOST_REPLY, 1, 4, 2, 1, 0},
        {2001000, SIM_TR_RECEIVE, 1, 5, 4, 1, 0}, {2008000, SIM_TR_EFFECT, 1, 6, 5, 1, 0},
        {2008000, SIM_TR_REPLY, 1, 5, 4, 1, 0},   {2009000, SIM_TR_ACKED, 1, 4, 5, 1, 0},
        {4000000, SIM_TR_PUBLISH, 1, 2, 4, 1, 0}, {4000500, SIM_TR_ACCEPT, 1, 4, 2, 2, 1},
        {4000500, SIM_TR_SEND, 1, 4, 5, 1, 1},    {4001000, SIM_TR_RECEIVE, 1, 5, 4, 1, 1},
        {4001500, SIM_TR_CONFIRM, 1, 2, 4, 1, 0}, {4008000, SIM_TR_EFFECT, 1, 6, 5, -1, 1},
        {4008000, SIM_TR_REPLY, 1, 5, 4, 1, 1},   {4009000, SIM_TR_ACKED, 1, 4, 5, 1, 1},
    };
    size_t n = sizeof tr / sizeof tr[0];
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_WIDE, &l, err, sizeof err), 0);
    const char *want[] = {
        "payment 1 charged, event in outbox, ID recorded",
        "event of payment 1",
        "confirm 1 lost",
        "event of payment 1 again",
        "payment 1 queued twice",
        "confirm 1",
        "payment 1 handled",
        "payment 1 handled twice",
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        bool found = false;
        for (size_t i = 0; i < l.n_items && !found; i++)
            found = strcmp(l.items[i].text, want[w]) == 0;
        if (!found)
            fail_msg("no timeline row says \"%s\"", want[w]);
    }
    for (size_t i = 0; i < l.n_items; i++)
        if (strstr(l.items[i].text, "3 times") || strstr(l.items[i].text, "charged twice"))
            fail_msg("effects of two hops counted together: \"%s\"", l.items[i].text);
    /* the lost confirm goes from the event broker back towards the relay */
    const dtl_item *lost = find(&l, DTL_LOST);
    assert_non_null(lost);
    assert_true(lost->from_lane > lost->to_lane);
    assert_int_equal(count(&l, DTL_DUPLICATE), 1);
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    fx_board_free(b);
}

/* Six payments alike but for their numbers: the first is drawn, the other
 * five fold into one line; every trace entry names the row that shows it
 * (a receive or an ack none, a lost reply its reply's), and the drawing
 * marks the rows and the fold where the page cuts it. */
static void repeats_fold(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry *tr = xcalloc(64, sizeof *tr);
    size_t n = 0;
    for (int64_t k = 1; k <= 6; k++) {
        int64_t t0 = (k - 1) * 1000000;
        tr[n++] = (sim_trace_entry){t0, SIM_TR_ARRIVE, k, 0, -1, 0, 0};
        tr[n++] = (sim_trace_entry){t0 + 1000, SIM_TR_SEND, k, 1, 2, 1, 0};
        tr[n++] = (sim_trace_entry){t0 + 2000, SIM_TR_RECEIVE, k, 2, 1, 1, 0};
        tr[n++] = (sim_trace_entry){t0 + 150000, SIM_TR_EFFECT, k, 3, 2, 1, 0};
        tr[n++] = (sim_trace_entry){t0 + 152000, SIM_TR_REPLY, k, 2, 1, 0, 0};
        tr[n++] = (sim_trace_entry){t0 + 153000,
                                    k == 6 ? SIM_TR_LOST_REPLY : SIM_TR_ACKED,
                                    k,
                                    k == 6 ? 2 : 1,
                                    k == 6 ? 1 : 2,
                                    0,
                                    0};
    }
    dcanvas *m = dcanvas_new_measure();
    dtimeline_layout l;
    char err[256];
    assert_int_equal(dtimeline_layout_make(m, b, tr, n, DRAW_NARROW, &l, err, sizeof err), 0);
    /* four rows a payment: arrives, delivered, charged, ack (the sixth's lost) */
    assert_int_equal(l.n_items, 24);
    assert_int_equal(l.n_folds, 1);
    assert_int_equal(l.folds[0].first, 4);
    assert_int_equal(l.folds[0].end, 20); /* the sixth differs: its ack is lost */
    assert_string_equal(l.folds[0].words, "\xE2\x80\xA6 4 more payments like this");
    for (size_t i = 0; i < l.n_items; i++)
        assert_int_equal(l.items[i].fold, i >= 4 && i < 20 ? 1 : 0);
    assert_int_equal(l.n_entries, n);
    assert_int_equal(l.row_of[0], 0);      /* the arrival */
    assert_int_equal(l.row_of[2], -1);     /* a receive: shown by its arrow */
    assert_int_equal(l.row_of[5], -1);     /* an ack */
    assert_int_equal(l.row_of[n - 2], 23); /* the sixth's reply, lost */
    assert_int_equal(l.row_of[n - 1], 23); /* ... and its loss, the same row */
    dtimeline_layout_free(&l);
    dcanvas_free(m);
    /* the page's words and the drawing's marks say the same */
    buf words, rows, svg, alt;
    buf_init(&words);
    buf_init(&rows);
    buf_init(&svg);
    buf_init(&alt);
    assert_int_equal(draw_timeline_rows(b, tr, n, &words, &rows, err, sizeof err), 0);
    assert_non_null(strstr(words.data, "0 s: payment 1|"));
    assert_non_null(strstr(words.data, ": ack 6 lost"));
    assert_null(strstr(words.data + strlen(words.data) - 12, "|"));
    assert_non_null(strstr(rows.data, "0 1 -1 2 3 -1 4 5 -1"));
    draw_look look = {DRAW_NARROW, DRAW_LIGHT};
    assert_int_equal(draw_timeline(b, tr, n, look, &svg, &alt, err, sizeof err), 0);
    assert_non_null(strstr(svg.data, "data-row=\"23\" data-lanes=\"2 1\""));
    assert_non_null(
        strstr(svg.data, "data-span=\"4 20\" data-words=\"\xE2\x80\xA6 4 more payments"));
    assert_non_null(strstr(svg.data, "data-lane=\"3\""));
    buf_free(&words);
    buf_free(&rows);
    buf_free(&svg);
    buf_free(&alt);
    free(tr);
    fx_board_free(b);
}

static void bad_traces(void **state)
{
    (void)state;
    bp_board *b = fx_mini();
    sim_trace_entry *tr;
    size_t n = fx_mini_trace(true, &tr);
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_timeline(b, tr, 0, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the trace to draw is empty");
    tr[4].part = 9;
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "trace event 5 names a part the board does not have");
    tr[4].part = 3;
    tr[4].t_us = 0;
    assert_int_equal(draw_timeline(b, tr, n, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "trace event 5 is earlier than the event before it");
    assert_int_equal(svg.len, 0);
    free(tr);
    fx_board_free(b);
    buf_free(&svg);
    buf_free(&alt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lost_ack_then_skip),
        cmocka_unit_test(duplicate_charge_highlighted),
        cmocka_unit_test(crash_restart_marks),
        cmocka_unit_test(racing_tries_named),
        cmocka_unit_test(narrow_and_dark),
        cmocka_unit_test(record_in_transaction_is_one_row),
        cmocka_unit_test(outbox_relay_publishes_twice),
        cmocka_unit_test(repeats_fold),
        cmocka_unit_test(bad_traces),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    draw_shutdown();
    return rc;
}

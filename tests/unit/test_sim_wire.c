/* test_sim_wire.c — the board and results encodings (sim-core/wire.h):
 * every field of every struct reaches the wire and comes back with the same
 * bits; hostile bytes are refused with a sentence; a decoded board runs to
 * the same result bits; the results layout is the one WIRE.md documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"
#include "wire.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

typedef struct {
    uint8_t *v;
    size_t n;
} bytes;

static bytes encode(const sim_wire_request *q)
{
    size_t n = sim_wire_encode(&q->board, &q->limits, q->want_trace, NULL, 0);
    bytes b = {malloc(n + 16), n};
    assert_non_null(b.v);
    memset(b.v, 0xa5, n + 16);
    assert_int_equal(sim_wire_encode(&q->board, &q->limits, q->want_trace, b.v, n), n);
    for (size_t i = n; i < n + 16; i++) /* nothing written past cap */
        assert_int_equal(b.v[i], 0xa5);
    return b;
}

static bool same_bytes(bytes a, bytes b)
{
    return a.n == b.n && memcmp(a.v, b.v, a.n) == 0;
}

static bool same_f64(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_latency(sim_latency a, sim_latency b)
{
    return a.median_us == b.median_us && a.p99_us == b.p99_us;
}

/* Every field, by name: what the wire must carry. */
static bool same_part(const sim_part *a, const sim_part *b)
{
    return a->kind == b->kind && same_f64(a->vcpu, b->vcpu) && same_f64(a->gb, b->gb) &&
           a->external == b->external && same_f64(a->fixed_usd_month, b->fixed_usd_month) &&
           a->tries == b->tries && a->redelivery_after_us == b->redelivery_after_us &&
           a->timeout_us == b->timeout_us && a->delivery == b->delivery &&
           a->message_id == b->message_id && a->dedup_window_us == b->dedup_window_us &&
           a->dead_letter == b->dead_letter && same_f64(a->backoff_factor, b->backoff_factor) &&
           a->backoff_max_us == b->backoff_max_us && a->backoff_jitter == b->backoff_jitter &&
           a->concurrency == b->concurrency && same_latency(a->work, b->work) &&
           a->idempotency == b->idempotency && a->key_ttl_us == b->key_ttl_us &&
           same_f64(a->crash_after_effect, b->crash_after_effect) &&
           same_f64(a->crash_after_commit, b->crash_after_commit) &&
           a->restart_us == b->restart_us && a->lease_us == b->lease_us &&
           a->publish == b->publish && a->relay_every_us == b->relay_every_us &&
           same_latency(a->call, b->call) && same_f64(a->fail, b->fail) &&
           same_latency(a->write, b->write) && same_str(a->id, b->id);
}

static bool same_link(const sim_link *a, const sim_link *b)
{
    if (a->n_lose_reply_of != b->n_lose_reply_of)
        return false;
    for (size_t i = 0; i < a->n_lose_reply_of; i++)
        if (a->lose_reply_of[i] != b->lose_reply_of[i])
            return false;
    return a->from == b->from && a->to == b->to && a->protocol == b->protocol &&
           a->rtt_us == b->rtt_us && same_f64(a->reply_round_trips, b->reply_round_trips) &&
           same_f64(a->lose_request, b->lose_request) && same_f64(a->lose_reply, b->lose_reply) &&
           a->transactional == b->transactional;
}

static bool same_request(const sim_wire_request *a, const sim_wire_request *b)
{
    const sim_board *x = &a->board, *y = &b->board;
    const sim_limits *p = &a->limits, *q = &b->limits;
    if (p->max_jobs != q->max_jobs || p->max_events != q->max_events ||
        p->max_board_events != q->max_board_events || p->max_replications != q->max_replications ||
        p->max_trace != q->max_trace || a->want_trace != b->want_trace)
        return false;
    if (!same_str(x->id, y->id) || x->seed != y->seed || x->replications != y->replications ||
        !same_f64(x->until, y->until) || x->until_max != y->until_max || x->expect != y->expect ||
        !same_f64(x->prices.vcpu_usd_month, y->prices.vcpu_usd_month) ||
        !same_f64(x->prices.gb_usd_month, y->prices.gb_usd_month))
        return false;
    const sim_traffic *s = &x->traffic, *t = &y->traffic;
    if (s->from != t->from || s->jobs != t->jobs || s->over_us != t->over_us || s->op != t->op ||
        s->arrivals != t->arrivals || !same_f64(s->repeat_share, t->repeat_share) ||
        !same_f64(s->poison, t->poison))
        return false;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &x->goals[m], *h = &y->goals[m];
        /* a bound that is not set does not travel */
        if (g->has_max != h->has_max || g->has_min != h->has_min ||
            (g->has_max && !same_f64(g->max, h->max)) || (g->has_min && !same_f64(g->min, h->min)))
            return false;
    }
    if (x->n_parts != y->n_parts || x->n_links != y->n_links)
        return false;
    for (size_t i = 0; i < x->n_parts; i++)
        if (!same_part(&x->parts[i], &y->parts[i]))
            return false;
    for (size_t i = 0; i < x->n_links; i++)
        if (!same_link(&x->links[i], &y->links[i]))
            return false;
    return true;
}

/* A board with every value away from its default: negative, huge, NaN
 * and subnormal bits, NULL and empty ids, both goal bounds. */
typedef struct {
    tb_board t;
    int64_t jobs2[3];
    sim_wire_request q;
} fixture;

static void fixture_init(fixture *f)
{
    tb_init(&f->t, TB_BROKER | TB_PROVIDER | TB_DATABASE, 40);
    sim_board *b = &f->t.b;
    static const int64_t lost[] = {1, 7, 40};
    tb_lose_reply_of(&f->t, lost, 3);
    f->jobs2[0] = -3;
    f->jobs2[1] = INT64_MAX;
    f->jobs2[2] = INT64_MIN;
    f->t.links[f->t.call].lose_reply_of = f->jobs2;
    f->t.links[f->t.call].n_lose_reply_of = 3;
    f->t.parts[f->t.database].id = NULL;
    f->t.parts[f->t.provider].id = "";
    f->t.parts[f->t.handler].crash_after_effect = 0x1p-1074; /* subnormal */
    f->t.parts[f->t.handler].idempotency = SIM_IDEM_BUSINESS_KEY;
    f->t.parts[f->t.broker].fixed_usd_month = -0.0;
    f->t.parts[f->t.provider].fail = nan("0x5a5");
    b->seed = UINT64_MAX;
    b->replications = 3;
    b->expect = SIM_EXPECT_FAIL;
    b->goals[SIM_M_DUPLICATES] = (sim_goal){true, false, 0, 0};
    b->goals[SIM_M_LATENCY_P99] = (sim_goal){true, true, 0.25, 1e-9};
    b->goals[SIM_M_EVENTS] = (sim_goal){false, true, 0, -1e300};
    f->q.board = *b;
    f->q.limits = sim_limits_default();
    f->q.limits.max_trace = 77;
    f->q.limits.max_replications = -2;
    f->q.want_trace = true;
}

/* Change field k of the request (in the order of the structs) to a value
 * the fixture does not hold; false past the last field. */
/* one field a line */
/* clang-format off */
static bool mutate(fixture *f, int k)
{
    sim_wire_request *q = &f->q;
    sim_board *b = &q->board;
    sim_part *p = &f->t.parts[f->t.handler];
    sim_link *l = &f->t.links[f->t.delivery];
    sim_traffic *t = &b->traffic;
    static const int64_t other[] = {2, 3, 4};
    switch (k) {
    case 0: q->limits.max_jobs = 12; return true;
    case 1: q->limits.max_events = -1; return true;
    case 2: q->limits.max_board_events = INT64_MAX; return true;
    case 3: q->limits.max_replications = 5; return true;
    case 4: q->limits.max_trace = 0; return true;
    case 5: q->want_trace = false; return true;
    case 6: b->id = "another-board"; return true;
    case 7: b->id = NULL; return true;
    case 8: b->seed = 0; return true;
    case 9: b->replications = INT32_MIN; return true;
    case 10: b->expect = SIM_EXPECT_PASS; return true;
    case 11: b->prices.vcpu_usd_month = 5.000000000000001; return true;
    case 12: b->prices.gb_usd_month = INFINITY; return true;
    case 13: t->from = -1; return true;
    case 14: t->jobs = 41; return true;
    case 15: t->over_us = 400001; return true;
    case 16: t->op = SIM_OP_SET; return true;
    case 17: t->arrivals = SIM_ARRIVALS_POISSON; return true;
    case 18: t->repeat_share = 0.125; return true;
    case 19: b->goals[SIM_M_JOBS].has_max = true; return true;
    case 20: b->goals[SIM_M_JOBS].has_min = true; return true;
    case 21: b->goals[SIM_M_LATENCY_P99].max = nextafter(0.25, 1); return true;
    case 22: b->goals[SIM_M_LATENCY_P99].min = 0; return true;
    case 23: b->n_parts--; return true; /* the database goes */
    case 24: b->n_links--; return true;
    case 25: p->kind = SIM_KIND_SERVICE; return true;
    case 26: p->vcpu = 2.5; return true;
    case 27: p->gb = 0.5; return true;
    case 28: p->external = true; return true;
    case 29: p->fixed_usd_month = 3; return true;
    case 30: p->tries = 6; return true;
    case 31: p->redelivery_after_us = 7; return true;
    case 32: p->timeout_us = -8; return true;
    case 33: p->delivery = SIM_DELIVERY_AT_MOST_ONCE; return true;
    case 34: p->concurrency = 100000; return true;
    case 35: p->work.median_us = 11; return true;
    case 36: p->work.p99_us = 12; return true;
    case 37: p->idempotency = SIM_IDEM_PROVIDER_KEY; return true;
    case 38: p->key_ttl_us = 300000000; return true;
    case 39: p->crash_after_effect = 0.5; return true;
    case 40: p->restart_us = 0; return true;
    case 41: p->call.median_us = 13; return true;
    case 42: p->call.p99_us = 14; return true;
    case 43: p->fail = 1; return true;
    case 44: p->write.median_us = 15; return true;
    case 45: p->write.p99_us = 16; return true;
    case 46: p->id = "processor2"; return true;
    case 47: p->id = NULL; return true;
    case 48: l->from = 0; return true;
    case 49: l->to = 3; return true;
    case 50: l->protocol = SIM_PROTO_SQL; return true;
    case 51: l->rtt_us = 1999; return true;
    case 52: l->reply_round_trips = 0.75; return true;
    case 53: l->lose_request = 0.001; return true;
    case 54: l->lose_reply = 0.2; return true;
    case 55: l->lose_reply_of = other; return true;
    case 56: l->n_lose_reply_of = 2; return true;
    case 57: l->n_lose_reply_of = 0; return true;
    case 58: l->transactional = true; return true;
    case 59: p->message_id = SIM_MESSAGE_ID_PER_PUBLISH; return true;
    case 60: p->dedup_window_us = SIM_FOREVER; return true;
    case 61: p->crash_after_commit = 0.25; return true;
    case 62: p->lease_us = 31000000; return true;
    case 63: p->publish = SIM_PUBLISH_OUTBOX; return true;
    case 64: p->relay_every_us = 5000000; return true;
    case 65: b->until = 0.02; return true;
    case 66: b->until_max = 200; return true;
    case 67: t->poison = 0.25; return true;
    case 68: p->dead_letter = 2; return true;
    case 69: p->backoff_factor = 1.5; return true;
    case 70: p->backoff_max_us = 60000000; return true;
    case 71: p->backoff_jitter = true; return true;
    default: return false;
    }
}
/* clang-format on */

/* ------------------------------------------------------------------ board */

static void round_trips_every_field(void **state)
{
    (void)state;
    fixture base;
    fixture_init(&base);
    bytes b0 = encode(&base.q);
    int fields = 0;
    for (int k = 0;; k++) {
        fixture f;
        fixture_init(&f);
        if (!mutate(&f, k))
            break;
        fields++;
        bytes b = encode(&f.q);
        if (same_bytes(b, b0))
            fail_msg("mutation %d does not change the encoding: a field is not on the wire", k);
        sim_wire_request d;
        char msg[256];
        if (sim_wire_decode(b.v, b.n, &d, msg, sizeof msg) != 0)
            fail_msg("mutation %d: %s", k, msg);
        if (!same_request(&f.q, &d))
            fail_msg("mutation %d comes back different", k);
        bytes again = encode(&d);
        assert_true(same_bytes(b, again)); /* one encoding per value */
        free(again.v);
        sim_wire_request_free(&d);
        free(b.v);
    }
    assert_int_equal(fields, 72);

    sim_wire_request d;
    char msg[256] = "x";
    assert_int_equal(sim_wire_decode(b0.v, b0.n, &d, msg, sizeof msg), 0);
    assert_string_equal(msg, "");
    assert_true(same_request(&base.q, &d));
    /* NaN payload, -0.0 and the subnormal keep their bits */
    assert_true(same_f64(d.board.parts[base.t.provider].fail, nan("0x5a5")));
    assert_true(signbit(d.board.parts[base.t.broker].fixed_usd_month));
    assert_null(d.board.parts[base.t.database].id);
    assert_string_equal(d.board.parts[base.t.provider].id, "");
    sim_wire_request_free(&d);
    sim_wire_request_free(&d); /* emptied: a no-op */
    sim_wire_request_free(NULL);
    free(b0.v);
}

/* The bytes the version takes after the magic (a varint of
 * sim_wire_version(), derived from schema.h's rows). */
static size_t version_len(void)
{
    size_t n = 1;
    for (uint64_t v = sim_wire_version(); v >= 0x80; v >>= 7)
        n++;
    return n;
}

static void header_and_size(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    size_t n = sim_wire_encode(&t.b, NULL, false, NULL, 0);
    uint8_t buf[512];
    assert_true(n < sizeof buf);
    assert_int_equal(sim_wire_encode(&t.b, NULL, false, buf, sizeof buf), n);
    assert_memory_equal(buf, "BPSW", 4);
    uint64_t version = 0;
    for (size_t i = 0; i < version_len(); i++)
        version |= (uint64_t)(buf[4 + i] & 0x7f) << (7 * i);
    assert_true(version == sim_wire_version());
    /* three parts and two links fit in a few hundred bytes: about two bytes
       a field (most are small or zero), at most three, beside the header
       and the goals */
#define ONE_FIELD(...) +1
    size_t fields = 0 SIM_REQUEST_FIELDS(ONE_FIELD, ONE_FIELD)
                        SIM_BOARD_FIELDS(ONE_FIELD, ONE_FIELD) +
                    3 * (0 SIM_PART_FIELDS(ONE_FIELD, ONE_FIELD)) +
                    2 * (0 SIM_LINK_FIELDS(ONE_FIELD, ONE_FIELD));
#undef ONE_FIELD
    if (n > 4 + version_len() + 3 * fields + 1 + SIM_M_COUNT)
        fail_msg("%zu bytes for %zu fields", n, fields);
    /* limits left out are the defaults */
    sim_wire_request d;
    char msg[128];
    assert_int_equal(sim_wire_decode(buf, n, &d, msg, sizeof msg), 0);
    sim_limits def = sim_limits_default();
    assert_true(d.limits.max_jobs == def.max_jobs && d.limits.max_trace == def.max_trace &&
                d.limits.max_board_events == def.max_board_events);
    assert_false(d.want_trace);
    sim_wire_request_free(&d);
    /* a short buffer gets the first bytes only */
    memset(buf, 0, sizeof buf);
    assert_int_equal(sim_wire_encode(&t.b, NULL, false, buf, 3), n);
    assert_memory_equal(buf, "BPS\0", 4);
}

static void expect_refused(const uint8_t *v, size_t n, const char *want)
{
    sim_wire_request d;
    char msg[256];
    assert_int_equal(sim_wire_decode(v, n, &d, msg, sizeof msg), -1);
    if (want && strcmp(msg, want) != 0)
        fail_msg("got \"%s\"; expected \"%s\"", msg, want);
    assert_true(msg[0] != '\0');
    assert_null(d.board.parts);
    assert_null(d.board.links);
    assert_null(d.board.id);
}

/* Every prefix and every one-byte extension of a good encoding is refused. */
static void cut_and_padded_bytes_are_refused(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f);
    bytes b = encode(&f.q);
    for (size_t n = 0; n < b.n; n++)
        expect_refused(b.v, n, NULL);
    expect_refused(NULL, 0,
                   "bad board bytes at byte 0 (header): not a boardpress board encoding "
                   "(it starts with \"BPSW\")");
    uint8_t *longer = malloc(b.n + 1);
    memcpy(longer, b.v, b.n);
    longer[b.n] = 0;
    char want[128];
    snprintf(
        want, sizeof want,
        "bad board bytes at byte %zu (the end): the board ends here, but 1 more byte(s) follow",
        b.n);
    expect_refused(longer, b.n + 1, want);
    free(longer);
    free(b.v);
}

/* A small board written byte by byte, to damage one value at a time. */
static size_t small_board(uint8_t *v, size_t cap)
{
    tb_board t;
    tb_init(&t, 0, 3);
    t.b.id = "b";
    t.parts[0].id = NULL;
    t.parts[1].id = NULL;
    return sim_wire_encode(&t.b, NULL, false, v, cap);
}

static void damaged_values_are_refused(void **state)
{
    (void)state;
    uint8_t v[512], w[512];
    size_t n = small_board(v, sizeof v);
    assert_true(n < sizeof v);
    /* header: magic, version */
    memcpy(w, v, n);
    w[0] = 'X';
    expect_refused(w, n,
                   "bad board bytes at byte 0 (header): not a boardpress board encoding "
                   "(it starts with \"BPSW\")");
    memcpy(w, v, n);
    w[4] = 1;
    char old_version[160];
    snprintf(old_version, sizeof old_version,
             "bad board bytes at byte 4 (header): the board encoding is version 1; this "
             "simulator reads version %llu",
             (unsigned long long)sim_wire_version());
    expect_refused(w, n, old_version);
    /* limits: max_jobs 10000000 is the zigzag varint 80 da c4 09 */
    size_t at = 4 + version_len();
    char want[160];
    assert_memory_equal(v + at, "\x80\xda\xc4\x09", 4);
    /* a varint that does not end where its value does */
    uint8_t longer[520];
    memcpy(longer, v, at + 3);
    longer[at + 3] = 0x89; /* 09 with the continuation bit, then 00 */
    longer[at + 4] = 0x00;
    memcpy(longer + at + 5, v + at + 4, n - at - 4);
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (limits): limits.max_jobs is not in its shortest form",
             at);
    expect_refused(longer, n + 1, want);
    /* eleven bytes of continuation */
    memset(longer, 0, sizeof longer);
    memcpy(longer, v, at);
    memset(longer + at, 0xff, 10);
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (limits): limits.max_jobs does not fit in 64 bits", at);
    expect_refused(longer, at + 12, want);
    /* want_trace is a byte after the four limits */
    size_t trace_at = at + 4 + 5 + 5 + 2 + 3; /* 10^7, 2*10^8, 4*10^8, 1000, 20000 */
    assert_int_equal(v[trace_at], 0);
    memcpy(w, v, n);
    w[trace_at] = 2;
    snprintf(want, sizeof want, "bad board bytes at byte %zu (limits): want_trace is 2, not 0 or 1",
             trace_at);
    expect_refused(w, n, want);
    /* the board id "b": length + 1, then the byte; a NUL inside is refused */
    size_t id_at = trace_at + 1;
    assert_int_equal(v[id_at], 2);
    assert_int_equal(v[id_at + 1], 'b');
    memcpy(w, v, n);
    w[id_at + 1] = 0;
    snprintf(want, sizeof want, "bad board bytes at byte %zu (the board): id holds a NUL byte",
             id_at);
    expect_refused(w, n, want);
    memcpy(w, v, n);
    w[id_at] = 0x7f;
    expect_refused(w, n, NULL); /* longer than what is left, or garbage after it */
    /* seed 1, replications 1 (zigzag 2), until 0, until_max 0, expect 0 */
    size_t reps_at = id_at + 2 + 1, expect_at = reps_at + 1 + 1 + 1;
    assert_int_equal(v[reps_at], 2);
    assert_int_equal(v[expect_at], 0);
    memcpy(w, v, n);
    w[expect_at] = 3;
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (the board): expect is 3; it has 3 values", expect_at);
    expect_refused(w, n, want);
    /* replications beyond an int */
    memcpy(longer, v, reps_at);
    memcpy(longer + reps_at, "\x80\x80\x80\x80\x10", 5);
    memcpy(longer + reps_at + 5, v + reps_at + 1, n - reps_at - 1);
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (the board): replications is 2147483648, out of range",
             reps_at);
    expect_refused(longer, n + 4, want);
    /* the number of parts: more than the bytes left can hold */
    /* prices 5 and 1 (reversed bits 0x1440, 0xf03f), then the traffic: from
     * 0, jobs 3, over 30 ms, op, arrivals, repeat_share 0, poison 0 */
    size_t parts_at = expect_at + 1 + 2 + 3 + 1 + 1 + 3 + 1 + 1 + 1 + 1;
    assert_int_equal(v[parts_at], 2);
    memcpy(w, v, n);
    w[parts_at] = 100;
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (the board): the number of parts says 100, more than "
             "the %zu bytes left can hold",
             parts_at, n - parts_at - 1);
    expect_refused(w, n, want);
    /* part 1's kind */
    memcpy(w, v, n);
    w[parts_at + 1] = SIM_KIND_COUNT;
    snprintf(want, sizeof want, "bad board bytes at byte %zu (part 1): kind is 7; it has 7 values",
             parts_at + 1);
    expect_refused(w, n, want);
    /* the goals: a count other than the simulator's, and unknown flags */
    size_t goals_at = n - SIM_M_COUNT - 1;
    assert_int_equal(v[goals_at], SIM_M_COUNT);
    memcpy(w, v, n);
    w[goals_at] = SIM_M_COUNT + 1;
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (goals): goals for %d measures; the simulator has %d",
             goals_at, SIM_M_COUNT + 1, SIM_M_COUNT);
    expect_refused(w, n, want);
    memcpy(w, v, n);
    w[n - 1] = 4;
    snprintf(want, sizeof want,
             "bad board bytes at byte %zu (goals): the goal flags of %s are 4; only 1 (max) "
             "and 2 (min) exist",
             n - 1, sim_measure_name(SIM_M_COUNT - 1));
    expect_refused(w, n, want);
    memcpy(w, v, n);
    w[n - 1] = 1; /* a max bound whose eight bytes are missing */
    snprintf(want, sizeof want, "bad board bytes at byte %zu (goals): the bytes end inside %s",
             n - 1, sim_measure_name(SIM_M_COUNT - 1));
    expect_refused(w, n, want);
}

/* A decoded board runs to the very bits of the board it came from. */
static void decoded_board_runs_the_same(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 300);
    t.b.replications = 5;
    t.b.traffic.arrivals = SIM_ARRIVALS_POISSON;
    t.parts[t.provider].call = (sim_latency){150000, 900000};
    t.parts[t.handler].work = (sim_latency){8000, 60000};
    t.parts[t.handler].crash_after_effect = 0.02;
    t.links[t.delivery].lose_reply = 0.2;
    t.b.goals[SIM_M_DUPLICATES] = (sim_goal){true, false, 0, 0};
    uint8_t buf[1024];
    size_t n = sim_wire_encode(&t.b, NULL, true, buf, sizeof buf);
    assert_true(n <= sizeof buf);
    sim_wire_request d;
    char msg[256];
    assert_int_equal(sim_wire_decode(buf, n, &d, msg, sizeof msg), 0);
    sim_result a, b;
    assert_int_equal(sim_run(&t.b, NULL, true, &a, msg, sizeof msg), 0);
    assert_int_equal(sim_run(&d.board, &d.limits, d.want_trace, &b, msg, sizeof msg), 0);
    assert_memory_equal(a.m, b.m, sizeof a.m);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        assert_true(same_f64(a.goals[m].worst, b.goals[m].worst));
        assert_int_equal(a.goals[m].pass, b.goals[m].pass);
    }
    assert_true(a.n_trace > 100);
    assert_int_equal(a.n_trace, b.n_trace);
    assert_memory_equal(a.trace, b.trace, a.n_trace * sizeof *a.trace);
    size_t na = sim_wire_result_encode(&a, NULL, 0);
    uint8_t *ra = malloc(na), *rb = malloc(na);
    assert_int_equal(sim_wire_result_encode(&a, ra, na), na);
    assert_int_equal(sim_wire_result_encode(&b, rb, na), na);
    assert_memory_equal(ra, rb, na);
    free(ra);
    free(rb);
    sim_result_free(&a);
    sim_result_free(&b);
    sim_wire_request_free(&d);
}

/* ------------------------------------------------------------------ results */

static uint64_t le(const uint8_t *p, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static double f64_at(const uint8_t *p)
{
    uint64_t u = le(p, 8);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static void results_layout(void **state)
{
    (void)state;
    sim_result r;
    memset(&r, 0, sizeof r);
    r.replications = 20;
    for (int m = 0; m < SIM_M_COUNT; m++)
        r.m[m] = (sim_stat){m + 0.5, -m - 0.25, 1e300 * m, 0x1p-1074 * m};
    r.goals[SIM_M_DUPLICATES] = (sim_goal_result){true, 229, false};
    r.goals[SIM_M_EVENTS] = (sim_goal_result){true, -0.0, true};
    r.all_goals_pass = false;
    r.expect_ok = true;
    sim_trace_entry tr[2] = {
        {123456789012, SIM_TR_DROPPED, 7, 2, -1, -5, 2},
        {INT64_MAX, SIM_TR_ARRIVE, 1, 0, 3, 0, 0},
    };
    r.trace = tr;
    r.n_trace = 2;
    r.trace_truncated = true;
    r.deterministic = true;
    r.latency_samples = 0x123456789a;

    size_t n = sim_wire_result_encode(&r, NULL, 0);
    enum { HEAD = 32, MEASURES = 32 * SIM_M_COUNT, GOALS = 16 * SIM_M_COUNT, ENTRY = 40 };
    assert_int_equal(n, HEAD + MEASURES + GOALS + 2 * ENTRY);
    uint8_t *v = malloc(n);
    assert_int_equal(sim_wire_result_encode(&r, v, n), n);
    assert_memory_equal(v, "BPSR", 4);
    assert_int_equal(le(v + 4, 4), SIM_WIRE_RESULT_VERSION);
    assert_int_equal(le(v + 8, 4), SIM_M_COUNT);
    assert_int_equal(le(v + 12, 4), 20);
    assert_int_equal(le(v + 16, 4), 2 | 4 | 8); /* expect_ok, trace_truncated, deterministic */
    assert_int_equal(le(v + 20, 4), 2);
    assert_int_equal(le(v + 24, 8), 0x123456789a);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const uint8_t *s = v + HEAD + 32 * m;
        assert_true(same_f64(f64_at(s), r.m[m].mean));
        assert_true(same_f64(f64_at(s + 8), r.m[m].min));
        assert_true(same_f64(f64_at(s + 16), r.m[m].max));
        assert_true(same_f64(f64_at(s + 24), r.m[m].ci95));
        const uint8_t *g = v + HEAD + MEASURES + 16 * m;
        assert_true(same_f64(f64_at(g), r.goals[m].worst));
        assert_int_equal(le(g + 8, 4), (r.goals[m].present ? 1 : 0) | (r.goals[m].pass ? 2 : 0));
        assert_int_equal(le(g + 12, 4), 0);
    }
    const uint8_t *e = v + HEAD + MEASURES + GOALS;
    assert_int_equal(le(e, 8), 123456789012);
    assert_int_equal(le(e + 8, 8), 7);
    assert_int_equal((int64_t)le(e + 16, 8), -5);
    assert_int_equal(le(e + 24, 4), SIM_TR_DROPPED);
    assert_int_equal(le(e + 28, 4), 2);
    assert_int_equal(le(e + 32, 4), 0xffffffffu); /* peer -1 */
    assert_int_equal(le(e + 36, 4), 2);           /* copy */
    assert_int_equal(le(e + ENTRY, 8), (uint64_t)INT64_MAX);
    assert_int_equal(le(e + ENTRY + 32, 4), 3);
    /* without a trace: the measures and goals only */
    r.trace = NULL;
    assert_int_equal(sim_wire_result_encode(&r, NULL, 0), HEAD + MEASURES + GOALS);
    /* replications: {until} met its precision */
    r.deterministic = false;
    r.until_met = true;
    assert_int_equal(sim_wire_result_encode(&r, v, n), HEAD + MEASURES + GOALS);
    assert_int_equal(le(v + 16, 4), 2 | 4 | 16);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trips_every_field),
        cmocka_unit_test(header_and_size),
        cmocka_unit_test(cut_and_padded_bytes_are_refused),
        cmocka_unit_test(damaged_values_are_refused),
        cmocka_unit_test(decoded_board_runs_the_same),
        cmocka_unit_test(results_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_trace.c — the event trace a timeline diagram is drawn from:
 * the teaching board's exact story, counts, order, the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <string.h>

static void teaching_board(tb_board *t, sim_idempotency policy)
{
    tb_init(t, TB_BROKER, 5);
    static const int64_t lost[] = {3};
    tb_lose_reply_of(t, lost, 1);
    tb_handler(t)->idempotency = policy;
}

static sim_result traced(const tb_board *t, const sim_limits *lim)
{
    sim_result res;
    char msg[256];
    if (sim_run(&t->b, lim, true, &res, msg, sizeof msg) != 0)
        fail_msg("sim_run: %s", msg);
    return res;
}

static void count_kinds(const sim_result *res, size_t n[SIM_TR_COUNT])
{
    memset(n, 0, SIM_TR_COUNT * sizeof n[0]);
    for (size_t i = 0; i < res->n_trace; i++)
        n[res->trace[i].kind]++;
}

static void times_never_go_back(const sim_result *res)
{
    for (size_t i = 1; i < res->n_trace; i++)
        assert_true(res->trace[i].t_us >= res->trace[i - 1].t_us);
}

typedef struct {
    int64_t t_ms;
    sim_trace_kind kind;
    int64_t job;
} step;

/* The whole story of the teaching board without de-duplication: users 0,
 * broker 1, processor 2. */
static void teaching_board_story(void **state)
{
    (void)state;
    static const step story[] = {
        {0, SIM_TR_ARRIVE, 1},     {1, SIM_TR_SEND, 1},        {2, SIM_TR_RECEIVE, 1},
        {10, SIM_TR_ARRIVE, 2},    {11, SIM_TR_SEND, 2},       {12, SIM_TR_EFFECT, 1},
        {12, SIM_TR_REPLY, 1},     {12, SIM_TR_RECEIVE, 2},    {14, SIM_TR_ACKED, 1},
        {20, SIM_TR_ARRIVE, 3},    {21, SIM_TR_SEND, 3},       {22, SIM_TR_EFFECT, 2},
        {22, SIM_TR_REPLY, 2},     {22, SIM_TR_RECEIVE, 3},    {24, SIM_TR_ACKED, 2},
        {30, SIM_TR_ARRIVE, 4},    {31, SIM_TR_SEND, 4},       {32, SIM_TR_EFFECT, 3},
        {32, SIM_TR_REPLY, 3},     {32, SIM_TR_LOST_REPLY, 3}, {32, SIM_TR_RECEIVE, 4},
        {40, SIM_TR_ARRIVE, 5},    {41, SIM_TR_SEND, 5},       {42, SIM_TR_EFFECT, 4},
        {42, SIM_TR_REPLY, 4},     {42, SIM_TR_RECEIVE, 5},    {44, SIM_TR_ACKED, 4},
        {52, SIM_TR_EFFECT, 5},    {52, SIM_TR_REPLY, 5},      {54, SIM_TR_ACKED, 5},
        {1021, SIM_TR_TIMEOUT, 3}, {1021, SIM_TR_SEND, 3},     {1022, SIM_TR_RECEIVE, 3},
        {1032, SIM_TR_EFFECT, 3},  {1032, SIM_TR_REPLY, 3},    {1034, SIM_TR_ACKED, 3},
    };
    size_t n_story = sizeof story / sizeof story[0];
    tb_board t;
    teaching_board(&t, SIM_IDEM_NONE);
    sim_result res = traced(&t, NULL);
    assert_false(res.trace_truncated);
    assert_int_equal(res.n_trace, n_story);
    for (size_t i = 0; i < n_story; i++) {
        const sim_trace_entry *e = &res.trace[i];
        if (e->t_us != story[i].t_ms * 1000 || e->kind != story[i].kind || e->job != story[i].job)
            fail_msg("entry %zu: %lld us %s job %lld; expected %lld ms %s job %lld", i,
                     (long long)e->t_us, sim_trace_kind_name(e->kind), (long long)e->job,
                     (long long)story[i].t_ms, sim_trace_kind_name(story[i].kind),
                     (long long)story[i].job);
    }
    /* details: try numbers, the duplicate flag, who talks to whom */
    const sim_trace_entry *lost = &res.trace[19];
    assert_int_equal(lost->part, t.handler);
    assert_int_equal(lost->peer, t.broker);
    assert_int_equal(lost->detail, 1);
    assert_int_equal(res.trace[31].detail, 2); /* the second send of job 3 */
    assert_int_equal(res.trace[31].part, t.broker);
    assert_int_equal(res.trace[31].peer, t.handler);
    assert_int_equal(res.trace[33].detail, -2); /* its effect: a duplicate, on try 2 */
    assert_int_equal(res.trace[17].detail, 1);  /* the first is not, on try 1 */
    assert_int_equal(res.trace[0].part, t.users);
    assert_int_equal(res.trace[0].peer, -1);
    sim_result_free(&res);
}

static void teaching_board_counts(void **state)
{
    (void)state;
    size_t n[SIM_TR_COUNT];
    tb_board t;
    teaching_board(&t, SIM_IDEM_NONE);
    sim_result res = traced(&t, NULL);
    times_never_go_back(&res);
    count_kinds(&res, n);
    assert_int_equal(n[SIM_TR_ARRIVE], 5);
    assert_int_equal(n[SIM_TR_SEND], 6);
    assert_int_equal(n[SIM_TR_RECEIVE], 6);
    assert_int_equal(n[SIM_TR_EFFECT], 6);
    assert_int_equal(n[SIM_TR_SKIP], 0);
    assert_int_equal(n[SIM_TR_REPLY], 6);
    assert_int_equal(n[SIM_TR_LOST_REPLY], 1);
    assert_int_equal(n[SIM_TR_ACKED], 5);
    assert_int_equal(n[SIM_TR_TIMEOUT], 1);
    assert_int_equal(n[SIM_TR_GIVE_UP], 0);
    sim_result_free(&res);

    teaching_board(&t, SIM_IDEM_KEY_IN_TRANSACTION);
    res = traced(&t, NULL);
    times_never_go_back(&res);
    count_kinds(&res, n);
    assert_int_equal(n[SIM_TR_SEND], 6);
    assert_int_equal(n[SIM_TR_RECEIVE], 6);
    assert_int_equal(n[SIM_TR_EFFECT], 5);
    assert_int_equal(n[SIM_TR_SKIP], 1);
    assert_int_equal(n[SIM_TR_RECORD_KEY], 5);
    assert_int_equal(n[SIM_TR_LOST_REPLY], 1);
    assert_int_equal(n[SIM_TR_ACKED], 5);
    for (size_t i = 0; i < res.n_trace; i++)
        if (res.trace[i].kind == SIM_TR_SKIP) {
            assert_int_equal(res.trace[i].job, 3);
            assert_int_equal(res.trace[i].t_us, 1022000);
        }
    sim_result_free(&res);
}

static void trace_is_capped(void **state)
{
    (void)state;
    tb_board t;
    teaching_board(&t, SIM_IDEM_NONE);
    sim_limits lim = sim_limits_default();
    lim.max_trace = 10;
    sim_result res = traced(&t, &lim);
    assert_int_equal(res.n_trace, 10);
    assert_true(res.trace_truncated);
    assert_int_equal(res.trace[8].kind, SIM_TR_ACKED);
    assert_int_equal(res.trace[9].kind, SIM_TR_ARRIVE);
    sim_result_free(&res);
    assert_null(res.trace);

    lim.max_trace = 36; /* exactly enough */
    res = traced(&t, &lim);
    assert_int_equal(res.n_trace, 36);
    assert_false(res.trace_truncated);
    sim_result_free(&res);
}

static void trace_is_the_first_replication(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 40);
    tb_delivery(&t)->lose_reply = 0.3;
    t.b.seed = 5;
    sim_result one = traced(&t, NULL);
    t.b.replications = 4;
    sim_result four = traced(&t, NULL);
    assert_int_equal(one.n_trace, four.n_trace);
    assert_memory_equal(one.trace, four.trace, one.n_trace * sizeof one.trace[0]);
    assert_true(four.m[SIM_M_DUPLICATES].max > four.m[SIM_M_DUPLICATES].min);
    sim_result_free(&one);
    sim_result_free(&four);
}

/* A crash inside a transaction: effect, crash, rollback; restart later. */
static void crash_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    tb_handler(&t)->crash_after_effect = 1.0;
    tb_sender(&t)->tries = 2;
    sim_result res = traced(&t, NULL);
    size_t n[SIM_TR_COUNT];
    count_kinds(&res, n);
    assert_int_equal(n[SIM_TR_EFFECT], 2);
    assert_int_equal(n[SIM_TR_CRASH], 2);
    assert_int_equal(n[SIM_TR_ROLLBACK], 2);
    assert_int_equal(n[SIM_TR_RESTART], 2);
    assert_int_equal(n[SIM_TR_GIVE_UP], 1);
    assert_int_equal(n[SIM_TR_RECORD_KEY], 0);
    assert_true(res.m[SIM_M_EFFECTS].mean == 0);
    assert_true(res.m[SIM_M_LOST_WRITES].mean == 1);
    /* effect at 12 ms, crash and rollback with it, restart 1 s later */
    assert_int_equal(res.trace[3].kind, SIM_TR_EFFECT);
    assert_int_equal(res.trace[4].kind, SIM_TR_CRASH);
    assert_int_equal(res.trace[5].kind, SIM_TR_ROLLBACK);
    assert_int_equal(res.trace[4].t_us, 12000);
    for (size_t i = 0; i < res.n_trace; i++)
        if (res.trace[i].kind == SIM_TR_RESTART) {
            assert_int_equal(res.trace[i].job, 0);
            assert_int_equal(res.trace[i].part, t.handler);
            assert_int_equal(res.trace[i].t_us % 1000000, 12000);
            break;
        }
    sim_result_free(&res);
}

/* Calls show where the charge lands: at the provider. */
static void call_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 1);
    tb_handler(&t)->idempotency = SIM_IDEM_PROVIDER_KEY;
    static const int64_t lost[] = {1};
    tb_lose_reply_of(&t, lost, 1);
    sim_result res = traced(&t, NULL);
    size_t n[SIM_TR_COUNT];
    count_kinds(&res, n);
    times_never_go_back(&res);
    assert_int_equal(n[SIM_TR_CALL], 2);
    assert_int_equal(n[SIM_TR_EFFECT], 1);
    assert_int_equal(n[SIM_TR_PROVIDER_SKIP], 1);
    for (size_t i = 0; i < res.n_trace; i++) {
        const sim_trace_entry *e = &res.trace[i];
        if (e->kind == SIM_TR_EFFECT || e->kind == SIM_TR_PROVIDER_SKIP) {
            assert_int_equal(e->part, t.provider);
            assert_int_equal(e->peer, t.handler);
        }
        if (e->kind == SIM_TR_CALL) {
            assert_int_equal(e->part, t.handler);
            assert_int_equal(e->peer, t.provider);
        }
    }
    sim_result_free(&res);
}

typedef struct {
    int64_t t_ms;
    sim_trace_kind kind;
    int64_t job;
    int part, copy;
} cstep;

static void story_is(const sim_result *res, const cstep *story, size_t n)
{
    if (res->n_trace != n)
        fail_msg("%zu trace entries, expected %zu", res->n_trace, n);
    for (size_t i = 0; i < n; i++) {
        const sim_trace_entry *e = &res->trace[i];
        if (e->t_us != story[i].t_ms * 1000 || e->kind != story[i].kind || e->job != story[i].job ||
            e->part != story[i].part || e->copy != story[i].copy)
            fail_msg("entry %zu: %lld us %s job %lld part %d copy %d; expected %lld ms %s job "
                     "%lld part %d copy %d",
                     i, (long long)e->t_us, sim_trace_kind_name(e->kind), (long long)e->job,
                     e->part, e->copy, (long long)story[i].t_ms, sim_trace_kind_name(story[i].kind),
                     (long long)story[i].job, story[i].part, story[i].copy);
    }
}

/* The first confirm of job 1 is lost: the users publish it again after
 * their 1 s timeout, and the broker's window drops the producer-ID copy.
 * users 0, broker 1, processor 2; publish 1 ms, confirm 1 ms. */
static void publisher_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 2);
    static const int64_t first[] = {1};
    tb_lose_reply_of_on(&t, t.publish, first, 1);
    t.parts[t.users].tries = 3;
    tb_sender(&t)->dedup_window_us = 60000000;
    static const cstep story[] = {
        {0, SIM_TR_ARRIVE, 1, 0, 0},     {0, SIM_TR_PUBLISH, 1, 0, 0},
        {1, SIM_TR_ACCEPT, 1, 1, 0},     {1, SIM_TR_SEND, 1, 1, 0},
        {1, SIM_TR_LOST_REPLY, 1, 1, 0}, {2, SIM_TR_RECEIVE, 1, 2, 0},
        {10, SIM_TR_ARRIVE, 2, 0, 0},    {10, SIM_TR_PUBLISH, 2, 0, 0},
        {11, SIM_TR_ACCEPT, 2, 1, 0},    {11, SIM_TR_SEND, 2, 1, 0},
        {12, SIM_TR_EFFECT, 1, 2, 0},    {12, SIM_TR_REPLY, 1, 2, 0},
        {12, SIM_TR_RECEIVE, 2, 2, 0},   {12, SIM_TR_CONFIRM, 2, 0, 0},
        {14, SIM_TR_ACKED, 1, 1, 0},     {22, SIM_TR_EFFECT, 2, 2, 0},
        {22, SIM_TR_REPLY, 2, 2, 0},     {24, SIM_TR_ACKED, 2, 1, 0},
        {1000, SIM_TR_TIMEOUT, 1, 0, 0}, {1000, SIM_TR_PUBLISH, 1, 0, 0},
        {1001, SIM_TR_DEDUP, 1, 1, 0},   {1002, SIM_TR_CONFIRM, 1, 0, 0},
    };
    sim_result res = traced(&t, NULL);
    story_is(&res, story, sizeof story / sizeof story[0]);
    assert_int_equal(res.trace[1].detail, 1);  /* publish try 1 */
    assert_int_equal(res.trace[19].detail, 2); /* try 2 */
    assert_int_equal(res.trace[20].detail, 1); /* the ID it dropped */
    assert_int_equal(res.trace[20].peer, 0);
    sim_result_free(&res);

    /* per-publish IDs and no window: the second publish is copy 1, a new ID */
    t.parts[t.users].message_id = SIM_MESSAGE_ID_PER_PUBLISH;
    tb_sender(&t)->dedup_window_us = 0;
    res = traced(&t, NULL);
    const sim_trace_entry *accept = NULL;
    for (size_t i = 0; i < res.n_trace; i++)
        if (res.trace[i].kind == SIM_TR_ACCEPT && res.trace[i].copy == 1)
            accept = &res.trace[i];
    assert_non_null(accept);
    assert_int_equal(accept->job, 1);
    assert_int_equal(accept->detail, 3); /* after the jobs' own IDs 1 and 2 */
    assert_int_equal(accept->t_us, 1001000);
    assert_true(res.m[SIM_M_DUPLICATES].mean == 1);
    sim_result_free(&res);
}

/* The outbox: the record is written with the commit; the relay sends it at
 * its next poll (500 ms), its confirm is lost, so it sends it again at
 * 1 s, and the mailer, which checks nothing, runs it twice. users 0,
 * broker 1, processor 2, events 3, mailer 4. */
static void outbox_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 1);
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX;
    static const int64_t first[] = {1};
    tb_lose_reply_of_on(&t, t.event, first, 1);
    static const cstep story[] = {
        {0, SIM_TR_ARRIVE, 1, 0, 0},       {1, SIM_TR_SEND, 1, 1, 0},
        {2, SIM_TR_RECEIVE, 1, 2, 0},      {12, SIM_TR_EFFECT, 1, 2, 0},
        {12, SIM_TR_OUTBOX, 1, 2, 0},      {12, SIM_TR_REPLY, 1, 2, 0},
        {14, SIM_TR_ACKED, 1, 1, 0},       {500, SIM_TR_PUBLISH, 1, 2, 0},
        {501, SIM_TR_ACCEPT, 1, 3, 0},     {501, SIM_TR_SEND, 1, 3, 0},
        {501, SIM_TR_LOST_REPLY, 1, 3, 0}, {502, SIM_TR_RECEIVE, 1, 4, 0},
        {512, SIM_TR_EFFECT, 1, 4, 0},     {512, SIM_TR_REPLY, 1, 4, 0},
        {514, SIM_TR_ACKED, 1, 3, 0},      {1000, SIM_TR_PUBLISH, 1, 2, 0},
        {1001, SIM_TR_ACCEPT, 1, 3, 1},    {1001, SIM_TR_SEND, 1, 3, 1},
        {1002, SIM_TR_RECEIVE, 1, 4, 1},   {1003, SIM_TR_CONFIRM, 1, 2, 0},
        {1012, SIM_TR_EFFECT, 1, 4, 1},    {1012, SIM_TR_REPLY, 1, 4, 1},
        {1014, SIM_TR_ACKED, 1, 3, 1},
    };
    sim_result res = traced(&t, NULL);
    story_is(&res, story, sizeof story / sizeof story[0]);
    assert_int_equal(res.trace[7].detail, 1); /* the relay's publish */
    /* a duplicate at the mailer, on its copy's first try */
    assert_true(sim_effect_duplicate(&res.trace[20]));
    assert_int_equal(sim_effect_try(&res.trace[20]), 1);
    assert_false(sim_effect_duplicate(&res.trace[12]));
    assert_true(res.m[SIM_M_DOWNSTREAM_DUPLICATES].mean == 1);
    assert_true(res.m[SIM_M_LOST_EVENTS].mean == 0);
    sim_result_free(&res);
}

/* Racing copies under key-claimed-first: try 2 comes while try 1 works
 * (1.5 s of work, 1 s redelivery), finds the claim and is held; try 3
 * finds the key done and skips. */
static void held_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
    tb_handler(&t)->work = (sim_latency){1500000, 1500000};
    static const cstep story[] = {
        {0, SIM_TR_ARRIVE, 1, 0, 0},     {1, SIM_TR_SEND, 1, 1, 0},
        {2, SIM_TR_RECEIVE, 1, 2, 0},    {2, SIM_TR_CLAIM, 1, 2, 0},
        {1001, SIM_TR_TIMEOUT, 1, 1, 0}, {1001, SIM_TR_SEND, 1, 1, 0},
        {1002, SIM_TR_RECEIVE, 1, 2, 0}, {1002, SIM_TR_HELD, 1, 2, 0},
        {1502, SIM_TR_EFFECT, 1, 2, 0},  {1502, SIM_TR_RECORD_KEY, 1, 2, 0},
        {1502, SIM_TR_REPLY, 1, 2, 0},   {2001, SIM_TR_TIMEOUT, 1, 1, 0},
        {2001, SIM_TR_SEND, 1, 1, 0},    {2002, SIM_TR_RECEIVE, 1, 2, 0},
        {2002, SIM_TR_SKIP, 1, 2, 0},    {2002, SIM_TR_REPLY, 1, 2, 0},
        {2004, SIM_TR_ACKED, 1, 1, 0},
    };
    sim_result res = traced(&t, NULL);
    story_is(&res, story, sizeof story / sizeof story[0]);
    sim_result_free(&res);
}

/* Racing tries with no check: each delivery works 1.5 s and the broker
 * redelivers after 1 s, so try 2 starts before try 1 charges, and the
 * last delivery to start before a charge is not the one that made it.
 * Each effect names its own try: try 1 at 1.502 s, then try 2 and 3 as
 * duplicates, 1 s apart. */
static void racing_tries_story(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1);
    tb_handler(&t)->idempotency = SIM_IDEM_NONE;
    tb_handler(&t)->work = (sim_latency){1500000, 1500000};
    tb_sender(&t)->tries = 3;
    sim_result res = traced(&t, NULL);
    int64_t effects = 0, last_receive = 0;
    for (size_t i = 0; i < res.n_trace; i++) {
        const sim_trace_entry *e = &res.trace[i];
        if (e->kind == SIM_TR_RECEIVE)
            last_receive = e->detail;
        if (e->kind != SIM_TR_EFFECT)
            continue;
        effects++;
        assert_int_equal(e->t_us, 2000 + 1000000 * effects + 500000);
        assert_int_equal(sim_effect_try(e), effects);
        assert_int_equal(sim_effect_duplicate(e), effects > 1);
        /* the order of entries would name the later try */
        if (effects < 3)
            assert_int_equal(last_receive, effects + 1);
    }
    assert_int_equal(effects, 3);
    sim_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(teaching_board_story), cmocka_unit_test(teaching_board_counts),
        cmocka_unit_test(trace_is_capped),      cmocka_unit_test(trace_is_the_first_replication),
        cmocka_unit_test(crash_story),          cmocka_unit_test(call_story),
        cmocka_unit_test(publisher_story),      cmocka_unit_test(outbox_story),
        cmocka_unit_test(held_story),           cmocka_unit_test(racing_tries_story),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

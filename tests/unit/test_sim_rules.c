/* test_sim_rules.c — the model's rules for instants and windows that
 * MODEL.md decides, each pinned on a deterministic board (constant
 * latencies, even arrivals, probabilities 0 or 1, scripted losses), with
 * the timeline worked out by hand from MODEL.md in the comment: when a
 * before-commit event goes out, which claim a failed call gives back, a
 * record committed at a relay poll's instant, an event on the wire when
 * its handler crashes, a `set` that changes nothing, and a confirm in the
 * microsecond of the publisher's timer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#define MS INT64_C(1000)

static sim_result traced(const tb_board *t)
{
    sim_result res;
    char msg[256];
    if (sim_run(&t->b, NULL, true, &res, msg, sizeof msg) != 0)
        fail_msg("sim_run: %s", msg);
    assert_false(res.trace_truncated);
    return res;
}

/* The n-th (0-based) trace entry of this kind, job (1-based; 0: any) and
 * part (-1: any), or NULL. */
static const sim_trace_entry *nth(const sim_result *res, sim_trace_kind kind, int64_t job, int part,
                                  int n)
{
    for (size_t i = 0; i < res->n_trace; i++) {
        const sim_trace_entry *e = &res->trace[i];
        if (e->kind == kind && (job == 0 || e->job == job) && (part < 0 || e->part == part) &&
            n-- == 0)
            return e;
    }
    return NULL;
}

static int64_t time_of(const sim_result *res, sim_trace_kind kind, int64_t job, int part, int n)
{
    const sim_trace_entry *e = nth(res, kind, job, part, n);
    if (!e)
        fail_msg("no %s number %d of job %lld", sim_trace_kind_name(kind), n, (long long)job);
    return e->t_us;
}

static size_t count(const sim_result *res, sim_trace_kind kind, int64_t job, int part)
{
    size_t n = 0;
    while (nth(res, kind, job, part, (int)n))
        n++;
    return n;
}

/* The case: two jobs 5 ms apart, key-in-transaction, work 10 ms,
 * a 50 ms database write, crash_after_effect 1, restart 100 ms; 2 tries
 * (redelivery after 1 s), links with a 2 ms round trip. By MODEL.md
 * ("before-commit: after the work, before the effect"; a crash abandons
 * every delivery in the process):
 *   job 1 reaches the broker at 1 ms and the handler at 2; job 2 at 6, 7.
 *   Their work ends at 12 and 17 ms: each publishes its event then, and
 *   writes until 62 and 67.
 *   At 62 job 1's commit crashes the handler: job 1's transaction rolls
 *   back, and job 2, still writing, is abandoned. Neither change happened:
 *   both events are ghosts (2).
 *   The restart at 162 comes long before the broker's timers at 1001 and
 *   1006 ms; the second tries repeat the story (publishes at 1012 and 1017,
 *   crash at 1062): 2 more ghosts. At 2001 and 2006 the tries are used up.
 * So 4 ghost events, each delivered once downstream (4 deliveries), no
 * effect, 2 errors. Publishing at the end of the write instead, job 2
 * would never publish (its write ends after the crash): 2 and 2. */
static void before_commit_publishes_before_the_write(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_DATABASE | TB_TWO_HOPS, 2);
    t.b.traffic.over_us = 10 * MS;
    sim_part *h = tb_handler(&t);
    h->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    h->publish = SIM_PUBLISH_BEFORE_COMMIT;
    h->work = (sim_latency){10 * MS, 10 * MS};
    h->crash_after_effect = 1;
    h->restart_us = 100 * MS;
    t.parts[t.database].write = (sim_latency){50 * MS, 50 * MS};
    tb_sender(&t)->tries = 2;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 4);
    assert_int_equal(c.downstream_deliveries, 4);
    assert_int_equal(c.events_published, 4);
    assert_int_equal(c.effects, 0);
    assert_int_equal(c.errors, 2);
    assert_int_equal(c.lost_events, 0);

    sim_result res = traced(&t);
    assert_true(res.deterministic);
    assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 1, t.handler, 0), 12 * MS);
    assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 2, t.handler, 0), 17 * MS);
    assert_int_equal(time_of(&res, SIM_TR_CRASH, 0, t.handler, 0), 62 * MS);
    assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 1, t.handler, 1), 1012 * MS);
    assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 2, t.handler, 1), 1017 * MS);
    assert_int_equal(time_of(&res, SIM_TR_CRASH, 0, t.handler, 1), 1062 * MS);
    sim_result_free(&res);

    /* and only the write: with a 1 ms write, job 1's crash at 13 ms finds
     * job 2 (received at 7) still working, before its publish; job 2
     * never publishes, and each try of job 1 makes one ghost */
    t.parts[t.database].write = (sim_latency){1 * MS, 1 * MS};
    c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 2);
    res = traced(&t);
    assert_int_equal(time_of(&res, SIM_TR_CRASH, 0, t.handler, 0), 13 * MS);
    assert_int_equal(count(&res, SIM_TR_PUBLISH, 2, t.handler), 0);
    sim_result_free(&res);
}

/* A failed or lost call gives back only its own claim. One job,
 * key-claimed-first with a 100 ms lease, work 10 ms, a 200 ms call; the
 * broker redelivers after 150 ms, and the users' first confirm is lost,
 * so they publish a second copy at their 230 ms timeout. Round trips 2 ms.
 *   Delivery A (copy 1, try 1) arrives at 2 ms and claims; its call leaves
 *   at 12, reaches the provider at 13, and fails (or its request is lost
 *   and the handler's 202 ms timeout ends it) at 214.
 *   Delivery B (copy 1, try 2) is sent at 151, arrives at 152: A's claim
 *   is 150 ms old, past the lease, so B claims the key anew.
 *   At 214 A gives its claim back: B's claim is not A's and stays.
 *   Delivery C (copy 2, try 1) arrives at 232: B's claim is 80 ms old, so
 *   C is held. Had A deleted whatever claim it found, C would claim and
 *   call a third time. */
static void a_failed_call_gives_back_only_its_claim(void **state)
{
    (void)state;
    for (int lost = 0; lost < 2; lost++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_PROVIDER, 1);
        static const int64_t first[] = {1};
        tb_lose_reply_of_on(&t, t.publish, first, 1);
        t.parts[t.users].timeout_us = 230 * MS;
        t.parts[t.users].message_id = SIM_MESSAGE_ID_PRODUCER;
        sim_part *h = tb_handler(&t);
        h->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
        h->lease_us = 100 * MS;
        tb_sender(&t)->redelivery_after_us = 150 * MS;
        t.parts[t.provider].call = (sim_latency){200 * MS, 200 * MS};
        if (lost) {
            t.links[t.call].lose_request = 1;
            h->timeout_us = 202 * MS;
        } else {
            t.parts[t.provider].fail = 1;
        }
        sim_result res = traced(&t);
        assert_int_equal(time_of(&res, SIM_TR_CLAIM, 1, t.handler, 0), 2 * MS);
        assert_int_equal(time_of(&res, SIM_TR_CLAIM, 1, t.handler, 1), 152 * MS);
        sim_trace_kind ended = lost ? SIM_TR_CALL_LOST : SIM_TR_CALL_FAILED;
        assert_int_equal(time_of(&res, ended, 1, lost ? t.handler : t.provider, 0),
                         lost ? 214 * MS : 13 * MS);
        const sim_trace_entry *held = nth(&res, SIM_TR_HELD, 1, t.handler, 0);
        assert_non_null(held);
        assert_int_equal(held->t_us, 232 * MS);
        assert_int_equal(held->copy, 1);
        const sim_trace_entry *third = nth(&res, SIM_TR_CLAIM, 1, t.handler, 2);
        assert_true(!third || third->t_us > 232 * MS); /* nothing claimed in between */
        sim_result_free(&res);
    }
}

/* A record committed in the microsecond of a relay poll goes out at the
 * next poll, whichever of the two the queue takes first. Both cases: two
 * jobs, a handler without a database (its commit at the end of its work),
 * round trips 2 ms; job 2's commit falls at a poll.
 *   (a) relay every 500 ms, work 10 ms, job 2 arriving at 488 ms: job 1
 *   commits at 12 and schedules the poll at 500 then; job 2 arrives at the
 *   handler at 490 and commits at 500, after the poll in the queue's order.
 *   (b) relay every 100 ms, work 300 ms, job 2 arriving at 198, the first
 *   confirm of job 1's event lost: job 1 commits at 302, the poll at 400
 *   publishes it and schedules the poll at 500; job 2 reached the handler
 *   at 200, so its commit at 500 comes before that poll in the order.
 * Either way job 2's record is published at the following poll (1000 and
 * 600 ms), never in the poll of its own microsecond. */
static void a_commit_at_the_poll_waits_for_the_next(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_TWO_HOPS, 2);
        sim_part *h = tb_handler(&t);
        h->publish = SIM_PUBLISH_OUTBOX;
        if (order == 0) {
            t.b.traffic.over_us = 976 * MS;
            h->relay_every_us = 500 * MS;
        } else {
            t.b.traffic.over_us = 396 * MS;
            h->relay_every_us = 100 * MS;
            h->work = (sim_latency){300 * MS, 300 * MS};
            static const int64_t first[] = {1};
            tb_lose_reply_of_on(&t, t.event, first, 1);
        }
        sim_result res = traced(&t);
        assert_int_equal(time_of(&res, SIM_TR_OUTBOX, 2, t.handler, 0), 500 * MS);
        assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 2, t.handler, 0),
                         order == 0 ? 1000 * MS : 600 * MS);
        assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 1, t.handler, 0),
                         order == 0 ? 500 * MS : 400 * MS);
        if (order == 1) /* job 1's record went out again at 500 */
            assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 1, t.handler, 1), 500 * MS);
        sim_result_free(&res);
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.downstream_effects, order == 0 ? 2 : 3); /* (b): job 1's twice */
        assert_int_equal(c.lost_events, 0);
    }
}

/* An event on the wire survives its handler's crash: it has left the
 * process. One job, before-commit, key-in-transaction, a 50 ms write that
 * crashes, one try, and an event link with a 200 ms round trip. The event
 * goes out at 12 ms, the crash comes at 62, the event reaches the second
 * broker at 112 all the same: a ghost, delivered. */
static void an_event_on_the_wire_survives_the_crash(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_DATABASE | TB_TWO_HOPS, 1);
    sim_part *h = tb_handler(&t);
    h->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    h->publish = SIM_PUBLISH_BEFORE_COMMIT;
    h->crash_after_effect = 1;
    t.parts[t.database].write = (sim_latency){50 * MS, 50 * MS};
    tb_sender(&t)->tries = 1;
    t.links[t.event].rtt_us = 200 * MS;
    sim_result res = traced(&t);
    assert_int_equal(time_of(&res, SIM_TR_PUBLISH, 1, t.handler, 0), 12 * MS);
    assert_int_equal(time_of(&res, SIM_TR_CRASH, 0, t.handler, 0), 62 * MS);
    assert_int_equal(time_of(&res, SIM_TR_ACCEPT, 1, t.broker2, 0), 112 * MS);
    assert_int_equal(time_of(&res, SIM_TR_RECEIVE, 1, t.handler2, 0), 113 * MS);
    sim_result_free(&res);
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 1);
    assert_int_equal(c.downstream_deliveries, 1);
    assert_int_equal(c.effects, 0);
}

/* A `set` that changes nothing still publishes its event: the handler
 * does not compare the old content with the new. Five jobs, the reply of
 * job 3 lost once, no check: job 3 is handled twice, its second set
 * changes nothing, and each publisher sends six events (the outbox writes
 * six records), which the second hop's set applies five times. */
static void an_unchanged_set_still_publishes(void **state)
{
    (void)state;
    const sim_publish modes[] = {SIM_PUBLISH_AFTER_COMMIT, SIM_PUBLISH_BEFORE_COMMIT,
                                 SIM_PUBLISH_OUTBOX};
    for (int i = 0; i < 3; i++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_TWO_HOPS, 5);
        t.b.traffic.op = SIM_OP_SET;
        static const int64_t third[] = {3};
        tb_lose_reply_of(&t, third, 1);
        tb_handler(&t)->publish = modes[i];
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.deliveries, 6);
        assert_int_equal(c.effects, 5);
        assert_int_equal(c.events_published, 6);
        assert_int_equal(c.downstream_deliveries, 6);
        assert_int_equal(c.downstream_effects, 5);
        assert_int_equal(c.downstream_duplicates, 0);
    }
}

/* A confirm in the microsecond of the publisher's timer is too late, as a
 * reply is at the sender's timer. The users publish over a 2 ms round
 * trip (1 ms there, 1 ms back: the confirm is back at 2 ms) with a 2 ms
 * timeout and 3 tries; job 2's first confirm is lost, so the publisher is
 * simulated. Job 1's timer fires at 2 ms before its confirm arrives: it
 * publishes again, and again, and gives up at 6 ms with three copies at
 * the broker. With a 2.001 ms timeout the first confirm ends it. */
static void a_confirm_at_the_timer_is_too_late(void **state)
{
    (void)state;
    for (int later = 0; later < 2; later++) {
        tb_board t;
        tb_init(&t, TB_BROKER, 2);
        static const int64_t second[] = {2};
        tb_lose_reply_of_on(&t, t.publish, second, 1);
        t.parts[t.users].tries = 3;
        t.parts[t.users].timeout_us = 2 * MS + later;
        sim_result res = traced(&t);
        size_t publishes = count(&res, SIM_TR_PUBLISH, 1, t.users);
        if (!later) {
            assert_int_equal(publishes, 3);
            assert_int_equal(count(&res, SIM_TR_CONFIRM, 1, t.users), 0);
            assert_int_equal(time_of(&res, SIM_TR_TIMEOUT, 1, t.users, 0), 2 * MS);
            assert_int_equal(time_of(&res, SIM_TR_GIVE_UP, 1, t.users, 0), 6 * MS);
            assert_int_equal(count(&res, SIM_TR_ACCEPT, 1, t.broker), 3);
        } else {
            assert_int_equal(publishes, 1);
            assert_int_equal(time_of(&res, SIM_TR_CONFIRM, 1, t.users, 0), 2 * MS);
        }
        sim_result_free(&res);
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.errors, later ? 0 : 2);
        assert_int_equal(c.copies, later ? 3 : 6);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(before_commit_publishes_before_the_write),
        cmocka_unit_test(a_failed_call_gives_back_only_its_claim),
        cmocka_unit_test(a_commit_at_the_poll_waits_for_the_next),
        cmocka_unit_test(an_event_on_the_wire_survives_the_crash),
        cmocka_unit_test(an_unchanged_set_still_publishes),
        cmocka_unit_test(a_confirm_at_the_timer_is_too_late),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_sim_props.c — invariants on randomly generated boards (fixed seeds):
 * every shape, policy, fault and option mixed at random, and what must hold
 * whatever the mix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rng.h"
#include "sim_testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#define BOARDS 200

static double chance(tb_gen *r, double p_nonzero, double max)
{
    return tb_gen_chance(r, p_nonzero) ? tb_gen_unit(r) * max : 0;
}

static int64_t between(tb_gen *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)tb_gen_below(r, (uint64_t)(hi - lo + 1));
}

/* A median in [lo, hi] and a p99 1-5 times it (a zero median stays 0). */
static sim_latency latency(tb_gen *r, int64_t lo, int64_t hi)
{
    int64_t median = between(r, lo, hi);
    int64_t p99 = tb_gen_chance(r, 0.3) ? median : median * between(r, 1, 5);
    return (sim_latency){median, p99};
}

/* Random faults and timing on one handler. */
static void random_handler(tb_gen *r, sim_part *h, bool has_provider)
{
    h->concurrency = (int)between(r, 1, 8);
    h->work = latency(r, 0, 300000);
    h->idempotency = (sim_idempotency)tb_gen_below(r, SIM_IDEM_COUNT);
    if (h->idempotency == SIM_IDEM_PROVIDER_KEY && !has_provider)
        h->idempotency = SIM_IDEM_BUSINESS_KEY; /* needs a provider */
    h->key_ttl_us = tb_gen_chance(r, 0.6) ? SIM_FOREVER : between(r, 0, 3000000);
    h->lease_us = tb_gen_chance(r, 0.3) ? SIM_DURATION_CAP_US : between(r, 50000, 5000000);
    h->crash_after_effect = chance(r, 0.4, 0.3);
    h->crash_after_commit = chance(r, 0.2, 0.2);
    h->restart_us = between(r, 0, 500000);
    h->timeout_us = between(r, 20000, 3000000);
}

static void random_delivery(tb_gen *r, tb_board *t, sim_part *s, sim_link *d, bool broker)
{
    s->tries = (int)between(r, 1, 6);
    s->redelivery_after_us = between(r, 50000, 2000000);
    s->timeout_us = between(r, 50000, 2000000);
    if (broker && tb_gen_chance(r, 0.2))
        s->delivery = SIM_DELIVERY_AT_MOST_ONCE;
    if (broker && tb_gen_chance(r, 0.3))
        s->dedup_window_us = tb_gen_chance(r, 0.3) ? SIM_FOREVER : between(r, 0, 3000000);
    d->rtt_us = between(r, 0, 20000);
    d->reply_round_trips = tb_gen_chance(r, 0.5) ? 0.5 : 1.0;
    d->lose_request = chance(r, 0.4, 0.4);
    d->lose_reply = chance(r, 0.5, 0.4);
    d->transactional = broker && tb_gen_chance(r, 0.3);
    (void)t;
}

/* A random board: some faults, some policies, any shape the model allows. */
static void random_board(tb_board *t, tb_gen *r)
{
    unsigned shape = (unsigned)tb_gen_below(r, 16);
    tb_init(t, shape, between(r, 1, 250));
    sim_board *b = &t->b;
    b->traffic.op = tb_gen_chance(r, 0.3) ? SIM_OP_SET : SIM_OP_CHARGE;
    b->traffic.arrivals = tb_gen_chance(r, 0.5) ? SIM_ARRIVALS_POISSON : SIM_ARRIVALS_EVEN;
    b->traffic.over_us = between(r, 0, 5000000);
    b->traffic.repeat_share = chance(r, 0.3, 0.5);

    random_delivery(r, t, tb_sender(t), tb_delivery(t), t->broker >= 0);
    random_handler(r, tb_handler(t), t->provider >= 0);
    if (tb_gen_chance(r, 0.2)) {
        int64_t jobs[3];
        for (int i = 0; i < 3; i++)
            jobs[i] = between(r, 1, b->traffic.jobs);
        tb_lose_reply_of(t, jobs, 3);
    }
    if (t->broker >= 0 && tb_gen_chance(r, 0.4)) { /* the publisher retries */
        sim_part *u = &t->parts[t->users];
        sim_link *pl = &t->links[t->publish];
        u->tries = (int)between(r, 1, 5);
        u->timeout_us = between(r, 20000, 2000000);
        u->message_id =
            tb_gen_chance(r, 0.5) ? SIM_MESSAGE_ID_PRODUCER : SIM_MESSAGE_ID_PER_PUBLISH;
        pl->lose_request = chance(r, 0.5, 0.4);
        pl->lose_reply = chance(r, 0.7, 0.5);
    }
    if (t->provider >= 0) {
        sim_part *p = &t->parts[t->provider];
        sim_link *c = &t->links[t->call];
        p->call = latency(r, 1000, 400000);
        p->fail = chance(r, 0.4, 0.3);
        p->key_ttl_us = tb_gen_chance(r, 0.6) ? SIM_FOREVER : between(r, 0, 3000000);
        c->rtt_us = between(r, 0, 20000);
        c->lose_request = chance(r, 0.3, 0.3);
        c->lose_reply = chance(r, 0.3, 0.3);
    }
    if (t->database >= 0)
        t->parts[t->database].write = latency(r, 0, 20000);
    if (t->broker2 >= 0) {
        sim_part *h = tb_handler(t);
        sim_link *e = &t->links[t->event];
        h->publish = (sim_publish)tb_gen_below(r, SIM_PUBLISH_COUNT);
        h->relay_every_us = between(r, 1000, 1000000);
        e->rtt_us = between(r, 0, 20000);
        e->lose_request = chance(r, 0.3, 0.4);
        if (h->publish == SIM_PUBLISH_OUTBOX)
            e->lose_reply = chance(r, 0.4, 0.5);
        random_delivery(r, t, &t->parts[t->broker2], &t->links[t->delivery2], true);
        random_handler(r, &t->parts[t->handler2], false);
    }
}

static void describe(const tb_board *t, char *buf, size_t n)
{
    const sim_part *h = &t->parts[t->handler];
    snprintf(buf, n,
             "broker=%d provider=%d db=%d hops=%d jobs=%lld policy=%s op=%s crash=%.2f ttl=%lld "
             "publish=%s",
             t->broker >= 0, t->provider >= 0, t->database >= 0, t->broker2 >= 0 ? 2 : 1,
             (long long)t->b.traffic.jobs, sim_idempotency_name(h->idempotency),
             sim_op_name(t->b.traffic.op), h->crash_after_effect, (long long)h->key_ttl_us,
             sim_publish_name(h->publish));
}

/* Does the users' link to the broker lose anything (a simulated publisher)? */
static bool publisher_retries(const tb_board *t)
{
    if (t->broker < 0)
        return false;
    const sim_link *l = &t->links[t->publish];
    return l->lose_request > 0 || l->lose_reply > 0;
}

/* Do all copies of a job carry its ID? */
static bool one_id_per_job(const tb_board *t)
{
    return !publisher_retries(t) || t->parts[t->users].message_id == SIM_MESSAGE_ID_PRODUCER;
}

static void invariants_hold_on_random_boards(void **state)
{
    (void)state;
    tb_gen r;
    tb_gen_seed(&r, 2024);
    sim_limits lim = sim_limits_default();
    int dup_free_checked = 0, outbox_checked = 0;
    for (int i = 0; i < BOARDS; i++) {
        tb_board t;
        random_board(&t, &r);
        char what[256], msg[256];
        describe(&t, what, sizeof what);
        int link;
        int bad = sim_board_check(&t.b, &lim, msg, sizeof msg, &link);
        if (bad != -1)
            fail_msg("board %d (%s) fails the check: %s", i, what, msg);
        uint64_t seed = 1000 + (uint64_t)i;
        sim_counts c = tb_counts(&t, seed);
        const sim_part *h = &t.parts[t.handler];
        const sim_part *s = tb_sender(&t);
        bool at_most_once = t.broker >= 0 && s->delivery == SIM_DELIVERY_AT_MOST_ONCE;

        if (!(c.effects <= c.deliveries))
            fail_msg("board %d (%s): effects %lld > deliveries %lld", i, what, (long long)c.effects,
                     (long long)c.deliveries);
        assert_int_equal(c.duplicates, c.effects - c.jobs_with_effect);
        assert_int_equal(c.lost_writes + c.jobs_with_effect, c.jobs_should_effect);
        assert_true(c.errors <= c.jobs);
        assert_int_equal(c.successes + c.errors + c.dropped, c.jobs);
        assert_true(c.charged_twice <= c.jobs_with_effect);
        bool pub = publisher_retries(&t);
        assert_true(c.deliveries <= (pub ? c.copies : c.jobs) * s->tries);
        if (pub)
            assert_true(c.copies <= c.publishes);
        else
            assert_int_equal(c.publishes + c.copies, 0);
        if (!pub && t.broker2 < 0)
            assert_int_equal(c.dedup_drops, 0);
        assert_true(c.latency_p50_us <= c.latency_p99_us);
        assert_true(c.last_outcome_us >= c.first_arrival_us);
        if (t.b.traffic.op == SIM_OP_SET)
            assert_int_equal(c.duplicates, 0);
        if (at_most_once && !pub) {
            assert_int_equal(c.errors, 0);
            assert_int_equal(c.duplicates, 0);
        }
        if (!at_most_once)
            assert_int_equal(c.dropped, 0);
        /* a key kept forever in the same commit as a local effect, or claimed
         * first and never given up: no copy with the job's ID runs twice */
        bool local = t.provider < 0;
        bool kit = h->idempotency == SIM_IDEM_KEY_IN_TRANSACTION;
        bool kcf =
            h->idempotency == SIM_IDEM_KEY_CLAIMED_FIRST && h->lease_us == SIM_DURATION_CAP_US;
        if (local && h->key_ttl_us == SIM_FOREVER && (kit || kcf) && one_id_per_job(&t)) {
            if (c.duplicates != 0)
                fail_msg("board %d (%s): %lld duplicates", i, what, (long long)c.duplicates);
            dup_free_checked++;
        }
        if (h->idempotency == SIM_IDEM_PROVIDER_KEY &&
            t.parts[t.provider].key_ttl_us == SIM_FOREVER && one_id_per_job(&t)) {
            if (c.duplicates != 0)
                fail_msg("board %d (%s): %lld duplicates", i, what, (long long)c.duplicates);
            dup_free_checked++;
        }
        if (h->idempotency != SIM_IDEM_KEY_CLAIMED_FIRST &&
            (t.broker2 < 0 || t.parts[t.handler2].idempotency != SIM_IDEM_KEY_CLAIMED_FIRST))
            assert_int_equal(c.held, 0);
        /* the second hop */
        if (t.broker2 < 0) {
            assert_int_equal(c.lost_events + c.ghost_events + c.downstream_deliveries +
                                 c.downstream_effects + c.events_published,
                             0);
        } else {
            const sim_part *h2 = &t.parts[t.handler2];
            assert_true(c.downstream_duplicates <= c.downstream_effects);
            assert_true(c.downstream_effects <= c.downstream_deliveries);
            assert_true(c.ghost_events <= c.downstream_deliveries);
            assert_true(c.lost_events + c.downstream_lost_writes <= c.jobs);
            assert_true(c.downstream_errors <= c.jobs);
            bool tx = tb_delivery(&t)->transactional && t.broker >= 0;
            if (h->publish == SIM_PUBLISH_OUTBOX || (h->publish == SIM_PUBLISH_AFTER_COMMIT && !tx))
                assert_int_equal(c.ghost_events, 0);
            bool reliable = t.parts[t.broker2].delivery == SIM_DELIVERY_AT_LEAST_ONCE &&
                            t.links[t.delivery2].lose_request == 0 && h2->crash_after_effect == 0 &&
                            h2->crash_after_commit == 0;
            if (h->publish == SIM_PUBLISH_OUTBOX && local && reliable) {
                if (c.lost_events != 0)
                    fail_msg("board %d (%s): %lld lost events", i, what, (long long)c.lost_events);
                outbox_checked++;
            }
        }
        /* same board, same seed: the same numbers */
        sim_counts again = tb_counts(&t, seed);
        assert_memory_equal(&c, &again, sizeof c);
    }
    /* the generator does reach those cases */
    assert_true(dup_free_checked >= 10);
    assert_true(outbox_checked >= 3);
}

/* Through sim_run with a trace: the trace agrees with the counters. */
static void traces_agree_with_counters(void **state)
{
    (void)state;
    tb_gen r;
    tb_gen_seed(&r, 77);
    sim_limits lim = sim_limits_default();
    lim.max_trace = 1000000;
    for (int i = 0; i < 60; i++) {
        tb_board t;
        random_board(&t, &r);
        t.b.seed = 500 + (uint64_t)i;
        sim_result res;
        char msg[256];
        assert_int_equal(sim_run(&t.b, &lim, true, &res, msg, sizeof msg), 0);
        sim_counts c = tb_counts(&t, t.b.seed);
        assert_false(res.trace_truncated);
        int64_t n[SIM_TR_COUNT] = {0};
        int64_t dup_effects = 0;
        for (size_t k = 0; k < res.n_trace; k++) {
            const sim_trace_entry *e = &res.trace[k];
            if (k > 0)
                assert_true(e->t_us >= res.trace[k - 1].t_us);
            assert_true((unsigned)e->kind < SIM_TR_COUNT);
            assert_true(e->part >= 0 && (size_t)e->part < t.b.n_parts);
            n[e->kind]++;
            if (e->kind == SIM_TR_EFFECT && sim_effect_duplicate(e))
                dup_effects++;
        }
        assert_int_equal(n[SIM_TR_ARRIVE], c.jobs);
        assert_int_equal(n[SIM_TR_RECEIVE], c.deliveries + c.downstream_deliveries);
        int64_t effects = c.effects + c.downstream_effects;
        assert_true(n[SIM_TR_EFFECT] >= effects);
        assert_true(n[SIM_TR_EFFECT] - n[SIM_TR_ROLLBACK] <= effects);
        bool simple = t.broker2 < 0 && !publisher_retries(&t);
        if (simple)
            assert_int_equal(n[SIM_TR_GIVE_UP], c.errors);
        else
            assert_true(n[SIM_TR_GIVE_UP] >= c.errors);
        assert_int_equal(n[SIM_TR_DROPPED] >= c.dropped, 1);
        if (simple)
            assert_int_equal(n[SIM_TR_DROPPED], c.dropped);
        assert_int_equal(n[SIM_TR_CRASH], n[SIM_TR_RESTART]);
        assert_int_equal(n[SIM_TR_PUBLISH], c.publishes + c.events_published);
        assert_int_equal(n[SIM_TR_DEDUP], c.dedup_drops);
        assert_int_equal(n[SIM_TR_HELD], c.held);
        if (t.broker2 < 0)
            assert_int_equal(n[SIM_TR_ACCEPT], c.copies);
        assert_true(res.m[SIM_M_DELIVERIES].mean == (double)c.deliveries);
        assert_true(res.m[SIM_M_EVENTS].mean == (double)c.events);
        assert_true(res.m[SIM_M_GHOST_EVENTS].mean == (double)c.ghost_events);
        if (n[SIM_TR_ROLLBACK] == 0) {
            assert_int_equal(n[SIM_TR_EFFECT], effects);
            assert_int_equal(dup_effects, c.duplicates + c.downstream_duplicates);
        }
        sim_result_free(&res);
    }
}

/* sim_run keeps no global state: boards run in parallel threads give the
 * numbers they give one after another. */
#define THREADS 4

typedef struct {
    tb_board t;
    sim_result res;
    int rc;
} thread_job;

static void *run_in_thread(void *arg)
{
    thread_job *j = arg;
    char msg[256];
    j->rc = sim_run(&j->t.b, NULL, true, &j->res, msg, sizeof msg);
    return NULL;
}

static void parallel_runs_match_sequential(void **state)
{
    (void)state;
    tb_gen r;
    tb_gen_seed(&r, 31);
    thread_job *jobs = calloc(THREADS, sizeof *jobs);
    assert_non_null(jobs);
    for (int i = 0; i < THREADS; i++) {
        random_board(&jobs[i].t, &r);
        jobs[i].t.b.traffic.jobs = 2000;
        jobs[i].t.b.traffic.over_us = 20000000;
        jobs[i].t.b.replications = 3;
        jobs[i].t.b.links[jobs[i].t.delivery].n_lose_reply_of = 0;
    }
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, run_in_thread, &jobs[i]), 0);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(jobs[i].rc, 0);
        sim_result alone;
        char msg[256];
        assert_int_equal(sim_run(&jobs[i].t.b, NULL, true, &alone, msg, sizeof msg), 0);
        assert_memory_equal(alone.m, jobs[i].res.m, sizeof alone.m);
        assert_int_equal(alone.n_trace, jobs[i].res.n_trace);
        assert_memory_equal(alone.trace, jobs[i].res.trace, alone.n_trace * sizeof alone.trace[0]);
        sim_result_free(&alone);
        sim_result_free(&jobs[i].res);
    }
    free(jobs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(invariants_hold_on_random_boards),
        cmocka_unit_test(traces_agree_with_counters),
        cmocka_unit_test(parallel_runs_match_sequential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

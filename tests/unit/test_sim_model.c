/* test_sim_model.c — the delivery model's semantics (MODEL.md): what each
 * idempotency policy, fault and transport option does to effects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <string.h>

/* The teaching board: 5 jobs, users -> broker -> consumer, the first ack of
 * job 3 lost, nothing else goes wrong. */
static void teaching_board(tb_board *t, sim_idempotency policy)
{
    tb_init(t, TB_BROKER, 5);
    static const int64_t lost[] = {3};
    tb_lose_reply_of(t, lost, 1);
    tb_handler(t)->idempotency = policy;
}

static void teaching_board_without_dedup_charges_twice(void **state)
{
    (void)state;
    tb_board t;
    teaching_board(&t, SIM_IDEM_NONE);
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.jobs, 5);
    assert_int_equal(c.deliveries, 6);
    assert_int_equal(c.effects, 6);
    assert_int_equal(c.duplicates, 1);
    assert_int_equal(c.charged_twice, 1);
    assert_int_equal(c.lost_writes, 0);
    assert_int_equal(c.errors, 0);
    assert_int_equal(c.successes, 5);
}

static void teaching_board_with_id_check_charges_once(void **state)
{
    (void)state;
    tb_board t;
    teaching_board(&t, SIM_IDEM_KEY_IN_TRANSACTION);
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 6);
    assert_int_equal(c.effects, 5);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.charged_twice, 0);
    assert_int_equal(c.lost_writes, 0);
    assert_int_equal(c.errors, 0);
}

static void teaching_board_latency(void **state)
{
    (void)state;
    tb_board t;
    teaching_board(&t, SIM_IDEM_NONE);
    sim_counts c = tb_counts(&t, 1);
    /* job: publish 1 ms, delivery 1 ms, work 10 ms, ack 2 ms = 14 ms;
     * job 3 waits 1 s for the redelivery timer, then 13 ms more. */
    assert_int_equal(c.latency_p50_us, 14000);
    assert_int_equal(c.latency_p99_us, 1000000 + 14000);
    assert_int_equal(c.first_arrival_us, 0);
    assert_int_equal(c.last_outcome_us, 20000 + 1014000);
}

static void lost_acks_without_dedup_duplicate(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 2000);
    tb_delivery(&t)->lose_reply = 0.2;
    sim_counts c = tb_counts(&t, 7);
    /* expected 2000 * (0.2 + 0.04 + 0.008 + 0.0016) = 499 */
    assert_in_range(c.duplicates, 400, 600);
    assert_int_equal(c.duplicates, c.effects - c.jobs_with_effect);
    assert_true(c.charged_twice > 300);
    assert_int_equal(c.lost_writes, 0);
}

/* key-in-transaction with a local effect: no duplicates, whatever fails. */
static void key_in_transaction_never_duplicates_locally(void **state)
{
    (void)state;
    const unsigned shapes[] = {TB_BROKER, TB_BROKER | TB_DATABASE, 0};
    int runs = 0;
    for (int s = 0; s < 3; s++)
        for (int faults = 0; faults < 16; faults++)
            for (int slow = 0; slow < 2; slow++)
                for (int tx = 0; tx < 2; tx++) {
                    if (tx && !(shapes[s] & TB_BROKER))
                        continue;
                    tb_board t;
                    tb_init(&t, shapes[s], 300);
                    sim_part *h = tb_handler(&t);
                    sim_link *d = tb_delivery(&t);
                    h->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
                    d->lose_reply = faults & 1 ? 0.3 : 0;
                    d->lose_request = faults & 2 ? 0.2 : 0;
                    h->crash_after_effect = faults & 4 ? 0.2 : 0;
                    h->restart_us = 200000;
                    if (faults & 8) {
                        static const int64_t lost[] = {1, 2, 3, 50};
                        tb_lose_reply_of(&t, lost, 4);
                    }
                    if (slow) /* slower than the timer: redeliveries overlap */
                        h->work = (sim_latency){900000, 3000000};
                    d->transactional = tx;
                    sim_counts c = tb_counts(&t, 100 + (uint64_t)runs);
                    assert_int_equal(c.duplicates, 0);
                    assert_int_equal(c.charged_twice, 0);
                    runs++;
                }
    assert_int_equal(runs, 160);
}

/* Faults that should make retries happen, so a test can show duplicates. */
static void crashy(tb_board *t)
{
    tb_handler(t)->crash_after_effect = 0.3;
    tb_handler(t)->restart_us = 100000;
}

static void crash_after_external_call_repeats_it(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 500);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    crashy(&t);
    sim_counts c = tb_counts(&t, 3);
    assert_true(c.duplicates > 50);

    /* the same board with a local effect rolls the crash back */
    tb_init(&t, TB_BROKER, 500);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    crashy(&t);
    c = tb_counts(&t, 3);
    assert_int_equal(c.duplicates, 0);
}

static void provider_key_charges_once(void **state)
{
    (void)state;
    for (int variant = 0; variant < 3; variant++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_PROVIDER, 500);
        tb_handler(&t)->idempotency = SIM_IDEM_PROVIDER_KEY;
        if (variant == 0)
            crashy(&t);
        if (variant == 1)
            tb_delivery(&t)->lose_reply = 0.3;
        if (variant == 2) /* the provider's response is lost: the handler times out */
            t.links[t.call].lose_reply = 0.3;
        sim_counts c = tb_counts(&t, 11);
        assert_true(c.deliveries > 550);
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.charged_twice, 0);

        tb_handler(&t)->idempotency = SIM_IDEM_NONE; /* and without it */
        c = tb_counts(&t, 11);
        assert_true(c.duplicates > 50);
    }
}

static void provider_key_expires(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 500);
    tb_handler(&t)->idempotency = SIM_IDEM_PROVIDER_KEY;
    tb_delivery(&t)->lose_reply = 0.3;
    t.parts[t.provider].key_ttl_us = 500000; /* shorter than the 1 s redelivery */
    sim_counts c = tb_counts(&t, 11);
    assert_true(c.duplicates > 100);
}

static void business_key_drops_legitimate_repeats(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 5000);
    t.b.traffic.repeat_share = 0.2;
    tb_handler(&t)->idempotency = SIM_IDEM_BUSINESS_KEY;
    tb_delivery(&t)->lose_reply = 0.2;
    sim_counts c = tb_counts(&t, 5);
    /* 4999 jobs may repeat: mean 999.8, sd sqrt(4999 * 0.2 * 0.8) = 28 */
    assert_in_range(c.lost_writes, 1000 - 5 * 28, 1000 + 5 * 28);
    assert_int_equal(c.duplicates, 0); /* true duplicates are still caught */

    /* the message-ID check applies the repeats */
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    c = tb_counts(&t, 5);
    assert_int_equal(c.lost_writes, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.effects, 5000);
}

static void set_never_counts_a_duplicate(void **state)
{
    (void)state;
    for (int repeats = 0; repeats < 2; repeats++) {
        tb_board t;
        tb_init(&t, TB_BROKER, 2000);
        t.b.traffic.op = SIM_OP_SET;
        t.b.traffic.repeat_share = repeats ? 0.3 : 0;
        tb_delivery(&t)->lose_reply = 0.3;
        crashy(&t);
        sim_counts c = tb_counts(&t, 9);
        assert_true(c.deliveries > 2500);
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.charged_twice, 0);
        assert_int_equal(c.effects, c.jobs_with_effect);
        assert_int_equal(c.lost_writes + c.jobs_with_effect, c.jobs_should_effect);
        if (repeats)
            assert_true(c.jobs_should_effect < 1600);
        else
            assert_int_equal(c.jobs_should_effect, 2000);
    }
}

static void at_most_once_loses_instead_of_duplicating(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 2000);
    tb_sender(&t)->delivery = SIM_DELIVERY_AT_MOST_ONCE;
    tb_delivery(&t)->lose_request = 0.1;
    tb_delivery(&t)->lose_reply = 0.5; /* no acks are waited for: harmless */
    sim_counts c = tb_counts(&t, 4);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.errors, 0);
    assert_int_equal(c.deliveries, c.jobs - c.lost_writes);
    assert_in_range(c.lost_writes, 200 - 5 * 14, 200 + 5 * 14);
    assert_int_equal(c.successes + c.dropped, c.jobs);

    crashy(&t);
    tb_delivery(&t)->lose_request = 0;
    c = tb_counts(&t, 4);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.errors, 0);
    /* a crash drops every delivery the consumer holds; the one that crashed
     * keeps its effect ... */
    assert_true(c.dropped > 400);
    assert_true(c.lost_writes > 0 && c.lost_writes < c.dropped);
    tb_delivery(&t)->transactional = true; /* ... unless it is rolled back */
    c = tb_counts(&t, 4);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.lost_writes, c.dropped);
}

static void short_key_ttl_lets_late_repeats_through(void **state)
{
    (void)state;
    const sim_idempotency policies[] = {SIM_IDEM_KEY_IN_TRANSACTION, SIM_IDEM_KEY_AFTER_EFFECT};
    for (int i = 0; i < 2; i++) {
        tb_board t;
        tb_init(&t, TB_BROKER, 1000);
        tb_handler(&t)->idempotency = policies[i];
        tb_delivery(&t)->lose_reply = 0.3;
        tb_handler(&t)->key_ttl_us = 500000; /* < redelivery_after (1 s) */
        sim_counts c = tb_counts(&t, 2);
        assert_true(c.duplicates > 250);
        tb_handler(&t)->key_ttl_us = 10000000; /* longer than all 5 tries */
        c = tb_counts(&t, 2);
        assert_int_equal(c.duplicates, 0);
        tb_handler(&t)->key_ttl_us = SIM_FOREVER;
        c = tb_counts(&t, 2);
        assert_int_equal(c.duplicates, 0);
    }
}

static void key_after_effect_repeats_on_crash(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 500);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_AFTER_EFFECT;
    crashy(&t);
    sim_counts c = tb_counts(&t, 8);
    assert_true(c.duplicates > 50);
    tb_delivery(&t)->lose_reply = 0.3; /* lost acks alone are caught */
    tb_handler(&t)->crash_after_effect = 0;
    c = tb_counts(&t, 8);
    assert_int_equal(c.duplicates, 0);
}

static void transactional_link_covers_local_effects_only(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 1000);
    tb_delivery(&t)->lose_reply = 0.3;
    tb_delivery(&t)->transactional = true;
    sim_counts c = tb_counts(&t, 6);
    assert_int_equal(c.duplicates, 0);
    assert_true(c.deliveries > 1300);
    /* a job whose every ack was lost is rolled back every time */
    assert_int_equal(c.lost_writes, c.errors);
    crashy(&t);
    c = tb_counts(&t, 6);
    assert_int_equal(c.duplicates, 0);

    tb_init(&t, TB_BROKER | TB_PROVIDER, 1000);
    tb_delivery(&t)->lose_reply = 0.3;
    tb_delivery(&t)->transactional = true;
    c = tb_counts(&t, 6);
    assert_true(c.duplicates > 200);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION; /* its key is rolled back too */
    c = tb_counts(&t, 6);
    assert_true(c.duplicates > 200);
}

static void lost_requests_only_cause_retries(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 2000);
    tb_delivery(&t)->lose_request = 0.5;
    sim_counts c = tb_counts(&t, 12);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.effects, c.jobs - c.errors);
    /* errors: 2000 * 0.5^5 = 62.5, sd 7.8 */
    assert_in_range(c.errors, 62 - 5 * 8, 62 + 5 * 8);
    assert_int_equal(c.lost_writes, c.errors);
}

static void provider_failures_are_retried(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 2000);
    t.parts[t.provider].fail = 0.5;
    sim_counts c = tb_counts(&t, 13);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.effects + c.lost_writes, c.jobs);
    assert_in_range(c.errors, 62 - 5 * 8, 62 + 5 * 8);
    assert_int_equal(c.lost_writes, c.errors);
}

static void slow_provider_charges_every_try(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    t.parts[t.provider].call = (sim_latency){3000000, 3000000}; /* > 2 s handler timeout */
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 50);
    assert_int_equal(c.effects, 50);
    assert_int_equal(c.duplicates, 40);
    assert_int_equal(c.errors, 10);
    assert_int_equal(c.successes, 0);
    assert_int_equal(c.latency_p50_us, 0);
}

static void lost_provider_responses_duplicate_without_dedup(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 1000);
    t.links[t.call].lose_reply = 0.3;
    sim_counts c = tb_counts(&t, 14);
    assert_true(c.duplicates > 250);
    t.links[t.call].lose_reply = 0;
    t.links[t.call].lose_request = 0.3;
    c = tb_counts(&t, 14);
    assert_int_equal(c.duplicates, 0);
    assert_true(c.deliveries > 1300);
}

/* Users -> service, concurrency 1, a job every 1 ms, 10 ms of work: the
 * requests queue FIFO at the service. Job k (0-based) is received at
 * 1 + 10k ms and answered at 12 + 10k ms: latency 12 + 9k ms. */
static void service_queues_requests_fifo(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, 0, 50);
    t.b.traffic.over_us = 50000;
    tb_handler(&t)->concurrency = 1;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 50);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.latency_p50_us, 12000 + 9000 * 24);
    assert_int_equal(c.latency_p99_us, 12000 + 9000 * 49);
    assert_int_equal(c.last_outcome_us, 12000 + 10000 * 49);
}

/* The same through a broker: it sends only into a free slot, 11 ms apart
 * (transit + work), and each timer starts when its message is sent. Job k
 * is acked at 14 + 11k ms: latency 14 + 10k ms. */
static void broker_sends_into_free_slots(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 200);
    t.b.traffic.over_us = 200000;
    tb_handler(&t)->concurrency = 1;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 200);
    assert_int_equal(c.duplicates, 0); /* waits > 1 s, but not after the send */
    assert_int_equal(c.latency_p99_us, 14000 + 10000 * 197);
    assert_int_equal(c.last_outcome_us, 14000 + 11000 * 199);

    /* a service's request waits with the user's timer running */
    tb_init(&t, 0, 200);
    t.b.traffic.over_us = 200000;
    tb_handler(&t)->concurrency = 1;
    c = tb_counts(&t, 1);
    assert_true(c.duplicates > 0);
    assert_true(c.deliveries > 200);
}

static void poisson_arrivals_spread_over_the_window(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 20000);
    t.b.traffic.arrivals = SIM_ARRIVALS_POISSON;
    t.b.traffic.over_us = 100000000; /* 100 s, mean gap 5 ms */
    tb_handler(&t)->concurrency = 64;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.deliveries, 20000);
    /* the first arrival is one gap in; the last near 100 s (sd 0.7 s) */
    assert_true(c.first_arrival_us > 0 && c.first_arrival_us < 100000);
    assert_in_range(c.last_outcome_us, 96000000, 104000000);
    sim_counts d = tb_counts(&t, 2);
    assert_true(d.first_arrival_us != c.first_arrival_us);
}

static void crash_loses_queued_service_requests(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, 0, 2000);
    tb_handler(&t)->crash_after_effect = 0.05;
    tb_handler(&t)->restart_us = 50000;
    sim_counts c = tb_counts(&t, 21);
    assert_true(c.duplicates > 50);
    assert_int_equal(c.successes + c.errors, c.jobs);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    c = tb_counts(&t, 21);
    assert_int_equal(c.duplicates, 0);
}

/* Racing copies, exactly: work 1.5 s, redelivery_after 1 s, a job every
 * 3 s (none overlap), eight slots. Try 1 runs 0-1.5 s; try 2 is sent at
 * 1 s while try 1 still works; try 3 at 2 s finds what the first two
 * left. */
static sim_counts race(sim_idempotency policy, int64_t lease_us)
{
    tb_board t;
    tb_init(&t, TB_BROKER, 200);
    t.b.traffic.over_us = 200 * INT64_C(3000000);
    tb_handler(&t)->work = (sim_latency){1500000, 1500000};
    tb_handler(&t)->concurrency = 8;
    tb_handler(&t)->idempotency = policy;
    tb_handler(&t)->lease_us = lease_us;
    return tb_counts(&t, 1);
}

static void racing_copies_by_policy(void **state)
{
    (void)state;
    /* no check: every try runs, none is answered in time */
    sim_counts c = race(SIM_IDEM_NONE, 0);
    assert_int_equal(c.effects, 5 * 200);
    assert_int_equal(c.errors, 200);
    /* check-then-act: tries 1 and 2 both check before try 1 records */
    c = race(SIM_IDEM_KEY_AFTER_EFFECT, 0);
    assert_int_equal(c.duplicates, 200);
    assert_int_equal(c.charged_twice, 200);
    assert_int_equal(c.deliveries, 3 * 200);
    assert_int_equal(c.errors, 0);
    /* a unique insert in the commit: try 2's commit conflicts */
    const sim_idempotency unique[] = {SIM_IDEM_KEY_IN_TRANSACTION, SIM_IDEM_BUSINESS_KEY};
    for (int i = 0; i < 2; i++) {
        c = race(unique[i], 0);
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.deliveries, 3 * 200);
        assert_int_equal(c.errors, 0);
    }
    /* claimed first: try 2 finds the claim and is held; try 3 skips */
    const int64_t leases[] = {30000000, 1200000};
    for (int i = 0; i < 2; i++) {
        c = race(SIM_IDEM_KEY_CLAIMED_FIRST, leases[i]);
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.held, 200);
        assert_int_equal(c.deliveries, 3 * 200);
        assert_int_equal(c.errors, 0);
        assert_int_equal(c.lost_writes, 0);
    }
    /* a lease shorter than the work: try 2 claims again and runs */
    c = race(SIM_IDEM_KEY_CLAIMED_FIRST, 500000);
    assert_int_equal(c.duplicates, 200);
    assert_int_equal(c.held, 0);
}

/* With an external effect the unique insert comes after the call: racing
 * copies both charge. The claim comes before it: one charge. */
static void racing_copies_with_a_call(void **state)
{
    (void)state;
    const sim_idempotency policies[] = {SIM_IDEM_KEY_IN_TRANSACTION, SIM_IDEM_KEY_CLAIMED_FIRST};
    for (int i = 0; i < 2; i++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_PROVIDER, 100);
        t.b.traffic.over_us = 100 * INT64_C(3000000);
        t.parts[t.provider].call = (sim_latency){1500000, 1500000};
        tb_handler(&t)->concurrency = 8;
        tb_handler(&t)->idempotency = policies[i];
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.duplicates, i == 0 ? 100 : 0);
        assert_int_equal(c.errors, 0);
    }
}

/* A failed call gives the claim back: the retry is not held. */
static void failed_call_releases_the_claim(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_PROVIDER, 2000);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
    t.parts[t.provider].fail = 0.3;
    sim_counts c = tb_counts(&t, 3);
    assert_int_equal(c.held, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.effects + c.lost_writes, c.jobs);
    assert_true(c.deliveries > 2400);
}

/* The teaching board's publisher: the first confirm of job 3 is lost, so
 * the users publish it twice. Per-publish IDs: the ID check cannot tell the
 * copies apart; producer IDs: it can; with a window the broker drops the
 * second publish. */
static void lost_confirm_publishes_twice(void **state)
{
    (void)state;
    for (int variant = 0; variant < 3; variant++) {
        tb_board t;
        tb_init(&t, TB_BROKER, 5);
        static const int64_t third[] = {3};
        tb_lose_reply_of_on(&t, t.publish, third, 1);
        tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
        t.parts[t.users].message_id =
            variant == 0 ? SIM_MESSAGE_ID_PER_PUBLISH : SIM_MESSAGE_ID_PRODUCER;
        if (variant == 2)
            tb_sender(&t)->dedup_window_us = 300000000; /* SQS FIFO's 5 minutes */
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.publishes, 6);
        assert_int_equal(c.copies, variant == 2 ? 5 : 6);
        assert_int_equal(c.dedup_drops, variant == 2 ? 1 : 0);
        assert_int_equal(c.deliveries, c.copies);
        assert_int_equal(c.duplicates, variant == 0 ? 1 : 0);
        assert_int_equal(c.errors, 0);
        assert_int_equal(c.successes, 5);
    }
}

/* The users give up after their tries: an error, whatever the broker does
 * with the copies it already took. */
static void publisher_gives_up(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 50);
    t.parts[t.users].tries = 2;
    t.links[t.publish].lose_reply = 1;
    tb_handler(&t)->work = (sim_latency){3000000, 3000000}; /* longer than 2 tries x 1 s */
    tb_sender(&t)->redelivery_after_us = 10000000;
    tb_handler(&t)->concurrency = 100;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.errors, 50);
    assert_int_equal(c.successes, 0);
    assert_int_equal(c.copies, 100);
    assert_int_equal(c.effects, 100); /* both copies still ran */
    /* when a copy is acknowledged first, the give-up changes nothing */
    tb_handler(&t)->work = (sim_latency){10000, 10000};
    c = tb_counts(&t, 1);
    assert_int_equal(c.errors, 0);
    assert_int_equal(c.successes, 50);
}

/* Deterministic crashes on two hops: crash_after_commit 1 crashes every
 * commit once (the redelivery skips, so it crashes no more). */
static void every_commit_crashes(void **state)
{
    (void)state;
    const sim_publish modes[] = {SIM_PUBLISH_AFTER_COMMIT, SIM_PUBLISH_BEFORE_COMMIT,
                                 SIM_PUBLISH_OUTBOX};
    for (int i = 0; i < 3; i++) {
        tb_board t;
        tb_init(&t, TB_BROKER | TB_TWO_HOPS, 30);
        t.b.traffic.over_us = 30 * INT64_C(2000000); /* restart 1 s fits between jobs */
        tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
        tb_handler(&t)->crash_after_commit = 1;
        tb_handler(&t)->publish = modes[i];
        sim_counts c = tb_counts(&t, 1);
        assert_int_equal(c.effects, 30);
        assert_int_equal(c.duplicates, 0);
        assert_int_equal(c.errors, 0);
        assert_int_equal(c.lost_events, i == 0 ? 30 : 0);
        assert_int_equal(c.ghost_events, 0);
        assert_int_equal(c.downstream_effects, i == 0 ? 0 : 30);
    }
    /* every attempt rolls back before its commit: before-commit sends a
     * ghost for each of the 5 tries */
    tb_board t;
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 30);
    t.b.traffic.over_us = 30 * INT64_C(10000000);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    tb_handler(&t)->crash_after_effect = 1;
    tb_handler(&t)->publish = SIM_PUBLISH_BEFORE_COMMIT;
    t.parts[t.handler2].idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.effects, 0);
    assert_int_equal(c.errors, 30);
    assert_int_equal(c.ghost_events, 5 * 30);
    assert_int_equal(c.lost_events, 0);
    assert_int_equal(c.downstream_effects, 30);   /* the mailer's ID check: once per job */
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX; /* the record rolls back with the effect */
    c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 0);
    assert_int_equal(c.events_published, 0);
    assert_int_equal(c.downstream_deliveries, 0);
}

/* A transactional delivery link rolls back after the event went out:
 * after-commit sends a ghost; the outbox record rolls back with it. */
static void transactional_rollback_after_publishing(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    static const int64_t second[] = {2};
    tb_lose_reply_of(&t, second, 1);
    tb_delivery(&t)->transactional = true;
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    sim_counts c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 1);
    assert_int_equal(c.effects, 10);
    assert_int_equal(c.lost_events, 0);
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX;
    c = tb_counts(&t, 1);
    assert_int_equal(c.ghost_events, 0);
    assert_int_equal(c.events_published, 10);
}

/* Events lost on the way to the second broker (after-commit publishes
 * once); the second hop's own faults are its own measures. */
static void second_hop_measures(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 3000);
    t.links[t.event].lose_request = 0.1;
    sim_counts c = tb_counts(&t, 4);
    /* 3000 * 0.1, sd 16.4 */
    assert_in_range(c.lost_events, 300 - 5 * 17, 300 + 5 * 17);
    assert_int_equal(c.downstream_effects, c.jobs - c.lost_events);
    /* the mailer's acks are lost and it checks nothing: duplicates there */
    t.links[t.event].lose_request = 0;
    t.links[t.delivery2].lose_reply = 0.2;
    c = tb_counts(&t, 4);
    assert_int_equal(c.lost_events, 0);
    assert_int_equal(c.duplicates, 0);
    assert_true(c.downstream_duplicates > 500);
    assert_int_equal(c.downstream_effects, c.downstream_deliveries);
    /* an at-most-once second broker that loses sends: downstream losses */
    t.links[t.delivery2].lose_reply = 0;
    t.parts[t.broker2].delivery = SIM_DELIVERY_AT_MOST_ONCE;
    t.parts[t.handler2].crash_after_effect = 0.1;
    t.parts[t.handler2].idempotency = SIM_IDEM_KEY_IN_TRANSACTION;
    c = tb_counts(&t, 4);
    assert_true(c.downstream_lost_writes > 100);
    assert_int_equal(c.downstream_duplicates, 0);
    assert_int_equal(c.downstream_errors, 0);
    /* tries run out at the second broker: downstream errors */
    t.parts[t.broker2].delivery = SIM_DELIVERY_AT_LEAST_ONCE;
    t.parts[t.handler2].crash_after_effect = 0;
    t.links[t.delivery2].lose_request = 0.5;
    c = tb_counts(&t, 4);
    /* 3000 * 0.5^5 = 94, sd 9.6 */
    assert_in_range(c.downstream_errors, 94 - 5 * 10, 94 + 5 * 10);
    assert_int_equal(c.errors, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(teaching_board_without_dedup_charges_twice),
        cmocka_unit_test(teaching_board_with_id_check_charges_once),
        cmocka_unit_test(teaching_board_latency),
        cmocka_unit_test(lost_acks_without_dedup_duplicate),
        cmocka_unit_test(key_in_transaction_never_duplicates_locally),
        cmocka_unit_test(crash_after_external_call_repeats_it),
        cmocka_unit_test(provider_key_charges_once),
        cmocka_unit_test(provider_key_expires),
        cmocka_unit_test(business_key_drops_legitimate_repeats),
        cmocka_unit_test(set_never_counts_a_duplicate),
        cmocka_unit_test(at_most_once_loses_instead_of_duplicating),
        cmocka_unit_test(short_key_ttl_lets_late_repeats_through),
        cmocka_unit_test(key_after_effect_repeats_on_crash),
        cmocka_unit_test(transactional_link_covers_local_effects_only),
        cmocka_unit_test(lost_requests_only_cause_retries),
        cmocka_unit_test(provider_failures_are_retried),
        cmocka_unit_test(slow_provider_charges_every_try),
        cmocka_unit_test(lost_provider_responses_duplicate_without_dedup),
        cmocka_unit_test(service_queues_requests_fifo),
        cmocka_unit_test(broker_sends_into_free_slots),
        cmocka_unit_test(poisson_arrivals_spread_over_the_window),
        cmocka_unit_test(crash_loses_queued_service_requests),
        cmocka_unit_test(racing_copies_by_policy),
        cmocka_unit_test(racing_copies_with_a_call),
        cmocka_unit_test(failed_call_releases_the_claim),
        cmocka_unit_test(lost_confirm_publishes_twice),
        cmocka_unit_test(publisher_gives_up),
        cmocka_unit_test(every_commit_crashes),
        cmocka_unit_test(transactional_rollback_after_publishing),
        cmocka_unit_test(second_hop_measures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

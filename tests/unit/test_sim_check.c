/* test_sim_check.c — sim_board_check: every shape the model runs passes,
 * and each bad board gets its one sentence, part and link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim_testlib.h"

#include <math.h>
#include <string.h>

typedef struct {
    int part, link;
    char msg[256];
} verdict;

static verdict check(const tb_board *t)
{
    verdict v;
    sim_limits lim = sim_limits_default();
    memset(v.msg, 'x', sizeof v.msg);
    v.link = 99;
    v.part = sim_board_check(&t->b, &lim, v.msg, sizeof v.msg, &v.link);
    return v;
}

static void expect(const tb_board *t, int part, int link, const char *msg)
{
    verdict v = check(t);
    if (v.part != part || v.link != link || strcmp(v.msg, msg) != 0)
        fail_msg("got part %d link %d \"%s\"; expected part %d link %d \"%s\"", v.part, v.link,
                 v.msg, part, link, msg);
}

static void good_boards_pass(void **state)
{
    (void)state;
    for (unsigned shape = 0; shape < 8; shape++) {
        tb_board t;
        tb_init(&t, shape, 100);
        verdict v = check(&t);
        assert_int_equal(v.part, -1);
        assert_int_equal(v.link, -1);
        assert_string_equal(v.msg, "");
    }
    /* an isolated part without links is only drawn */
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    t.parts[t.b.n_parts] = t.parts[t.users];
    t.parts[t.b.n_parts].id = "admins";
    t.b.n_parts++;
    assert_int_equal(check(&t).part, -1);
    /* a consumer fed straight by the users is an HTTP handler */
    tb_init(&t, 0, 10);
    t.parts[t.handler].kind = SIM_KIND_CONSUMER;
    assert_int_equal(check(&t).part, -1);
}

static void board_level_problems(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 0);
    expect(&t, -2, -1, "traffic.jobs must be at least 1");
    tb_init(&t, TB_BROKER, -5);
    expect(&t, -2, -1, "traffic.jobs must be at least 1");
    tb_init(&t, TB_BROKER, 10000001);
    expect(&t, -2, -1, "traffic.jobs must be at most 10000000");
    tb_init(&t, TB_BROKER, 10);
    t.b.replications = 1001;
    expect(&t, -2, -1, "replications must be at most 1000");
    t.b.replications = 0;
    expect(&t, -2, -1, "replications must be at least 1");
    tb_init(&t, TB_BROKER, 10);
    t.b.traffic.from = t.broker;
    expect(&t, -2, -1, "traffic.from must be a users part, not a message-broker");
    t.b.traffic.from = 17;
    expect(&t, -2, -1, "traffic.from does not name a part of the board");
    tb_init(&t, TB_BROKER, 10);
    t.b.traffic.repeat_share = 1.5;
    expect(&t, -2, -1, "traffic.repeat_share must be a probability between 0 and 1");
    t.b.traffic.repeat_share = NAN;
    expect(&t, -2, -1, "traffic.repeat_share must be a probability between 0 and 1");
    tb_init(&t, TB_BROKER, 10);
    t.b.traffic.over_us = -1;
    expect(&t, -2, -1, "traffic.over must not be negative");
    tb_init(&t, TB_BROKER, 10);
    t.b.goals[SIM_M_DUPLICATES] = (sim_goal){.has_max = true, .max = 1, .has_min = true, .min = 2};
    expect(&t, -2, -1, "the goal on duplicates has a max below its min");
    tb_init(&t, TB_BROKER, 10);
    t.b.n_parts = 0;
    expect(&t, -2, -1, "the board has no parts");
    tb_init(&t, TB_BROKER, 10);
    t.links[1].to = 9;
    expect(&t, -2, 1, "link 2 names a part that does not exist");
}

static void topology_problems(void **state)
{
    (void)state;
    tb_board t;
    /* the broker's delivery link is missing */
    tb_init(&t, TB_BROKER, 10);
    t.b.n_links = 1;
    expect(&t, t.broker, -1, "part 'broker' has no outgoing link to a consumer or service");
    /* without ids, parts are named by index */
    t.parts[t.broker].id = NULL;
    expect(&t, t.broker, -1, "part 1 has no outgoing link to a consumer or service");

    tb_init(&t, TB_BROKER, 10);
    t.b.n_links = 0;
    expect(&t, t.users, -1,
           "part 'users' has no outgoing link to a message broker, consumer or service");

    /* consumer -> broker closes a loop */
    tb_init(&t, TB_BROKER, 10);
    t.links[2] = t.links[1];
    t.links[2].from = t.handler;
    t.links[2].to = t.broker;
    t.b.n_links = 3;
    expect(&t, -2, 1, "links form a cycle: 'broker' -> 'processor' -> 'broker'");
    /* so does a self link */
    tb_init(&t, TB_BROKER, 10);
    t.links[2] = t.links[1];
    t.links[2].to = t.broker;
    t.b.n_links = 3;
    expect(&t, -2, 2, "links form a cycle: 'broker' -> 'broker'");

    /* a broker that feeds a provider */
    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    t.links[t.delivery].to = t.provider;
    t.links[t.call].from = t.provider;
    t.links[t.call].to = t.handler;
    expect(&t, t.broker, t.delivery,
           "part 'broker' links to part 'provider', a payment-provider; a broker delivers to a "
           "consumer or service");

    /* two handlers in a row */
    tb_init(&t, TB_BROKER, 10);
    int other = (int)t.b.n_parts++;
    t.parts[other] = t.parts[t.handler];
    t.parts[other].id = "other";
    t.links[2] = t.links[1];
    t.links[2].from = t.handler;
    t.links[2].to = other;
    t.b.n_links = 3;
    expect(&t, t.handler, 2,
           "part 'processor' links to part 'other', a consumer; a consumer may link only to one "
           "payment-provider, one database and one message-broker");

    /* two outgoing links from the users */
    tb_init(&t, TB_BROKER, 10);
    t.links[2] = t.links[0];
    t.links[2].to = t.handler;
    t.b.n_links = 3;
    expect(&t, t.users, -1,
           "part 'users' has more than one outgoing link; the users send to one message broker, "
           "consumer or service");

    /* the same link twice */
    tb_init(&t, TB_BROKER, 10);
    t.links[2] = t.links[1];
    t.b.n_links = 3;
    expect(&t, t.broker, 2, "the link from part 'broker' to part 'processor' is given twice");

    /* a second users part that sends into the chain */
    tb_init(&t, TB_BROKER, 10);
    int second = (int)t.b.n_parts++;
    t.parts[second] = t.parts[t.users];
    t.parts[second].id = "admins";
    t.links[2] = t.links[0];
    t.links[2].from = second;
    t.b.n_links = 3;
    expect(&t, second, 2,
           "part 'admins' has links but the traffic from part 'users' never reaches it");

    /* a provider that talks on */
    tb_init(&t, TB_BROKER | TB_PROVIDER | TB_DATABASE, 10);
    t.links[t.b.n_links] = t.links[t.call];
    t.links[t.b.n_links].from = t.provider;
    t.links[t.b.n_links].to = t.database;
    t.b.n_links++;
    expect(&t, t.provider, 4, "part 'provider' is a payment-provider and cannot send to part 'db'");

    /* the users send to a database */
    tb_init(&t, TB_DATABASE, 10);
    t.links[t.delivery].to = t.database;
    t.links[t.write].from = t.database;
    t.links[t.write].to = t.handler;
    expect(&t, t.users, t.delivery,
           "part 'users' links to part 'db', a database; the users send to a message broker, "
           "consumer or service");
}

static void value_problems(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    tb_sender(&t)->tries = 0;
    expect(&t, t.broker, -1, "tries must be at least 1");
    tb_sender(&t)->tries = 1001;
    expect(&t, t.broker, -1, "tries must be at most 1000");

    tb_init(&t, TB_BROKER, 10);
    tb_sender(&t)->redelivery_after_us = 0;
    expect(&t, t.broker, -1, "redelivery_after must be positive");
    tb_sender(&t)->delivery = SIM_DELIVERY_AT_MOST_ONCE; /* no timer then */
    expect(&t, -1, -1, "");

    tb_init(&t, 0, 10);
    tb_sender(&t)->timeout_us = -3;
    expect(&t, t.users, -1, "timeout must be positive");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->concurrency = 0;
    expect(&t, t.handler, -1, "concurrency must be at least 1");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->crash_after_effect = -0.1;
    expect(&t, t.handler, -1, "crash_after_effect must be a probability between 0 and 1");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->work = (sim_latency){100, 50};
    expect(&t, t.handler, -1, "work p99 must not be below its median");
    tb_handler(&t)->work = (sim_latency){0, 50};
    expect(&t, t.handler, -1, "work median must be positive when its p99 is larger");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->idempotency = SIM_IDEM_PROVIDER_KEY;
    expect(&t, t.handler, -1, "idempotency provider-key needs a link to a payment-provider");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->key_ttl_us = -1;
    expect(&t, t.handler, -1, "key_ttl must not be negative");

    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    tb_handler(&t)->timeout_us = 0;
    expect(&t, t.handler, -1, "timeout must be positive");
    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    t.parts[t.provider].fail = 2;
    expect(&t, t.provider, -1, "fail must be a probability between 0 and 1");
    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    t.parts[t.provider].call = (sim_latency){-1, 10};
    expect(&t, t.provider, -1, "call median must not be negative");

    tb_init(&t, TB_BROKER | TB_DATABASE, 10);
    t.parts[t.database].write = (sim_latency){10, 5};
    expect(&t, t.database, -1, "write p99 must not be below its median");
}

static void link_problems(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    tb_delivery(&t)->lose_reply = 1.5;
    expect(&t, t.broker, t.delivery, "lose_reply must be a probability between 0 and 1");
    tb_init(&t, TB_BROKER, 10);
    tb_delivery(&t)->lose_request = -0.5;
    expect(&t, t.broker, t.delivery, "lose_request must be a probability between 0 and 1");
    tb_init(&t, TB_BROKER, 10);
    tb_delivery(&t)->rtt_us = -1;
    expect(&t, t.broker, t.delivery, "rtt must not be negative");

    tb_init(&t, TB_BROKER, 5);
    static const int64_t nine[] = {2, 9};
    tb_lose_reply_of(&t, nine, 2);
    expect(&t, t.broker, t.delivery, "lose_reply_of names job 9; job numbers run from 1 to 5");

    tb_init(&t, 0, 10);
    tb_delivery(&t)->transactional = true;
    expect(&t, t.users, t.delivery, "transactional applies only to a link from a message broker");

    tb_init(&t, TB_BROKER | TB_DATABASE, 10);
    t.links[t.write].lose_reply = 0.1;
    expect(&t, t.handler, t.write,
           "faults are not modelled on a handler's link to its database (its writes are part of "
           "the effect)");
    /* the publisher's link may lose publishes and confirms */
    tb_init(&t, TB_BROKER, 10);
    t.links[t.publish].lose_reply = 0.1;
    t.links[t.publish].lose_request = 0.1;
    expect(&t, -1, -1, "");

    /* faults on the provider link are fine */
    tb_init(&t, TB_BROKER | TB_PROVIDER, 10);
    t.links[t.call].lose_reply = 0.1;
    t.links[t.call].lose_request = 0.1;
    expect(&t, -1, -1, "");
}

/* The second release's parts and settings. */
static void two_hop_and_publisher_problems(void **state)
{
    (void)state;
    tb_board t;
    /* every shape with a second hop passes */
    for (unsigned shape = TB_TWO_HOPS; shape < 2 * TB_TWO_HOPS; shape++) {
        tb_init(&t, shape, 10);
        expect(&t, -1, -1, "");
        assert_int_equal(sim_board_hops(&t.b), 2);
    }
    tb_init(&t, TB_BROKER, 10);
    assert_int_equal(sim_board_hops(&t.b), 1);
    tb_sender(&t)->tries = 0;
    assert_int_equal(sim_board_hops(&t.b), 0);

    /* publish needs the second broker; after-commit is the harmless default */
    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX;
    expect(&t, t.handler, -1,
           "publish outbox needs a link from part 'processor' to a message broker");
    tb_handler(&t)->publish = SIM_PUBLISH_BEFORE_COMMIT;
    expect(&t, t.handler, -1,
           "publish before-commit needs a link from part 'processor' to a message broker");
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    t.parts[t.handler2].publish = SIM_PUBLISH_OUTBOX;
    expect(&t, t.handler2, -1,
           "publish outbox needs a link from part 'mailer' to a message broker");
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    tb_handler(&t)->publish = (sim_publish)7;
    expect(&t, t.handler, -1, "publish must be after-commit, before-commit or outbox");
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX;
    tb_handler(&t)->relay_every_us = 0;
    expect(&t, t.handler, -1, "relay_every must be positive");

    /* only the relay waits for a confirm, and it must get one at last */
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    t.links[t.event].lose_reply = 0.1;
    expect(&t, t.handler, t.event,
           "lose_reply on a handler's link to a broker needs publish: outbox (only the outbox "
           "relay waits for the broker's confirm)");
    tb_handler(&t)->publish = SIM_PUBLISH_OUTBOX;
    expect(&t, -1, -1, "");
    t.links[t.event].lose_request = 1;
    expect(&t, t.handler, t.event,
           "with publish: outbox the relay sends until the broker confirms; lose_request and "
           "lose_reply must be below 1");
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    t.links[t.event].lose_request = 0.5; /* an inline publish may be lost */
    expect(&t, -1, -1, "");

    /* at most two hops */
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    int third = (int)t.b.n_parts++;
    t.parts[third] = t.parts[t.broker2];
    t.parts[third].id = "third";
    t.links[t.b.n_links] = t.links[t.event];
    t.links[t.b.n_links].from = t.handler2;
    t.links[t.b.n_links].to = third;
    t.b.n_links++;
    expect(&t, t.handler2, (int)t.b.n_links - 1,
           "part 'mailer' links to part 'third', a message-broker; a board has at most two hops, "
           "so the second handler cannot publish on");

    /* a second broker link from the first handler */
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    int extra = (int)t.b.n_parts++;
    t.parts[extra] = t.parts[t.broker2];
    t.parts[extra].id = "more";
    t.links[t.b.n_links] = t.links[t.event];
    t.links[t.b.n_links].to = extra;
    t.b.n_links++;
    expect(&t, t.handler, (int)t.b.n_links - 1,
           "part 'processor' links to more than one message-broker");

    /* one provider for both handlers */
    tb_init(&t, TB_BROKER | TB_PROVIDER | TB_TWO_HOPS, 10);
    t.links[t.b.n_links] = t.links[t.call];
    t.links[t.b.n_links].from = t.handler2;
    t.b.n_links++;
    expect(&t, t.provider, (int)t.b.n_links - 1,
           "part 'provider' takes calls from both handlers; give each handler its own "
           "payment-provider");

    /* the second broker delivers to a handler */
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    int db = (int)t.b.n_parts++;
    t.parts[db] = t.parts[t.handler];
    t.parts[db].kind = SIM_KIND_DATABASE;
    t.parts[db].id = "db";
    t.links[t.delivery2].to = db;
    expect(&t, t.broker2, t.delivery2,
           "part 'events' links to part 'db', a database; a broker delivers to a consumer or "
           "service");

    /* key-claimed-first needs a lease */
    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
    tb_handler(&t)->lease_us = 0;
    expect(&t, t.handler, -1, "lease must be positive");
    tb_handler(&t)->idempotency = SIM_IDEM_NONE; /* ignored otherwise */
    expect(&t, -1, -1, "");

    tb_init(&t, TB_BROKER, 10);
    tb_handler(&t)->crash_after_commit = 1.5;
    expect(&t, t.handler, -1, "crash_after_commit must be a probability between 0 and 1");

    /* the publisher and the broker's window */
    tb_init(&t, TB_BROKER, 10);
    t.parts[t.users].message_id = (sim_message_id)5;
    expect(&t, t.users, -1, "message_id must be producer or per-publish");
    tb_init(&t, TB_BROKER, 10);
    t.parts[t.users].tries = 0;
    expect(&t, t.users, -1, "tries must be at least 1");
    tb_init(&t, TB_BROKER, 10);
    t.parts[t.users].timeout_us = 0;
    expect(&t, t.users, -1, "timeout must be positive");
    tb_init(&t, TB_BROKER, 10);
    tb_sender(&t)->dedup_window_us = -1;
    expect(&t, t.broker, -1, "dedup_window must not be negative");
    tb_sender(&t)->dedup_window_us = SIM_FOREVER;
    expect(&t, -1, -1, "");

    /* transactional on the second hop's delivery link is fine; on the
     * event link it is not */
    tb_init(&t, TB_BROKER | TB_TWO_HOPS, 10);
    t.links[t.delivery2].transactional = true;
    expect(&t, -1, -1, "");
    t.links[t.event].transactional = true;
    expect(&t, t.handler, t.event, "transactional applies only to a link from a message broker");
}

static void check_with_small_buffer_and_no_outputs(void **state)
{
    (void)state;
    tb_board t;
    tb_init(&t, TB_BROKER, 10);
    tb_sender(&t)->tries = 0;
    char small[6];
    int link = 5;
    assert_int_equal(sim_board_check(&t.b, NULL, small, sizeof small, &link), t.broker);
    assert_string_equal(small, "tries");
    assert_int_equal(link, -1);
    assert_int_equal(sim_board_check(&t.b, NULL, NULL, 0, NULL), t.broker);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_boards_pass),
        cmocka_unit_test(board_level_problems),
        cmocka_unit_test(topology_problems),
        cmocka_unit_test(value_problems),
        cmocka_unit_test(link_problems),
        cmocka_unit_test(two_hop_and_publisher_problems),
        cmocka_unit_test(check_with_small_buffer_and_no_outputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

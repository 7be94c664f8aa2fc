/* test_board.c — boards read against content/catalog.yaml: catalog
 * defaults for what a board leaves out (and a record of what it set),
 * every error with its text and position, goals in each measure's unit,
 * and overrides for levels, charts and --set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "load/board.h"
#include "load/fields.h"
#include "gen_testlib.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bp_catalog *cat;
static sim_limits lim;

static int setup(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, stderr);
    cat = catalog_load("content/catalog.yaml", &d);
    diag_free(&d);
    lim = sim_limits_default();
    return cat ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    catalog_free(cat);
    return 0;
}

/* users -> broker -> consumer -> provider, with a few settings. */
static const char base[] = "id: mini\n"
                           "title: Mini\n"
                           "seed: 3\n"
                           "replications: 4\n"
                           "parts:\n"
                           "  - {id: users, kind: users, label: Shop}\n"
                           "  - {id: broker, kind: message-broker}\n"
                           "  - {id: proc, kind: consumer, concurrency: 2, key_ttl: sqs-fifo}\n"
                           "  - {id: psp, kind: payment-provider}\n"
                           "links:\n"
                           "  - {from: users, to: broker, protocol: http2}\n"
                           "  - {from: broker, to: proc, protocol: amqp, lose_reply: 10%}\n"
                           "  - {from: proc, to: psp, protocol: http1}\n"
                           "traffic: {from: users, jobs: 20, over: 2 s}\n";

/* Parse and build; *d collects messages (caller frees it). */
static bp_board *build(const char *text, diag *d)
{
    diag_init(d, NULL);
    ynode *root = gt_yaml(text, d);
    if (!root)
        fail_msg("YAML refused:\n%s", diag_text(d));
    bp_board *b = board_from_tree("b.yaml", root, cat, &lim, d);
    ynode_free(root);
    return b;
}

/* text (board with `from` replaced by `to`, or a whole board when from is
 * NULL) fails with exactly want. */
static void refused_in(const char *board, const char *from, const char *to, const char *want)
{
    char *text;
    if (from) {
        const char *at = strstr(board, from);
        if (!at)
            fail_msg("'%s' is not in the board", from);
        text = xasprintf("%.*s%s%s", (int)(at - board), board, to, at + strlen(from));
    } else {
        text = xstrdup(to);
    }
    diag d;
    bp_board *b = build(text, &d);
    if (b)
        fail_msg("accepted:\n%s", text);
    assert_string_equal(diag_text(&d) ? diag_text(&d) : "", want);
    diag_free(&d);
    free(text);
}

static void refused(const char *from, const char *to, const char *want)
{
    refused_in(base, from, to, want);
}

static size_t part_field(const char *name)
{
    size_t n;
    const field_def *t = fields_part(&n);
    const field_def *f = fields_find(t, n, name);
    assert_non_null(f);
    return (size_t)(f - t);
}

static size_t link_field(const char *name)
{
    size_t n;
    const field_def *t = fields_link(&n);
    const field_def *f = fields_find(t, n, name);
    assert_non_null(f);
    return (size_t)(f - t);
}

static void defaults_from_the_catalog(void **state)
{
    (void)state;
    diag d;
    bp_board *b = build(base, &d);
    assert_non_null(b);
    assert_null(diag_text(&d));
    assert_string_equal(b->id, "mini");
    assert_string_equal(b->sim.id, "mini");
    assert_string_equal(b->title, "Mini");
    assert_string_equal(b->path, "b.yaml");
    assert_int_equal(b->sim.seed, 3);
    assert_int_equal(b->sim.replications, 4);
    assert_int_equal(b->sim.n_parts, 4);
    assert_int_equal(b->sim.n_links, 3);

    /* a part is its kind's catalog entry with the board's settings on top */
    const sim_part *proc = &b->sim.parts[2], *dflt = &cat->kinds[SIM_KIND_CONSUMER];
    assert_int_equal(proc->kind, SIM_KIND_CONSUMER);
    assert_int_equal(proc->concurrency, 2);
    assert_int_equal(proc->key_ttl_us, 300000000); /* sqs-fifo: 5 min */
    assert_int_equal(proc->timeout_us, dflt->timeout_us);
    assert_int_equal(proc->work.median_us, dflt->work.median_us);
    assert_int_equal(proc->idempotency, dflt->idempotency);
    assert_true(proc->vcpu == dflt->vcpu);
    assert_int_equal(b->part_set[2].bits,
                     (1ull << part_field("concurrency")) | (1ull << part_field("key_ttl")));
    assert_int_equal(b->part_set[1].bits, 0);
    assert_int_equal(b->sim.parts[3].key_ttl_us, cat->kinds[SIM_KIND_PROVIDER].key_ttl_us);
    /* sim_board_check names parts by id */
    assert_string_equal(b->sim.parts[2].id, "proc");

    /* labels: the board's, else the kind's */
    assert_string_equal(b->parts[0].label, "Shop");
    assert_string_equal(b->parts[1].label, cat->kind_label[SIM_KIND_BROKER]);
    assert_string_equal(b->parts[2].id, "proc");
    assert_int_equal(b->parts[2].pos.line, 8);
    assert_int_equal(b->parts[2].pos.col, 5);
    assert_false(b->parts[2].has_at);

    /* links: the protocol's catalog entry plus the board's settings */
    const sim_link *l = &b->sim.links[1];
    assert_int_equal(l->from, 1);
    assert_int_equal(l->to, 2);
    assert_int_equal(l->protocol, SIM_PROTO_AMQP);
    assert_true(l->lose_reply == 0.1);
    assert_int_equal(l->rtt_us, cat->protocols[SIM_PROTO_AMQP].rtt_us);
    assert_true(l->reply_round_trips == cat->protocols[SIM_PROTO_AMQP].reply_round_trips);
    assert_null(l->lose_reply_of);
    assert_int_equal(b->link_set[1].bits, 1ull << link_field("lose_reply"));
    assert_int_equal(b->link_set[0].bits, 0);
    assert_string_equal(b->links[0].label, cat->protocol_label[SIM_PROTO_HTTP2]);
    assert_int_equal(b->links[2].pos.line, 13);

    /* traffic: the board's, with the catalog's op and arrivals */
    assert_int_equal(b->sim.traffic.from, 0);
    assert_int_equal(b->sim.traffic.jobs, 20);
    assert_int_equal(b->sim.traffic.over_us, 2000000);
    assert_int_equal(b->sim.traffic.op, cat->traffic.op);
    assert_int_equal(b->sim.traffic.arrivals, cat->traffic.arrivals);
    assert_int_equal(b->traffic_pos.line, 14);
    assert_true(b->sim.prices.vcpu_usd_month == cat->prices.vcpu_usd_month);

    /* no goals, no expectation */
    for (int m = 0; m < SIM_M_COUNT; m++)
        assert_false(b->sim.goals[m].has_max || b->sim.goals[m].has_min);
    assert_int_equal(b->sim.expect, SIM_EXPECT_NONE);
    assert_int_equal(board_part_index(b, "psp"), 3);
    assert_int_equal(board_part_index(b, "nope"), -1);
    board_free(b);
    board_free(NULL);
    diag_free(&d);

    /* seed and replications default to 1 */
    b = build("id: x\ntitle: X\nparts: [{id: u, kind: users}, {id: s, kind: service}]\n"
              "links: [{from: u, to: s, protocol: http1}]\ntraffic: {from: u, jobs: 1, over: 1 s, "
              "op: set, arrivals: even}\n",
              &d);
    assert_non_null(b);
    assert_int_equal(b->sim.seed, 1);
    assert_int_equal(b->sim.replications, 1);
    assert_int_equal(b->sim.traffic.op, SIM_OP_SET);
    assert_int_equal(b->sim.traffic.arrivals, SIM_ARRIVALS_EVEN);
    board_free(b);
    diag_free(&d);
}

static void settings_per_kind(void **state)
{
    (void)state;
    diag d;
    bp_board *b = build("id: x\ntitle: X\n"
                        "parts:\n"
                        "  - {id: u, kind: users, tries: 3, timeout: 1.5 s, at: [0, 2]}\n"
                        "  - {id: s, kind: service, idempotency: key-in-transaction, "
                        "key_ttl: forever, crash_after_effect: 1%, restart: 5 min, vcpu: 0.5, "
                        "price: 12 USD, external: true}\n"
                        "  - {id: db, kind: database, write_median: 3 ms, write_p99: 20 ms}\n"
                        "links:\n"
                        "  - {from: u, to: s, protocol: http2, rtt: 250 us, lose_request: 0.5}\n"
                        "  - {from: s, to: db, protocol: sql, reply_round_trips: 2}\n"
                        "traffic: {from: u, jobs: 1, over: 1 s, repeat_share: 25%}\n",
                        &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    const sim_part *u = &b->sim.parts[0], *s = &b->sim.parts[1], *db = &b->sim.parts[2];
    assert_int_equal(u->tries, 3);
    assert_int_equal(u->timeout_us, 1500000);
    assert_true(b->parts[0].has_at);
    assert_int_equal(b->parts[0].at_col, 0);
    assert_int_equal(b->parts[0].at_row, 2);
    assert_int_equal(s->idempotency, SIM_IDEM_KEY_IN_TRANSACTION);
    assert_int_equal(s->key_ttl_us, SIM_FOREVER);
    assert_true(s->crash_after_effect == 0.01);
    assert_int_equal(s->restart_us, 300000000);
    assert_true(s->vcpu == 0.5);
    assert_true(s->fixed_usd_month == 12);
    assert_true(s->external);
    assert_int_equal(db->write.median_us, 3000);
    assert_int_equal(db->write.p99_us, 20000);
    assert_int_equal(b->sim.links[0].rtt_us, 250);
    assert_true(b->sim.links[0].lose_request == 0.5);
    assert_true(b->sim.links[1].reply_round_trips == 2);
    assert_true(b->sim.traffic.repeat_share == 0.25);
    board_free(b);
    diag_free(&d);
}

static void lose_reply_of(void **state)
{
    (void)state;
    /* several links with job lists: each points at its own numbers, also
     * after the shared storage grew */
    diag d;
    bp_board *b = build("id: x\ntitle: X\n"
                        "parts: [{id: u, kind: users}, {id: b, kind: message-broker}, "
                        "{id: c, kind: consumer}, {id: p, kind: payment-provider}]\n"
                        "links:\n"
                        "  - {from: u, to: b, protocol: http2}\n"
                        "  - {from: b, to: c, protocol: amqp, lose_reply_of: [1, 2, 3, 4, 5, 6, "
                        "7, 8, 9]}\n"
                        "  - {from: c, to: p, protocol: http1, lose_reply_of: [10, 20]}\n"
                        "traffic: {from: u, jobs: 30, over: 1 s}\n",
                        &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    const sim_link *l = b->sim.links;
    assert_null(l[0].lose_reply_of);
    assert_int_equal(l[0].n_lose_reply_of, 0);
    assert_int_equal(l[1].n_lose_reply_of, 9);
    assert_ptr_equal(l[1].lose_reply_of, b->lose_reply_of);
    for (int i = 0; i < 9; i++)
        assert_int_equal(l[1].lose_reply_of[i], i + 1);
    assert_int_equal(l[2].n_lose_reply_of, 2);
    assert_ptr_equal(l[2].lose_reply_of, b->lose_reply_of + 9);
    assert_int_equal(l[2].lose_reply_of[0], 10);
    assert_int_equal(l[2].lose_reply_of[1], 20);
    assert_true((b->link_set[2].bits & (1ull << link_field("lose_reply"))) == 0);
    board_free(b);
    diag_free(&d);

    refused("lose_reply: 10%}", "lose_reply_of: [0, x]}",
            "b.yaml:12:62: error: job number must be at least 1, found 0\n"
            "b.yaml:12:65: error: job number: expected a whole number, found 'x'\n");
    refused("lose_reply: 10%}", "lose_reply_of: 3}",
            "b.yaml:12:61: error: lose_reply_of must be a list, found '3'\n");
}

static void goals_and_expect(void **state)
{
    (void)state;
    char *text = xasprintf("%sgoals:\n"
                           "  duplicates: {max: 0}\n"
                           "  completion_time: {max: 40 s}\n"
                           "  error_rate: {max: 1%%}\n"
                           "  monthly_cost: {max: 20 USD}\n"
                           "  latency_p99: {min: 10 ms, max: 1.5 s}\n"
                           "  deliveries: {min: 20}\n"
                           "expect: fail\n",
                           base);
    diag d;
    bp_board *b = build(text, &d);
    free(text);
    if (!b)
        fail_msg("%s", diag_text(&d));
    const sim_goal *g = b->sim.goals;
    assert_true(g[SIM_M_DUPLICATES].has_max && !g[SIM_M_DUPLICATES].has_min);
    assert_true(g[SIM_M_DUPLICATES].max == 0);
    assert_true(g[SIM_M_COMPLETION_TIME].max == 40); /* seconds */
    assert_true(g[SIM_M_ERROR_RATE].max == 0.01);    /* a fraction */
    assert_true(g[SIM_M_MONTHLY_COST].max == 20);    /* USD per month */
    assert_true(g[SIM_M_LATENCY_P99].has_min && g[SIM_M_LATENCY_P99].has_max);
    assert_true(g[SIM_M_LATENCY_P99].min == 0.01);
    assert_true(g[SIM_M_LATENCY_P99].max == 1.5);
    assert_true(g[SIM_M_DELIVERIES].has_min && g[SIM_M_DELIVERIES].min == 20);
    assert_false(g[SIM_M_JOBS].has_max || g[SIM_M_JOBS].has_min);
    assert_int_equal(b->goal_pos[SIM_M_COMPLETION_TIME].line, 17);
    assert_int_equal(b->goal_pos[SIM_M_COMPLETION_TIME].col, 3);
    assert_int_equal(b->sim.expect, SIM_EXPECT_FAIL);
    assert_int_equal(b->expect_pos.line, 22);
    assert_int_equal(b->expect_pos.col, 9);
    board_free(b);
    diag_free(&d);

    refused(NULL,
            "id: x\ntitle: X\nparts: [{id: u, kind: users}, {id: s, kind: service}]\n"
            "links: [{from: u, to: s, protocol: http1}]\ntraffic: {from: u, jobs: 1, over: 1 s}\n"
            "goals:\n"
            "  duplicats: {max: 0}\n"
            "  completion_time: {max: 40}\n"
            "  error_rate: {max: 1 s}\n"
            "  monthly_cost: {max: 20}\n"
            "  latency_p50: {}\n"
            "  latency_p99: {min: 2 s, max: 1 s}\n"
            "  jobs: {maximum: 3}\n"
            "  events: 5\n"
            "expect: maybe\n",
            "b.yaml:7:3: error: unknown measure 'duplicats'; did you mean 'duplicates'?\n"
            "b.yaml:8:28: error: completion_time: duration '40' needs a unit (us, ms, s, min, h "
            "or d), e.g. '40 s'\n"
            "b.yaml:9:23: error: error_rate: probability '1 s' takes no unit but '%' (write 0.2 or "
            "20%)\n"
            "b.yaml:10:25: error: monthly_cost: amount '20' needs a currency, e.g. '20 USD'\n"
            "b.yaml:11:16: error: goal 'latency_p50' needs 'max' or 'min'\n"
            "b.yaml:12:16: error: goal 'latency_p99' has min above max: nothing can meet it\n"
            "b.yaml:13:10: error: unknown goal key 'maximum' (expected 'max' or 'min')\n"
            "b.yaml:13:9: error: goal 'jobs' needs 'max' or 'min'\n"
            "b.yaml:14:11: error: a goal must be a mapping, found '5'\n"
            "b.yaml:15:9: error: unknown expect 'maybe' (expected 'pass' or 'fail')\n");
}

static void errors(void **state)
{
    (void)state;
    refused("seed: 3\n", "sed: 3\n",
            "b.yaml:3:1: error: unknown board key 'sed'; did you mean 'seed'?\n");
    refused("traffic: {from: users, jobs: 20, over: 2 s}\n", "",
            "b.yaml:1:1: error: a board needs 'traffic'\n");
    refused("id: mini\ntitle: Mini\n", "",
            "b.yaml:1:1: error: a board needs 'id'\n"
            "b.yaml:1:1: error: a board needs 'title'\n");
    refused("kind: message-broker}", "kind: mesage-broker}",
            "b.yaml:7:24: error: unknown part kind 'mesage-broker'; did you mean "
            "'message-broker'?\n");
    refused("kind: message-broker}", "kind: topic}",
            "b.yaml:7:24: error: unknown part kind 'topic' (expected 'users', 'message-broker', "
            "'consumer', 'service', 'payment-provider', 'database' or 'dead-letter-queue')\n");
    refused("kind: message-broker}", "kind: queue}",
            "b.yaml:7:24: error: unknown part kind 'queue'; did you mean 'dead-letter-queue'?\n");
    refused("protocol: http2}", "protocol: http3}",
            "b.yaml:11:41: error: unknown protocol 'http3'; did you mean 'http1'?\n");
    refused("concurrency: 2,", "concurrency: 2, idempotency: key-in-tx,",
            "b.yaml:8:61: error: unknown idempotency policy 'key-in-tx' (expected 'none', "
            "'key-after-effect', 'key-in-transaction', 'provider-key', 'business-key' or "
            "'key-claimed-first')\n");
    refused("concurrency: 2,", "concurency: 2,",
            "b.yaml:8:32: error: unknown part key 'concurency'; did you mean 'concurrency'?\n");
    refused("label: Shop}", "label: Shop, concurrency: 2}",
            "b.yaml:6:43: error: 'concurrency' does not apply to a users part (it applies to "
            "consumer and service)\n");
    refused("{id: psp, kind: payment-provider}", "{id: proc, kind: payment-provider}",
            "b.yaml:9:10: error: part id 'proc' is used twice (first at line 8)\n"
            "b.yaml:13:22: error: unknown part 'psp' (expected 'users', 'broker', 'proc' or "
            "'proc')\n");
    refused("{id: broker,", "{id: Broker,",
            "b.yaml:7:10: error: part id 'Broker' may only use a-z, 0-9 and '-'\n"
            "b.yaml:11:23: error: unknown part 'broker' (expected 'users', 'proc' or 'psp')\n"
            "b.yaml:12:12: error: unknown part 'broker' (expected 'users', 'proc' or 'psp')\n");
    refused("concurrency: 2,", "concurrency: 0,",
            "b.yaml:8:45: error: concurrency must be between 1 and 10000, found 0\n");
    /* unit errors point at the unit */
    refused(
        "over: 2 s}", "over: 2 sec}",
        "b.yaml:14:42: error: over: unknown duration unit 'sec'; did you mean 's' (seconds)?\n");
    refused("lose_reply: 10%}", "lose_reply: 10 percent}",
            "b.yaml:12:61: error: lose_reply: probability '10 percent' takes no unit but '%' "
            "(write 0.2 or 20%)\n");
    refused("key_ttl: sqs-fifo}", "key_ttl: sqs}",
            "b.yaml:8:57: error: unknown key retention 'sqs'; did you mean 'sqs-fifo'?\n");
    refused("key_ttl: sqs-fifo}", "key_ttl: aws}",
            "b.yaml:8:57: error: unknown key retention 'aws' (expected 'sqs-fifo', 'stripe', "
            "'nservicebus-outbox', 'nats-jetstream', 'azure-service-bus' or 'forever')\n");
    refused("key_ttl: sqs-fifo}", "key_ttl: 0 s}",
            "b.yaml:8:57: error: key_ttl must be longer than zero, found 0 s\n");
    refused("jobs: 20,", "jobs: 20000000,",
            "b.yaml:14:30: error: jobs must be between 1 and 10000000, found 20000000\n");
    refused("replications: 4", "replications: 1001",
            "b.yaml:4:15: error: replications must be between 1 and 1000, found 1001\n");
    refused(
        "  - {from: proc, to: psp, protocol: http1}\n",
        "  - {from: proc, to: proc, protocol: http1}\n  - {from: users, to: broker, protocol: "
        "amqp}\n",
        "b.yaml:13:22: error: a link cannot go from 'proc' to itself\n"
        "b.yaml:14:5: error: link from 'users' to 'broker' is given twice (first at line 11)\n");
    refused("  - {from: users, to: broker, protocol: http2}\n",
            "  - {from: users, protocol: http2, colour: red}\n",
            "b.yaml:11:36: error: unknown link key 'colour' (expected 'from', 'to', 'protocol', "
            "'lose_reply_of', 'rtt', 'reply_round_trips', 'lose_request', 'lose_reply' or "
            "'transactional')\n"
            "b.yaml:11:5: error: a link needs 'to'\n");
}

/* replications: {until: P, max: N, min: N}: a precision instead of a count. */
static void replications_until(void **state)
{
    (void)state;
    const char *goal = "goals: {duplicates: {max: 0}}\n";
    char *text = xasprintf("%s%s", base, goal);
    char *until = xstrdup(text);
    char *at = strstr(until, "replications: 4");
    diag d;
    /* min defaults to 10 */
    char *t1 = xasprintf("%.*sreplications: {until: 2%%, max: 200}%s", (int)(at - until), until,
                         at + strlen("replications: 4"));
    bp_board *b = build(t1, &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    assert_true(b->sim.until == 0.02);
    assert_int_equal(b->sim.until_max, 200);
    assert_int_equal(b->sim.replications, 10);
    assert_int_equal(board_max_replications(b), 200);
    assert_int_equal(b->until_pos.line, 4);
    assert_int_equal(b->until_pos.col, 23);
    board_free(b);
    diag_free(&d);
    /* min given; a max below 10 takes min down with it */
    char *t2 = xasprintf("%.*sreplications: {until: 0.05, max: 6}%s", (int)(at - until), until,
                         at + strlen("replications: 4"));
    b = build(t2, &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    assert_int_equal(b->sim.replications, 6);
    assert_int_equal(b->sim.until_max, 6);
    board_free(b);
    diag_free(&d);
    free(t1);
    free(t2);
    free(until);
    /* a fixed count has no until */
    b = build(text, &d);
    assert_non_null(b);
    assert_true(b->sim.until == 0);
    assert_int_equal(board_max_replications(b), 4);
    board_free(b);
    diag_free(&d);

    refused_in(text, "replications: 4", "replications: {until: 0%, max: 20, min: 30, every: 2}",
               "b.yaml:4:45: error: unknown replications key 'every' (expected 'until', 'max' "
               "or 'min')\n"
               "b.yaml:4:23: error: until must be above 0%: it is the 95% half-width to "
               "reach, as a share of the mean (2%)\n"
               "b.yaml:4:41: error: min (30) is more than max (20): the first replications "
               "cannot outnumber all of them\n");
    refused_in(text, "replications: 4", "replications: {max: 1001, min: 1}",
               "b.yaml:4:15: error: replications needs 'until'\n"
               "b.yaml:4:21: error: max must be between 2 and 1000, found 1001\n"
               "b.yaml:4:32: error: min must be between 2 and 1000, found 1\n");
    refused_in(text, "replications: 4", "replications: {until: 2 s}",
               "b.yaml:4:25: error: until: probability '2 s' takes no unit but '%' (write 0.2 "
               "or 20%)\n"
               "b.yaml:4:15: error: replications needs 'max'\n");
    refused_in(text, "replications: 4", "replications: [10]",
               "b.yaml:4:15: error: replications must be a whole number, found a list\n");
    /* until needs goals to be precise about */
    refused_in(base, "replications: 4", "replications: {until: 2%, max: 50}",
               "b.yaml:4:23: error: until sets how precise the goal measures must be, and this "
               "board has no goals; give it goals or a number of replications\n");
    /* the job budget counts max */
    const char *jobs = strstr(text, "jobs: 20,");
    char *big = xasprintf("%.*sjobs: 90000,%s", (int)(jobs - text), text, jobs + 9);
    refused_in(big, "replications: 4", "replications: {until: 2%, max: 1000}",
               "b.yaml:4:15: error: 90000 jobs times 1000 replications is 90000000 simulated "
               "jobs; the limit is 20000000 per board: lower jobs or replications\n");
    free(big);
    free(text);
}

static void model_checks(void **state)
{
    (void)state;
    /* what only the simulator's board check knows, at the part or link,
     * naming parts by id */
    refused("  - {from: users, to: broker, protocol: http2}\n",
            "  - {from: users, to: psp, protocol: http2}\n",
            "b.yaml:11:5: error: part 'users' links to part 'psp', a payment-provider; the users "
            "send to a message broker, consumer or service\n");
    refused("  - {from: broker, to: proc, protocol: amqp, lose_reply: 10%}\n", "",
            "b.yaml:7:5: error: part 'broker' has no outgoing link to a consumer or service\n");
    refused("{id: users, kind: users, label: Shop}", "{id: users, kind: users, at: [1]}",
            "b.yaml:6:34: error: at must be [column, row], found 1 value\n");
    refused("{id: users, kind: users, label: Shop}", "{id: users, kind: users, at: [1, 64]}",
            "b.yaml:6:38: error: at row must be between 0 and 63, found 64\n");
}

/* A deterministic stream of choices for made-up boards. */
static uint64_t rnd_state = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (unsigned)(rnd_state % n);
}
#define PICK(...)                                                                                  \
    (((const char *[]){                                                                            \
        __VA_ARGS__})[rnd(sizeof((const char *[]){__VA_ARGS__}) / sizeof(const char *))])

/* The events estimate the build budget rests on (sim_events_estimate) is an
 * upper bound of what the simulator really does: 400 boards made to retry
 * as much as they can (lost sends and replies, crashes, failing providers,
 * patience shorter than the work, one slot, a publisher that retries, a
 * second hop with each way of publishing to it), each run's events at most
 * the estimate — except where it says it is no bound (an outbox relay on a
 * lossy link), which the build's share of its budget holds instead. A
 * model change that adds events fails here, not in a build. */
static void events_bound_holds(void **state)
{
    (void)state;
    double worst = 0;
    int checked = 0;
    for (int k = 0; k < 400; k++) {
        bool broker = rnd(2), provider = rnd(2), db = rnd(2);
        bool publisher = broker && rnd(2), second = broker && rnd(2);
        const char *tries = PICK("1", "2", "5", "20", "60");
        const char *patience = PICK("1 ms", "30 ms", "2 s");
        const char *publish = PICK("after-commit", "before-commit", "outbox");
        bool outbox = second && strcmp(publish, "outbox") == 0;
        buf y;
        buf_init(&y);
        buf_printf(&y, "id: x\ntitle: X\nseed: %d\nparts:\n", k);
        if (broker)
            buf_printf(&y,
                       "  - {id: users, kind: users%s%s%s%s}\n"
                       "  - {id: broker, kind: message-broker, tries: %s, redelivery_after: %s, "
                       "delivery: %s%s}\n",
                       publisher ? ", tries: " : "", publisher ? PICK("2", "5", "20") : "",
                       publisher ? ", timeout: " : "", publisher ? PICK("1 ms", "50 ms") : "",
                       tries, patience, PICK("at-least-once", "at-least-once", "at-most-once"),
                       publisher ? PICK("", ", dedup_window: 10 ms") : "");
        else
            buf_printf(&y, "  - {id: users, kind: users, tries: %s, timeout: %s}\n", tries,
                       patience);
        buf_printf(&y,
                   "  - {id: h, kind: %s, idempotency: %s, concurrency: %s, "
                   "crash_after_effect: %s, restart: %s, work_median: 2 ms, work_p99: 20 ms, "
                   "timeout: %s%s%s%s}\n",
                   broker ? "consumer" : "service",
                   provider ? PICK("none", "key-in-transaction", "provider-key", "business-key")
                            : PICK("none", "key-after-effect", "key-in-transaction"),
                   PICK("1", "4", "100"), PICK("0", "0.1", "0.5", "0.9"), PICK("1 ms", "1 s"),
                   PICK("1 ms", "2 s"), second ? ", publish: " : "", second ? publish : "",
                   outbox ? PICK(", relay_every: 1 ms", ", relay_every: 50 ms") : "");
        if (provider)
            buf_printf(&y, "  - {id: p, kind: payment-provider, fail: %s}\n",
                       PICK("0", "0.3", "0.9"));
        if (db)
            buf_puts(&y, "  - {id: d, kind: database}\n");
        if (second)
            buf_printf(&y,
                       "  - {id: events, kind: message-broker, tries: %s, redelivery_after: %s}\n"
                       "  - {id: h2, kind: consumer, concurrency: %s, crash_after_effect: %s}\n",
                       PICK("1", "5", "20"), PICK("1 ms", "30 ms"), PICK("1", "8"),
                       PICK("0", "0.3"));
        buf_puts(&y, "links:\n");
        if (broker)
            buf_printf(&y, "  - {from: users, to: broker, protocol: http2%s}\n",
                       publisher ? PICK(", lose_reply: 30%", ", lose_request: 30%", "") : "");
        buf_printf(&y, "  - {from: %s, to: h, protocol: %s, lose_request: %s, lose_reply: %s}\n",
                   broker ? "broker" : "users", broker ? "amqp" : "http2", PICK("0", "0.3", "0.9"),
                   PICK("0", "0.3", "0.99"));
        if (provider)
            buf_printf(&y,
                       "  - {from: h, to: p, protocol: http2, lose_request: %s, lose_reply: %s}\n",
                       PICK("0", "0.3"), PICK("0", "0.3"));
        if (db)
            buf_puts(&y, "  - {from: h, to: d, protocol: sql}\n");
        if (second)
            buf_printf(&y,
                       "  - {from: h, to: events, protocol: amqp%s%s}\n"
                       "  - {from: events, to: h2, protocol: amqp, lose_reply: %s}\n",
                       PICK("", ", lose_request: 20%"),
                       outbox ? PICK("", "", ", lose_reply: 50%") : "", PICK("0", "0.5"));
        buf_printf(&y, "traffic: {from: users, jobs: %s, over: %s, repeat_share: %s}\n",
                   PICK("30", "200", "500"), PICK("10 ms", "1 s", "100 s"), PICK("0", "0.3"));
        diag d;
        bp_board *b = build(y.data, &d);
        if (!b)
            fail_msg("board %d refused:\n%s\n%s", k, y.data, diag_text(&d));
        sim_result r;
        char msg[256];
        assert_int_equal(sim_run(&b->sim, &lim, false, &r, msg, sizeof msg), 0);
        bool bounded;
        int64_t bound = sim_events_estimate(&b->sim, NULL, &bounded);
        assert_true(bound > 0);
        if (bounded) {
            if (r.m[SIM_M_EVENTS].max > (double)bound)
                fail_msg("board %d took %.0f events, above its bound of %lld:\n%s", k,
                         r.m[SIM_M_EVENTS].max, (long long)bound, y.data);
            if (r.m[SIM_M_EVENTS].max / (double)bound > worst)
                worst = r.m[SIM_M_EVENTS].max / (double)bound;
            checked++;
        }
        sim_result_free(&r);
        board_free(b);
        diag_free(&d);
        buf_free(&y);
    }
    print_message("worst events / bound over %d bounded boards: %.3f\n", checked, worst);
    /* the bound is not so loose that it could never fail */
    assert_true(worst > 0.5);
    assert_true(checked > 300);
}

/* Past the estimate a board is refused before it runs: one run, or all its
 * runs, and at a level's tries when an override raised them. */
static void events_bound_refused(void **state)
{
    (void)state;
    refused("traffic: {from: users, jobs: 20, over: 2 s}",
            "traffic: {from: users, jobs: 5000000, over: 2 s}",
            "b.yaml:14:30: error: one run of this board may take up to 210000000 events "
            "(5000000 jobs, up to 5 sends each); the limit is 200000000 per run: lower jobs or "
            "tries\n");
    refused("traffic: {from: users, jobs: 20, over: 2 s}",
            "traffic: {from: users, jobs: 3000000, over: 2 s}",
            "b.yaml:4:15: error: the runs of this board may take up to 504000000 events (4 "
            "replications × 3000000 jobs, up to 5 sends each); the limit is 400000000 per board: "
            "lower jobs, tries or replications\n");
    diag d;
    diag_init(&d, NULL);
    ynode *root = gt_yaml(base, &d);
    ymap_set(ymap_get(root, "traffic"), "jobs", ynode_new_scalar("200000", 14, 10), 14, 10);
    assert_int_equal(
        board_override("b.yaml", root, "parts.broker.tries", "100", "level.yaml", 9, 3, &d), 0);
    assert_null(board_from_tree("b.yaml", root, cat, &lim, &d));
    assert_string_equal(diag_text(&d),
                        "level.yaml:9:3: error: with this value, the runs of the board "
                        "may take up to 641600000 events (4 replications × 200000 jobs, up to 100 "
                        "sends each); the limit is 400000000 per board: lower jobs, tries or "
                        "replications\n");
    diag_free(&d);
    ynode_free(root);
}

/* users -> orders -> shop -> events -> mailer: the second release's keys. */
static const char two_hops[] =
    "id: two\n"
    "title: Two\n"
    "parts:\n"
    "  - {id: users, kind: users, tries: 3, message_id: producer}\n"
    "  - {id: orders, kind: message-broker, dedup_window: sqs-fifo}\n"
    "  - {id: shop, kind: consumer, idempotency: key-claimed-first, lease: 2 min, "
    "publish: outbox, relay_every: 250 ms, crash_after_commit: 2%}\n"
    "  - {id: events, kind: message-broker, dedup_window: 90 s}\n"
    "  - {id: mailer, kind: service}\n"
    "links:\n"
    "  - {from: users, to: orders, protocol: http2, lose_reply: 5%}\n"
    "  - {from: orders, to: shop, protocol: amqp}\n"
    "  - {from: shop, to: events, protocol: amqp, lose_reply: 1%}\n"
    "  - {from: events, to: mailer, protocol: amqp}\n"
    "traffic: {from: users, jobs: 20, over: 2 s}\n"
    "goals:\n"
    "  lost_events: {max: 0}\n";

static void second_release_keys(void **state)
{
    (void)state;
    diag d;
    bp_board *b = build(two_hops, &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    const sim_part *u = &b->sim.parts[0], *o = &b->sim.parts[1], *shop = &b->sim.parts[2];
    const sim_part *ev = &b->sim.parts[3], *mailer = &b->sim.parts[4];
    assert_int_equal(u->message_id, SIM_MESSAGE_ID_PRODUCER);
    assert_int_equal(o->dedup_window_us, 300000000); /* the catalog's sqs-fifo */
    assert_int_equal(ev->dedup_window_us, 90000000);
    assert_int_equal(shop->idempotency, SIM_IDEM_KEY_CLAIMED_FIRST);
    assert_int_equal(shop->lease_us, 120000000);
    assert_int_equal(shop->publish, SIM_PUBLISH_OUTBOX);
    assert_int_equal(shop->relay_every_us, 250000);
    assert_true(shop->crash_after_commit == 0.02);
    /* left out: the catalog's */
    assert_int_equal(mailer->publish, SIM_PUBLISH_AFTER_COMMIT);
    assert_int_equal(mailer->lease_us, cat->kinds[SIM_KIND_SERVICE].lease_us);
    assert_true((b->part_set[2].bits & (1ull << part_field("relay_every"))) != 0);
    assert_true((b->part_set[4].bits & (1ull << part_field("publish"))) == 0);
    assert_true(b->sim.goals[SIM_M_LOST_EVENTS].has_max);
    assert_int_equal(sim_board_hops(&b->sim), 2);
    board_free(b);
    diag_free(&d);
    /* the broker's window may be none, zero or forever */
    b = build("id: w\ntitle: W\nparts:\n"
              "  - {id: u, kind: users}\n"
              "  - {id: q, kind: message-broker, dedup_window: forever}\n"
              "  - {id: c, kind: consumer}\n"
              "links:\n  - {from: u, to: q, protocol: http2}\n"
              "  - {from: q, to: c, protocol: amqp}\n"
              "traffic: {from: u, jobs: 1, over: 1 s}\n",
              &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    assert_int_equal(b->sim.parts[1].dedup_window_us, SIM_FOREVER);
    board_free(b);
    diag_free(&d);
}

static void refused2(const char *from, const char *to, const char *want)
{
    refused_in(two_hops, from, to, want);
}

/* redelivery_after: a duration, or a back-off {first, factor, max, jitter} */
static const sim_part *broker_with(const char *setting, bp_board **b, diag *d)
{
    char *to = xasprintf("{id: broker, kind: message-broker, redelivery_after: %s}", setting);
    char *text =
        xasprintf("%.*s%s%s", (int)(strstr(base, "{id: broker") - base), base, to,
                  strstr(base, "{id: broker") + strlen("{id: broker, kind: message-broker}"));
    *b = build(text, d);
    free(to);
    free(text);
    if (!*b)
        fail_msg("%s", diag_text(d));
    return &(*b)->sim.parts[1];
}

static void backoff_keys(void **state)
{
    (void)state;
    diag d;
    bp_board *b;
    const sim_part *p = broker_with("{first: 1 s, factor: 3, max: 1 min, jitter: full}", &b, &d);
    assert_int_equal(p->redelivery_after_us, 1000000);
    assert_true(p->backoff_factor == 3);
    assert_int_equal(p->backoff_max_us, 60000000);
    assert_true(p->backoff_jitter);
    buf t;
    buf_init(&t);
    size_t n;
    field_format(&t, fields_find(fields_part(&n), n, "redelivery_after"), p);
    assert_string_equal(t.data, "1 s, then ×3 each try up to 1 min, full jitter");
    buf_free(&t);
    board_free(b);
    diag_free(&d);
    /* left out: the catalog's first wait, factor 2, no cap, no jitter */
    p = broker_with("{max: none}", &b, &d);
    assert_int_equal(p->redelivery_after_us, cat->kinds[SIM_KIND_BROKER].redelivery_after_us);
    assert_true(p->backoff_factor == 2);
    assert_int_equal(p->backoff_max_us, 0);
    assert_false(p->backoff_jitter);
    board_free(b);
    diag_free(&d);
    /* a duration: every wait the same */
    p = broker_with("750 ms", &b, &d);
    assert_int_equal(p->redelivery_after_us, 750000);
    assert_true(p->backoff_factor == 0 && p->backoff_max_us == 0 && !p->backoff_jitter);
    board_free(b);
    diag_free(&d);
    refused("{id: broker, kind: message-broker}",
            "{id: broker, kind: message-broker, redelivery_after: {first: 2 s, factr: 2, "
            "jitter: half}}",
            "b.yaml:7:71: error: unknown key 'factr' in redelivery_after; did you mean "
            "'factor'?\n"
            "b.yaml:7:89: error: unknown jitter 'half' (expected 'none' or 'full')\n");
    refused("{id: broker, kind: message-broker}",
            "{id: broker, kind: message-broker, redelivery_after: {first: 2 s, factor: 0.5}}",
            "b.yaml:7:79: error: factor must be between 1 and 1000, found 0.5\n");
    refused("{id: broker, kind: message-broker}",
            "{id: broker, kind: message-broker, redelivery_after: {first: 2 min, max: 1 min}}",
            "b.yaml:7:78: error: max (1 min) is shorter than first (2 min); the longest wait is "
            "at least the first\n");
    refused("{id: broker, kind: message-broker}",
            "{id: broker, kind: message-broker, redelivery_after: {first: 0 s}}",
            "b.yaml:7:66: error: first must be longer than zero, found 0 s\n");
}

static void second_release_errors(void **state)
{
    (void)state;
    refused2("message_id: producer", "message_id: per-job",
             "b.yaml:4:52: error: unknown message_id 'per-job' (expected 'producer' or "
             "'per-publish')\n");
    refused2("publish: outbox", "publish: after-comit",
             "b.yaml:6:87: error: unknown publish order 'after-comit'; did you mean "
             "'after-commit'?\n");
    refused2("dedup_window: sqs-fifo", "dedup_window: aws",
             "b.yaml:5:54: error: unknown window 'aws' (expected 'sqs-fifo', 'stripe', "
             "'nservicebus-outbox', 'nats-jetstream', 'azure-service-bus', 'forever' or "
             "'none')\n");
    refused2("dedup_window: 90 s", "dedup_window: 90",
             "b.yaml:7:56: error: dedup_window: duration '90' needs a unit (us, ms, s, min, h or "
             "d), e.g. '90 s'\n");
    refused2("lease: 2 min", "lease: 0 s",
             "b.yaml:6:71: error: lease must be longer than zero, found 0 s\n");
    refused2("relay_every: 250 ms", "relay_every: soon",
             "b.yaml:6:108: error: relay_every: expected a number, found 'soon'\n");
    refused2("crash_after_commit: 2%", "crash_after_commit: 200%",
             "b.yaml:6:136: error: crash_after_commit: probability '200%' is outside 0 to 1 (0% "
             "to 100%)\n");
    refused2("{id: orders, kind: message-broker, dedup_window: sqs-fifo}",
             "{id: orders, kind: consumer, dedup_window: sqs-fifo}",
             "b.yaml:5:34: error: 'dedup_window' does not apply to a consumer part (it applies to "
             "message-broker)\n");
    /* keys that cannot matter where they are written */
    refused2("{id: mailer, kind: service}", "{id: mailer, kind: service, lease: 1 s}",
             "b.yaml:8:33: error: 'lease' applies only with idempotency: key-claimed-first\n");
    refused2("{id: mailer, kind: service}", "{id: mailer, kind: service, publish: after-commit}",
             "b.yaml:8:33: error: 'publish' applies only to a handler that links to a message "
             "broker\n");
    refused2("{id: mailer, kind: service}", "{id: mailer, kind: service, relay_every: 1 s}",
             "b.yaml:8:33: error: 'relay_every' applies only with publish: outbox and a link to a "
             "message broker\n");
    refused(NULL,
            "id: d\ntitle: D\nparts:\n"
            "  - {id: u, kind: users, message_id: producer}\n"
            "  - {id: s, kind: service}\n"
            "links:\n  - {from: u, to: s, protocol: http2}\n"
            "traffic: {from: u, jobs: 1, over: 1 s}\n",
            "b.yaml:4:26: error: 'message_id' applies only to users that publish to a message "
            "broker\n");
    /* what the board check knows */
    refused2("{id: mailer, kind: service}", "{id: mailer, kind: service, publish: outbox}",
             "b.yaml:8:5: error: publish outbox needs a link from part 'mailer' to a message "
             "broker\n");
    refused2("publish: outbox, ", "publish: after-commit, ",
             "b.yaml:12:5: error: lose_reply on a handler's link to a broker needs publish: "
             "outbox (only the outbox relay waits for the broker's confirm)\n");
    refused2("  - {from: shop, to: events, protocol: amqp, lose_reply: 1%}\n"
             "  - {from: events, to: mailer, protocol: amqp}\n",
             "",
             "b.yaml:6:5: error: publish outbox needs a link from part 'shop' to a message "
             "broker\n");
    /* goals on the second hop's measures need one */
    refused("traffic: {from: users, jobs: 20, over: 2 s}\n",
            "traffic: {from: users, jobs: 20, over: 2 s}\n"
            "goals:\n  ghost_events: {max: 0}\n  downstream_duplicates: {max: 1}\n",
            "b.yaml:16:3: error: ghost_events is a measure of the second hop; this board has one "
            "(a handler links to a second message broker for two)\n"
            "b.yaml:17:3: error: downstream_duplicates is a measure of the second hop; this "
            "board has one (a handler links to a second message broker for two)\n");
}

static ynode *tree(const char *text)
{
    diag d;
    diag_init(&d, NULL);
    ynode *root = gt_yaml(text, &d);
    assert_non_null(root);
    diag_free(&d);
    return root;
}

static void overrides(void **state)
{
    (void)state;
    ynode *root = tree(base);
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(
        board_override("b.yaml", root, "parts.proc.concurrency", "7", "lvl.yaml", 4, 5, &d), 0);
    assert_int_equal(
        board_override("b.yaml", root, "parts.broker.tries", "2", "lvl.yaml", 5, 5, &d), 0);
    assert_int_equal(
        board_override("b.yaml", root, "links.broker.proc.lose_reply", "20%", "lvl.yaml", 6, 5, &d),
        0);
    assert_int_equal(board_override("b.yaml", root, "traffic.jobs", "5", "--set", 0, 0, &d), 0);
    assert_int_equal(board_override("b.yaml", root, "seed", "9", "--seed", 0, 0, &d), 0);
    assert_int_equal(board_override("b.yaml", root, "replications", "2", "--set", 0, 0, &d), 0);
    assert_null(diag_text(&d));
    bp_board *b = board_from_tree("b.yaml", root, cat, &lim, &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    assert_int_equal(b->sim.parts[2].concurrency, 7);
    assert_int_equal(b->sim.parts[1].tries, 2);
    assert_true((b->part_set[1].bits & (1ull << part_field("tries"))) != 0);
    assert_true(b->sim.links[1].lose_reply == 0.2);
    assert_int_equal(b->sim.traffic.jobs, 5);
    assert_int_equal(b->sim.seed, 9);
    assert_int_equal(b->sim.replications, 2);
    board_free(b);
    ynode_free(root);
    diag_free(&d);
}

/* The back-off of broker after setting its key to value on text's board. */
static sim_part backoff_after(const char *text, const char *key, const char *value)
{
    ynode *root = tree(text);
    diag d;
    diag_init(&d, NULL);
    char *path = xasprintf("parts.broker.redelivery_after.%s", key);
    assert_int_equal(board_override("b.yaml", root, path, value, "--set", 0, 0, &d), 0);
    bp_board *b = board_from_tree("b.yaml", root, cat, &lim, &d);
    if (!b)
        fail_msg("%s", diag_text(&d));
    sim_part p = b->sim.parts[1];
    board_free(b);
    free(path);
    ynode_free(root);
    diag_free(&d);
    return p;
}

/* parts.ID.redelivery_after.KEY changes that key only: a plain wait is a
 * back-off of factor 1 first, a mapping keeps its other keys, and a board
 * without one starts from the catalog's wait. */
static void override_backoff_keys(void **state)
{
    (void)state;
    const char *at = strstr(base, "kind: message-broker}");
    assert_non_null(at);
    char *t1 = xasprintf("%.*skind: message-broker, redelivery_after: 3 s}%s", (int)(at - base),
                         base, at + strlen("kind: message-broker}"));
    char *t2 = xasprintf("%.*skind: message-broker, redelivery_after: {first: 2 s, max: 1 min, "
                         "jitter: full}}%s",
                         (int)(at - base), base, at + strlen("kind: message-broker}"));
    sim_part p = backoff_after(t1, "factor", "3");
    assert_int_equal(p.redelivery_after_us, 3000000);
    assert_true(p.backoff_factor == 3);
    assert_int_equal(p.backoff_max_us, 0);
    assert_false(p.backoff_jitter);
    p = backoff_after(t1, "jitter", "full"); /* full jitter below the same fixed 3 s */
    assert_int_equal(p.redelivery_after_us, 3000000);
    assert_true(p.backoff_factor == 0); /* factor 1 is the fixed wait itself */
    assert_true(p.backoff_jitter);
    p = backoff_after(t2, "factor", "1.5");
    assert_int_equal(p.redelivery_after_us, 2000000);
    assert_true(p.backoff_factor == 1.5);
    assert_int_equal(p.backoff_max_us, 60000000);
    assert_true(p.backoff_jitter);
    p = backoff_after(t2, "first", "10 s");
    assert_int_equal(p.redelivery_after_us, 10000000);
    assert_true(p.backoff_factor == 2);     /* the mapping's own default */
    p = backoff_after(base, "max", "20 s"); /* the catalog's wait is the first */
    assert_int_equal(p.redelivery_after_us, cat->kinds[SIM_KIND_BROKER].redelivery_after_us);
    assert_true(p.backoff_factor == 0); /* a cap on a fixed wait caps nothing */
    assert_int_equal(p.backoff_max_us, 0);
    free(t1);
    free(t2);
}

/* An override that cannot be placed: its error names the override. */
static void override_refused(const char *expr, const char *value, const char *want)
{
    ynode *root = tree(base);
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(board_override("b.yaml", root, expr, value, "levels/l.yaml", 9, 7, &d), -1);
    assert_string_equal(diag_text(&d), want);
    ynode_free(root);
    diag_free(&d);
}

/* An override that is placed but wrong: board_from_tree names the override. */
static void override_bad(const char *expr, const char *value, const char *want)
{
    ynode *root = tree(base);
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(board_override("b.yaml", root, expr, value, "levels/l.yaml", 9, 7, &d), 0);
    assert_null(board_from_tree("b.yaml", root, cat, &lim, &d));
    assert_string_equal(diag_text(&d), want);
    ynode_free(root);
    diag_free(&d);
}

static void override_errors(void **state)
{
    (void)state;
    override_refused("parts.nope.tries", "3",
                     "levels/l.yaml:9:7: error: no part 'nope' on the board (its parts: users, "
                     "broker, proc and psp)\n");
    override_refused("parts.prc.tries", "3",
                     "levels/l.yaml:9:7: error: no part 'prc' on the board; did you mean "
                     "'proc'?\n");
    override_refused("links.users.proc.rtt", "1 ms",
                     "levels/l.yaml:9:7: error: no link from 'users' to 'proc' on the board (it "
                     "has links.users.broker, links.broker.proc and links.proc.psp)\n");
    override_refused("part.proc.tries", "3",
                     "levels/l.yaml:9:7: error: cannot set 'part.proc.tries'; did you mean "
                     "'parts.proc.tries'?\n");
    override_refused("colour", "red",
                     "levels/l.yaml:9:7: error: cannot set 'colour': write parts.ID.FIELD, "
                     "parts.ID.FIELD.KEY, links.FROM.TO.FIELD, traffic.FIELD, seed or "
                     "replications\n");
    override_refused("parts.proc", "3",
                     "levels/l.yaml:9:7: error: cannot set 'parts.proc': write parts.ID.FIELD, "
                     "parts.ID.FIELD.KEY, links.FROM.TO.FIELD, traffic.FIELD, seed or "
                     "replications\n");
    override_refused("parts.proc.a.b.c.d", "3",
                     "levels/l.yaml:9:7: error: cannot set 'parts.proc.a.b.c.d': write "
                     "parts.ID.FIELD, parts.ID.FIELD.KEY, links.FROM.TO.FIELD, traffic.FIELD, "
                     "seed or replications\n");
    override_refused("parts.broker.redelivery_after.factr", "3",
                     "levels/l.yaml:9:7: error: unknown key 'factr' in redelivery_after; did you "
                     "mean 'factor'?\n");
    override_refused("parts.broker.tries.first", "3",
                     "levels/l.yaml:9:7: error: 'tries' takes one value, not keys: set "
                     "parts.broker.tries itself (only redelivery_after takes keys)\n");
    override_refused("parts.broker.redelivery.factor", "3",
                     "levels/l.yaml:9:7: error: unknown setting 'redelivery' of a part; did you "
                     "mean 'delivery'?\n");
    override_bad("parts.broker.redelivery_after.factor", "0.5",
                 "levels/l.yaml:9:7: error: factor must be between 1 and 1000, found 0.5\n");
    override_bad("parts.proc.redelivery_after.factor", "2",
                 "levels/l.yaml:9:7: error: 'redelivery_after' does not apply to a consumer part "
                 "(it applies to message-broker)\n");
    override_bad("parts.proc.concurrency", "many",
                 "levels/l.yaml:9:7: error: concurrency: expected a whole number, found 'many'\n");
    override_bad("parts.proc.concurency", "3",
                 "levels/l.yaml:9:7: error: unknown part key 'concurency'; did you mean "
                 "'concurrency'?\n");
    override_bad("parts.users.concurrency", "3",
                 "levels/l.yaml:9:7: error: 'concurrency' does not apply to a users part (it "
                 "applies to consumer and service)\n");
    override_bad("links.broker.proc.lose_reply", "2",
                 "levels/l.yaml:9:7: error: lose_reply: probability '2' is outside 0 to 1 (0% to "
                 "100%)\n");
    override_bad("traffic.jobs", "0",
                 "levels/l.yaml:9:7: error: jobs must be between 1 and 10000000, found 0\n");
    override_bad("parts.proc.idempotency", "sometimes",
                 "levels/l.yaml:9:7: error: unknown idempotency policy 'sometimes' (expected "
                 "'none', 'key-after-effect', 'key-in-transaction', 'provider-key', "
                 "'business-key' or 'key-claimed-first')\n");

    /* a board without traffic has no mapping to set into */
    ynode *root = tree("id: x\n");
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(board_override("b.yaml", root, "traffic.jobs", "3", "--set", 0, 0, &d), -1);
    assert_string_equal(diag_text(&d),
                        "--set: error: cannot set 'traffic.jobs': the board has no such "
                        "mapping\n");
    ynode_free(root);
    diag_free(&d);
}

static void loading_files(void **state)
{
    (void)state;
    char *dir = gt_tempdir();
    gt_write(dir, "boards/mini.yaml", base);
    gt_write(dir, "boards/empty.yaml", "# nothing yet\n");
    char *path = xasprintf("%s/boards/mini.yaml", dir);
    diag d;
    diag_init(&d, NULL);
    bp_board *b = board_load(path, cat, &lim, &d);
    assert_non_null(b);
    assert_string_equal(b->path, path);
    board_free(b);
    free(path);
    path = xasprintf("%s/boards/empty.yaml", dir);
    assert_null(board_load(path, cat, &lim, &d));
    char *want = xasprintf("%s:1:1: error: the board file is empty\n", path);
    assert_string_equal(diag_text(&d), want);
    free(want);
    free(path);
    diag_free(&d);
    diag_init(&d, NULL);
    path = xasprintf("%s/boards/none.yaml", dir);
    assert_null(board_load(path, cat, &lim, &d));
    want = xasprintf("%s: error: cannot read the board: no such file\n", path);
    assert_string_equal(diag_text(&d), want);
    free(want);
    free(path);
    diag_free(&d);
    gt_rm_rf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_from_the_catalog),
        cmocka_unit_test(settings_per_kind),
        cmocka_unit_test(lose_reply_of),
        cmocka_unit_test(goals_and_expect),
        cmocka_unit_test(errors),
        cmocka_unit_test(replications_until),
        cmocka_unit_test(model_checks),
        cmocka_unit_test(second_release_keys),
        cmocka_unit_test(second_release_errors),
        cmocka_unit_test(backoff_keys),
        cmocka_unit_test(overrides),
        cmocka_unit_test(override_errors),
        cmocka_unit_test(override_backoff_keys),
        cmocka_unit_test(loading_files),
        cmocka_unit_test(events_bound_holds),
        cmocka_unit_test(events_bound_refused),
    };
    return cmocka_run_group_tests_name("board", tests, setup, teardown);
}

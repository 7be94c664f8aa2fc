/* test_catalog.c — the catalog: content/catalog.yaml loads with every
 * default, values are found by name with their page text, and every
 * missing or wrong entry is reported with its position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "load/board.h"
#include "load/fields.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A complete catalog, one section a line (line numbers matter below). */
static const char cat_text[] =
    "price: {vcpu: 3 USD, gb: 1 USD}\n"
    "traffic: {op: charge, arrivals: poisson, repeat_share: 0, poison: 0}\n"
    "retention:\n"
    "  sqs-fifo: {ttl: 5 min, label: SQS FIFO}\n"
    "  stripe: {ttl: 24 h, label: Stripe}\n"
    "users: {label: Users, timeout: 2 s, tries: 5, message_id: per-publish}\n"
    "message-broker: {label: Broker, vcpu: 1, gb: 1, price: 0 USD, external: false, tries: 5, "
    "redelivery_after: 5 s, delivery: at-least-once, dedup_window: none}\n"
    "consumer: {label: Consumer, vcpu: 2, gb: 2, price: 0 USD, external: false, timeout: 2 s, "
    "concurrency: 4, work_median: 5 ms, work_p99: 25 ms, idempotency: none, key_ttl: forever, "
    "crash_after_effect: 0, restart: 1 s, lease: 30 s, crash_after_commit: 0, "
    "publish: after-commit, relay_every: 5 s, fail: 0}\n"
    "service: {label: Service, vcpu: 2, gb: 2, price: 0 USD, external: false, timeout: 2 s, "
    "concurrency: 8, work_median: 5 ms, work_p99: 25 ms, idempotency: none, key_ttl: 10 min, "
    "crash_after_effect: 0, restart: 1 s, lease: 1 min, crash_after_commit: 0, "
    "publish: outbox, relay_every: 1 s}\n"
    "payment-provider: {label: Payment provider, external: true, call_median: 150 ms, "
    "call_p99: 600 ms, fail: 0, key_ttl: stripe}\n"
    "database: {label: Database, vcpu: 2, gb: 4, price: 0 USD, external: false, "
    "write_median: 2 ms, write_p99: 10 ms}\n"
    "amqp: {label: AMQP, rtt: 1 ms, reply_round_trips: 1, lose_request: 0, lose_reply: 0, "
    "transactional: false}\n"
    "http1: {label: HTTP/1.1, rtt: 40 ms, reply_round_trips: 0.5, lose_request: 0, "
    "lose_reply: 0, transactional: false}\n"
    "http2: {label: HTTP/2, rtt: 40 ms, reply_round_trips: 0.5, lose_request: 0, "
    "lose_reply: 0, transactional: false}\n"
    "sql: {label: SQL, rtt: 0.5 ms, reply_round_trips: 0.5, lose_request: 0, lose_reply: 0, "
    "transactional: false}\n";

/* cat_text with the first `from` replaced by `to` (caller frees). */
static char *edited(const char *from, const char *to)
{
    const char *at = strstr(cat_text, from);
    assert_non_null(at);
    return xasprintf("%.*s%s%s", (int)(at - cat_text), cat_text, to, at + strlen(from));
}

static void value_is(const bp_catalog *c, const char *section, const char *field, const char *text,
                     double value)
{
    const bp_catalog_value *v = catalog_find(c, section, field);
    if (!v)
        fail_msg("no catalog value %s.%s", section, field);
    assert_string_equal(v->text, text);
    if (!(v->value == value || (isinf(value) && isinf(v->value))))
        fail_msg("%s.%s is %g, want %g", section, field, v->value, value);
}

static void real_catalog(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    bp_catalog *c = catalog_load("content/catalog.yaml", &d);
    if (!c)
        fail_msg("content/catalog.yaml does not load:\n%s", diag_text(&d));
    assert_int_equal(d.errors, 0);
    /* every kind and protocol has its label and a value for every field, from
       the catalog or from the field's row (schema.h's def) */
    size_t n_part, n_link;
    const field_def *pf = fields_part(&n_part), *lf = fields_link(&n_link);
    for (int k = 0; k < SIM_KIND_COUNT; k++) {
        assert_non_null(c->kind_label[k]);
        assert_int_equal(c->kinds[k].kind, k);
        for (size_t i = 0; i < n_part; i++)
            if (pf[i].kinds & KIND_BIT(k))
                assert_non_null(catalog_find(c, sim_kind_name((sim_kind)k), pf[i].name));
    }
    for (int p = 0; p < SIM_PROTO_COUNT; p++) {
        assert_non_null(c->protocol_label[p]);
        for (size_t i = 0; i < n_link; i++)
            assert_non_null(catalog_find(c, sim_protocol_name((sim_protocol)p), lf[i].name));
    }
    /* values docs/ and the catalog's comments quote */
    value_is(c, "payment-provider", "call_median", "150 ms", 0.15);
    value_is(c, "price", "vcpu", "3 USD/mo", 3);
    value_is(c, "price", "gb", "1 USD/mo", 1);
    value_is(c, "retention", "sqs-fifo", "5 min", 300);
    value_is(c, "retention", "stripe", "24 h", 86400);
    assert_int_equal(c->kinds[SIM_KIND_PROVIDER].key_ttl_us, 86400000000LL); /* key_ttl: stripe */
    /* sources: a retention entry's and a section's, each dated and linked */
    const bp_catalog_value *stripe = catalog_find(c, "retention", "stripe");
    assert_int_equal(stripe->source, BP_SOURCE_DOCS);
    assert_non_null(strstr(stripe->sources[0].text, "Stripe"));
    assert_string_equal(stripe->sources[0].url, "https://docs.stripe.com/idempotency");
    assert_int_equal(catalog_find(c, "consumer", "lease")->source, BP_SOURCE_DOCS);
    const bp_catalog_value *tries = catalog_find(c, "message-broker", "tries");
    assert_int_equal(tries->source, BP_SOURCE_DOCS); /* Pub/Sub's default, Azure's beside it */
    assert_int_equal(tries->n_sources, 2);
    assert_int_equal(tries->sources[1].kind, BP_SOURCE_COMPARE);
    const bp_catalog_value *redeliver = catalog_find(c, "message-broker", "redelivery_after");
    assert_int_equal(redeliver->source, BP_SOURCE_EXAMPLE); /* SQS's 30 s beside it */
    assert_non_null(strstr(redeliver->sources[1].text, "30 s"));
    value_is(c, "retention", "nats-jetstream", "2 min", 120);
    value_is(c, "retention", "azure-service-bus", "10 min", 600);
    /* every value says where it comes from; every page it cites is dated */
    for (size_t i = 0; i < c->n_values; i++) {
        const bp_catalog_value *cv = &c->values[i];
        if (cv->n_sources == 0)
            fail_msg("content/catalog.yaml: %s.%s has no source", cv->section, cv->field);
        for (size_t k = 0; k < cv->n_sources; k++) {
            const bp_source *src = &cv->sources[k];
            if (src->kind == BP_SOURCE_DOCS || src->kind == BP_SOURCE_COMPARE) {
                assert_non_null(src->url);
                assert_int_equal(strlen(src->checked), 10);
            }
            if (src->kind != BP_SOURCE_EXAMPLE || k > 0)
                assert_non_null(src->text);
        }
    }
    assert_int_equal(c->kinds[SIM_KIND_CONSUMER].key_ttl_us, SIM_FOREVER);
    assert_string_equal(catalog_find(c, "payment-provider", "call_median")->label,
                        "Payment provider call, median");
    catalog_free(c);
    diag_free(&d);
}

static void values_by_name(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    bp_catalog *c = catalog_parse("c.yaml", cat_text, sizeof cat_text - 1, &d);
    assert_non_null(c);
    assert_null(diag_text(&d));
    assert_string_equal(c->path, "c.yaml");
    assert_true(c->prices.vcpu_usd_month == 3);
    assert_true(c->prices.gb_usd_month == 1);
    assert_int_equal(c->traffic.op, SIM_OP_CHARGE);
    assert_int_equal(c->traffic.arrivals, SIM_ARRIVALS_POISSON);
    assert_string_equal(c->kind_label[SIM_KIND_BROKER], "Broker");
    assert_string_equal(c->protocol_label[SIM_PROTO_HTTP1], "HTTP/1.1");
    const sim_part *svc = &c->kinds[SIM_KIND_SERVICE];
    assert_int_equal(svc->kind, SIM_KIND_SERVICE);
    assert_int_equal(svc->concurrency, 8);
    assert_int_equal(svc->timeout_us, 2000000);
    assert_int_equal(svc->work.median_us, 5000);
    assert_int_equal(svc->work.p99_us, 25000);
    assert_int_equal(svc->key_ttl_us, 600000000);
    assert_int_equal(c->kinds[SIM_KIND_BROKER].delivery, SIM_DELIVERY_AT_LEAST_ONCE);
    assert_int_equal(c->kinds[SIM_KIND_BROKER].redelivery_after_us, 5000000);
    assert_true(c->kinds[SIM_KIND_PROVIDER].external);
    assert_int_equal(c->kinds[SIM_KIND_PROVIDER].key_ttl_us, 86400000000LL);
    assert_int_equal(c->protocols[SIM_PROTO_SQL].rtt_us, 500);
    assert_int_equal(c->protocols[SIM_PROTO_SQL].protocol, SIM_PROTO_SQL);
    assert_true(c->protocols[SIM_PROTO_HTTP2].reply_round_trips == 0.5);

    /* page text and the number behind it */
    value_is(c, "price", "vcpu", "3 USD/mo", 3);
    value_is(c, "traffic", "op", "charge", 0);
    value_is(c, "traffic", "repeat_share", "0%", 0);
    value_is(c, "retention", "sqs-fifo", "5 min", 300);
    value_is(c, "users", "tries", "5 tries", 5);
    value_is(c, "consumer", "concurrency", "4 deliveries", 4);
    value_is(c, "consumer", "key_ttl", "forever", INFINITY);
    value_is(c, "service", "key_ttl", "10 min", 600);
    value_is(c, "consumer", "idempotency", "none", 0);
    value_is(c, "message-broker", "delivery", "at-least-once", 0);
    value_is(c, "message-broker", "dedup_window", "none", 0);
    value_is(c, "users", "message_id", "per-publish", 0);
    value_is(c, "consumer", "lease", "30 s", 30);
    value_is(c, "service", "lease", "1 min", 60);
    value_is(c, "consumer", "publish", "after-commit", 0);
    value_is(c, "service", "publish", "outbox", 0);
    value_is(c, "service", "relay_every", "1 s", 1);
    value_is(c, "consumer", "crash_after_commit", "0%", 0);
    assert_int_equal(svc->publish, SIM_PUBLISH_OUTBOX);
    assert_int_equal(c->kinds[SIM_KIND_USERS].message_id, SIM_MESSAGE_ID_PER_PUBLISH);
    assert_int_equal(c->kinds[SIM_KIND_BROKER].dedup_window_us, 0);
    value_is(c, "message-broker", "external", "no", 0);
    value_is(c, "payment-provider", "external", "yes", 1);
    value_is(c, "payment-provider", "key_ttl", "24 h", 86400);
    value_is(c, "database", "gb", "4 GB", 4);
    value_is(c, "amqp", "reply_round_trips", "1 RTT", 1);
    value_is(c, "sql", "rtt", "500 µs", 0.0005);
    value_is(c, "http1", "lose_reply", "0%", 0);
    const bp_catalog_value *v = catalog_find(c, "payment-provider", "call_p99");
    assert_string_equal(v->label, "Payment provider call, 99th percentile");
    assert_int_equal(v->pos.line, 10);
    assert_int_equal(v->pos.col, 92);
    assert_string_equal(catalog_find(c, "retention", "stripe")->label, "Stripe");
    assert_null(catalog_find(c, "payment-provider", "nope"));
    assert_null(catalog_find(c, "nope", "call_p99"));
    assert_null(catalog_find(c, "users", "vcpu")); /* not a users setting */
    catalog_free(c);
    catalog_free(NULL);
    diag_free(&d);
}

/* The catalog text with one edit fails with exactly these messages. */
static void refused(const char *from, const char *to, const char *want)
{
    char *text = edited(from, to);
    diag d;
    diag_init(&d, NULL);
    bp_catalog *c = catalog_parse("c.yaml", text, strlen(text), &d);
    if (c)
        fail_msg("accepted: %s", text);
    assert_string_equal(diag_text(&d) ? diag_text(&d) : "", want);
    diag_free(&d);
    free(text);
}

/* A row's default (schema.h def and def_source) fills a section that
 * leaves its setting out: read as the catalog reads a value, with its
 * source, so pages and help show it like any catalog value; a bad one is
 * the row's error. */
static void row_default(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    bp_catalog *c = catalog_parse("cat.yaml", cat_text, sizeof cat_text - 1, &d);
    assert_non_null(c);
    size_t n;
    field_def f = *fields_find(fields_part(&n), n, "restart");
    f.name = "toy_restart";
    f.def = "30 s";
    f.def_source = "example: a toy setting's default";
    sim_part p = c->kinds[SIM_KIND_CONSUMER];
    const bp_catalog_value *v = catalog_row_default(c, "consumer", &f, &p, &d);
    assert_int_equal(d.errors, 0);
    assert_non_null(v);
    assert_int_equal(p.restart_us, 30000000);
    value_is(c, "consumer", "toy_restart", "30 s", 30);
    assert_int_equal(v->source, BP_SOURCE_EXAMPLE);
    assert_int_equal(v->n_sources, 1);
    assert_string_equal(v->sources[0].text, "a toy setting's default");
    f.def = "90 parsecs";
    assert_null(catalog_row_default(c, "consumer", &f, &p, &d));
    assert_int_equal(d.errors, 1);
    assert_non_null(strstr(diag_text(&d), "sim-core/schema.h"));
    catalog_free(c);
    diag_free(&d);
}

static void errors(void **state)
{
    (void)state;
    refused("sql: {", "sequel: {",
            "c.yaml:15:1: error: unknown catalog section 'sequel' (expected 'price', 'traffic', "
            "'retention', 'users', 'message-broker', 'consumer', 'service', 'payment-provider', "
            "'database', 'dead-letter-queue', 'amqp', 'http1', 'http2' or 'sql')\n"
            "c.yaml:1:1: error: the catalog needs a 'sql' section\n");
    refused("http2: {", "htp2: {",
            "c.yaml:14:1: error: unknown catalog section 'htp2'; did you mean 'http2'?\n"
            "c.yaml:1:1: error: the catalog needs a 'http2' section\n");
    refused(" call_p99: 600 ms,", "",
            "c.yaml:10:19: error: catalog section 'payment-provider' needs 'call_p99'\n");
    refused("{label: Users, ", "{", "c.yaml:6:8: error: catalog section 'users' needs 'label'\n");
    refused("timeout: 2 s, tries: 5", "timeot: 2 s, tries: 5",
            "c.yaml:6:23: error: unknown key 'timeot' in catalog section 'users'; did you mean "
            "'timeout'?\n"
            "c.yaml:6:8: error: catalog section 'users' needs 'timeout'\n");
    refused("per-publish}", "per-publish, vcpu: 1}",
            "c.yaml:6:72: error: unknown key 'vcpu' in catalog section 'users' (expected "
            "'label', 'tries', 'message_id', 'timeout' or 'sources')\n");
    refused("message_id: per-publish", "message_id: per-try",
            "c.yaml:6:59: error: unknown message_id 'per-try' (expected 'producer' or "
            "'per-publish')\n");
    refused("publish: outbox", "publish: outboxed",
            "c.yaml:9:259: error: unknown publish order 'outboxed'; did you mean 'outbox'?\n");
    refused("dedup_window: none", "dedup_window: sqs-fif",
            "c.yaml:7:152: error: unknown window 'sqs-fif'; did you mean 'sqs-fifo'?\n");
    refused("lease: 30 s", "lease: 0 s",
            "c.yaml:8:223: error: lease must be longer than zero, found 0 s\n");
    refused("rtt: 1 ms", "rtt: fast",
            "c.yaml:12:26: error: rtt: expected a number, found 'fast'\n");
    refused("rtt: 1 ms", "rtt: 1",
            "c.yaml:12:27: error: rtt: duration '1' needs a unit (us, ms, "
            "s, min, h or d), e.g. '1 s'\n");
    refused("key_ttl: stripe", "key_ttl: strip",
            "c.yaml:10:118: error: unknown key retention 'strip'; did you mean 'stripe'?\n");
    refused("key_ttl: stripe", "key_ttl: visa",
            "c.yaml:10:118: error: unknown key retention 'visa' (expected 'sqs-fifo', 'stripe' "
            "or 'forever')\n");
    refused("idempotency: none, key_ttl: forever", "idempotency: never, key_ttl: forever",
            "c.yaml:8:155: error: unknown idempotency policy 'never' (expected 'none', "
            "'key-after-effect', 'key-in-transaction', 'provider-key', 'business-key' or "
            "'key-claimed-first')\n");
    refused("price: {vcpu: 3 USD, gb: 1 USD}", "price: {vcpu: 3 EUR}",
            "c.yaml:1:17: error: vcpu: unknown currency 'EUR' (expected 'USD')\n"
            "c.yaml:1:8: error: catalog section 'price' needs 'gb'\n");
    refused("repeat_share: 0,", "repeat_share: 2,",
            "c.yaml:2:56: error: repeat_share: probability '2' is outside 0 to 1 (0% to 100%)\n");
    refused("poison: 0}", "poison: 1.5}",
            "c.yaml:2:67: error: poison: probability '1.5' is outside 0 to 1 (0% to 100%)\n");
    refused("  stripe: {ttl: 24 h, label: Stripe}\n", "  forever: {ttl: 1 h, label: F}\n",
            "c.yaml:5:3: error: 'forever' is a reserved retention name\n"
            "c.yaml:10:118: error: unknown key retention 'stripe' (expected 'sqs-fifo' or "
            "'forever')\n");
    refused("  stripe: {ttl: 24 h, label: Stripe}\n", "  stripe: {ttl: 24 h}\n",
            "c.yaml:5:11: error: a retention entry needs 'label'\n"
            "c.yaml:10:118: error: unknown key retention 'stripe' (expected 'sqs-fifo' or "
            "'forever')\n");
    refused("users: {", "users: [",
            "c.yaml:6:8: error: '[' is not closed with ']' (the parser expected ',' or ']' at "
            "line 6, column 70, and found '}')\n");
    refused("message-broker: {label: Broker,", "message-broker: {label: [Broker],",
            "c.yaml:7:25: error: label must be text, found a list\n");
}

static void whole_file_errors(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    assert_null(catalog_parse("c.yaml", "", 0, &d));
    assert_null(catalog_parse("c.yaml", "- a\n", 4, &d));
    assert_null(catalog_load("no/such/catalog.yaml", &d));
    assert_string_equal(diag_text(&d),
                        "c.yaml:1:1: error: the catalog is empty\n"
                        "c.yaml:1:1: error: the catalog must be a mapping, found a list\n"
                        "no/such/catalog.yaml: error: cannot read the catalog: no such "
                        "file (every site needs a catalog.yaml with every default the "
                        "simulator uses; start from boardpress's content/catalog.yaml)\n");
    diag_free(&d);

    /* The retention section may come after the kinds that use its names. */
    char *moved = edited("retention:\n  sqs-fifo: {ttl: 5 min, label: SQS FIFO}\n"
                         "  stripe: {ttl: 24 h, label: Stripe}\n",
                         "");
    char *text = xasprintf("%sretention:\n  stripe: {ttl: 2 d, label: S}\n", moved);
    diag_init(&d, NULL);
    bp_catalog *c = catalog_parse("c.yaml", text, strlen(text), &d);
    assert_non_null(c);
    assert_int_equal(c->kinds[SIM_KIND_PROVIDER].key_ttl_us, 2 * 86400000000LL);
    catalog_free(c);
    diag_free(&d);
    free(text);
    free(moved);
}

/* The catalog text with this line's section given these sources (a map
 * after its last key); fails the test when the messages differ. */
static bp_catalog *with_sources(const char *sources, const char *want)
{
    char *text = edited("dedup_window: none}", sources);
    diag d;
    diag_init(&d, NULL);
    bp_catalog *c = catalog_parse("c.yaml", text, strlen(text), &d);
    assert_string_equal(diag_text(&d) ? diag_text(&d) : "", want);
    diag_free(&d);
    free(text);
    return c;
}

/* Sources: the short and long forms, lists, and a date or address that is
 * not one, each reported where it is (line 7 holds the broker's section;
 * the edit starts at its column 138). */
static void sources(void **state)
{
    (void)state;
    bp_catalog *c = with_sources(
        "dedup_window: none, sources: {tries: [\"example: a round number\", {compare: Azure, "
        "url: 'https://a.example/x?y=1', checked: 2024-02-29}], vcpu: {measurement: a bench, "
        "checked: 2025-01-31}, gb: example}}",
        "");
    assert_non_null(c);
    const bp_catalog_value *t = catalog_find(c, "message-broker", "tries");
    assert_int_equal(t->source, BP_SOURCE_EXAMPLE);
    assert_int_equal(t->n_sources, 2);
    assert_string_equal(t->sources[0].text, "a round number");
    assert_int_equal(t->sources[1].kind, BP_SOURCE_COMPARE);
    assert_string_equal(t->sources[1].url, "https://a.example/x?y=1");
    assert_string_equal(t->sources[1].checked, "2024-02-29");
    assert_int_equal(catalog_find(c, "message-broker", "vcpu")->source, BP_SOURCE_MEASURED);
    const bp_catalog_value *gb = catalog_find(c, "message-broker", "gb");
    assert_int_equal(gb->n_sources, 1);
    assert_null(gb->sources[0].text);
    assert_int_equal(catalog_find(c, "message-broker", "price")->n_sources, 0);
    catalog_free(c);

    /* 2023 is not a leap year; the column is the date's */
    const char *doc = "dedup_window: none, sources: {tries: {documentation: Pub/Sub, "
                      "url: https://a.example/, checked: ";
    char *bad = xasprintf("%s2023-02-29}}}", doc);
    char *want = xasprintf("c.yaml:7:%zu: error: checked '2023-02-29' is not a day: write the "
                           "day the source was checked as YYYY-MM-DD, such as 2026-12-02\n",
                           138 + strlen(doc));
    assert_null(with_sources(bad, want));
    free(bad);
    free(want);
    bad = xasprintf("%s12/02/2026}}}", doc);
    want = xasprintf("c.yaml:7:%zu: error: checked '12/02/2026' is not a day: write the "
                     "day the source was checked as YYYY-MM-DD, such as 2026-12-02\n",
                     138 + strlen(doc));
    assert_null(with_sources(bad, want));
    free(bad);
    free(want);
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: {documentation: Pub/Sub, url: https://a.example/}}}",
        "c.yaml:7:175: error: a documentation source needs 'checked', the day someone checked "
        "it (YYYY-MM-DD)\n"));
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: \"documentation: Pub/Sub\"}}",
        "c.yaml:7:175: error: a documentation source needs the day it was checked: write "
        "{documentation: Pub/Sub, url: ADDRESS, checked: YYYY-MM-DD}\n"));
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: {compare: Azure, url: docs.example, checked: "
        "2026-12-02}}}",
        "c.yaml:7:197: error: a source's url is a web address starting with https://, not "
        "'docs.example'\n"));
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: {example: a, measurement: b}}}",
        "c.yaml:7:175: error: a source is one of documentation, measurement, example or "
        "compare; give each its own entry in a list\n"));
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: {measurement: b, date: 2026-12-02}}}",
        "c.yaml:7:192: error: unknown key 'date' in a source (expected 'documentation', "
        "'measurement', 'example', 'compare', 'url' or 'checked')\n"));
    assert_null(with_sources(
        "dedup_window: none, sources: {tries: \"a blog post\"}}",
        "c.yaml:7:175: error: a source is 'example', 'example: WHY', 'measurement: WHAT' or a "
        "map such as {documentation: WHICH, url: ADDRESS, checked: YYYY-MM-DD}, not 'a blog "
        "post'\n"));
    assert_null(with_sources("dedup_window: none, sources: {tries: []}}",
                             "c.yaml:7:175: error: a list of sources is empty\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_catalog), cmocka_unit_test(values_by_name),
        cmocka_unit_test(errors),       cmocka_unit_test(whole_file_errors),
        cmocka_unit_test(sources),      cmocka_unit_test(row_default),
    };
    return cmocka_run_group_tests_name("catalog", tests, NULL, NULL);
}

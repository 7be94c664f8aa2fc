/* sim_testlib.c — board builders for the simulator tests (see the header). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rng.h"
#include "sim_testlib.h"

#include <string.h>

static int add_part(tb_board *t, sim_kind kind, const char *id)
{
    int i = (int)t->b.n_parts++;
    sim_part *p = &t->parts[i];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->id = id;
    p->tries = 5;
    p->redelivery_after_us = 1000000;
    p->timeout_us = 1000000;
    p->delivery = SIM_DELIVERY_AT_LEAST_ONCE;
    p->concurrency = 4;
    p->work = (sim_latency){10000, 10000};
    p->idempotency = SIM_IDEM_NONE;
    p->key_ttl_us = SIM_FOREVER;
    p->restart_us = 1000000;
    p->lease_us = 30000000;
    p->relay_every_us = 500000;
    p->call = (sim_latency){50000, 50000};
    p->write = (sim_latency){1000, 1000};
    return i;
}

static int add_link(tb_board *t, int from, int to, sim_protocol proto)
{
    int i = (int)t->b.n_links++;
    sim_link *l = &t->links[i];
    memset(l, 0, sizeof *l);
    l->from = from;
    l->to = to;
    l->protocol = proto;
    l->rtt_us = 2000;
    l->reply_round_trips = proto == SIM_PROTO_AMQP ? 1.0 : 0.5;
    return i;
}

void tb_init(tb_board *t, unsigned shape, int64_t jobs)
{
    memset(t, 0, sizeof *t);
    t->b.id = "test-board";
    t->b.seed = 1;
    t->b.replications = 1;
    t->b.parts = t->parts;
    t->b.links = t->links;
    t->b.prices = (sim_prices){5.0, 1.0};
    t->broker = t->provider = t->database = -1;
    t->publish = t->call = t->write = -1;
    t->broker2 = t->handler2 = t->event = t->delivery2 = -1;
    t->users = add_part(t, SIM_KIND_USERS, "users");
    if (shape & TB_BROKER) {
        t->broker = add_part(t, SIM_KIND_BROKER, "broker");
        t->parts[t->broker].vcpu = 1;
        t->parts[t->broker].gb = 1;
        t->handler = add_part(t, SIM_KIND_CONSUMER, "processor");
        t->publish = add_link(t, t->users, t->broker, SIM_PROTO_HTTP2);
        t->delivery = add_link(t, t->broker, t->handler, SIM_PROTO_AMQP);
    } else {
        t->handler = add_part(t, SIM_KIND_SERVICE, "service");
        t->delivery = add_link(t, t->users, t->handler, SIM_PROTO_HTTP2);
    }
    t->parts[t->handler].vcpu = 2;
    t->parts[t->handler].gb = 2;
    t->parts[t->handler].timeout_us = 2000000;
    if (shape & TB_PROVIDER) {
        t->provider = add_part(t, SIM_KIND_PROVIDER, "provider");
        t->parts[t->provider].external = true;
        t->parts[t->provider].vcpu = 8; /* external: not in the cost */
        t->call = add_link(t, t->handler, t->provider, SIM_PROTO_HTTP2);
    }
    if (shape & TB_DATABASE) {
        t->database = add_part(t, SIM_KIND_DATABASE, "db");
        t->write = add_link(t, t->handler, t->database, SIM_PROTO_SQL);
    }
    if (shape & TB_TWO_HOPS) {
        t->broker2 = add_part(t, SIM_KIND_BROKER, "events");
        t->parts[t->broker2].vcpu = 1;
        t->parts[t->broker2].gb = 1;
        t->handler2 = add_part(t, SIM_KIND_CONSUMER, "mailer");
        t->parts[t->handler2].vcpu = 2;
        t->parts[t->handler2].gb = 2;
        t->event = add_link(t, t->handler, t->broker2, SIM_PROTO_AMQP);
        t->delivery2 = add_link(t, t->broker2, t->handler2, SIM_PROTO_AMQP);
    }
    t->b.traffic = (sim_traffic){
        .from = t->users,
        .jobs = jobs,
        .over_us = jobs * 10000,
        .op = SIM_OP_CHARGE,
        .arrivals = SIM_ARRIVALS_EVEN,
        .repeat_share = 0,
    };
}

sim_part *tb_sender(tb_board *t)
{
    return &t->parts[t->broker >= 0 ? t->broker : t->users];
}

sim_part *tb_handler(tb_board *t)
{
    return &t->parts[t->handler];
}

sim_link *tb_delivery(tb_board *t)
{
    return &t->links[t->delivery];
}

void tb_lose_reply_of_on(tb_board *t, int link, const int64_t *jobs, size_t n)
{
    assert_true(n <= TB_MAX && link >= 0);
    memcpy(t->lose_reply_of, jobs, n * sizeof *jobs);
    t->links[link].lose_reply_of = t->lose_reply_of;
    t->links[link].n_lose_reply_of = n;
}

void tb_lose_reply_of(tb_board *t, const int64_t *jobs, size_t n)
{
    tb_lose_reply_of_on(t, t->delivery, jobs, n);
}

sim_counts tb_counts(const tb_board *t, uint64_t seed)
{
    return tb_counts_rep(t, seed, 0);
}

sim_counts tb_counts_rep(const tb_board *t, uint64_t seed, int r)
{
    sim_limits lim = sim_limits_default();
    sim_counts c;
    char msg[256] = "";
    int rc = sim_run_counts(&t->b, &lim, seed, r, NULL, &c, msg, sizeof msg);
    if (rc != 0)
        fail_msg("sim_run_counts failed: %s", msg);
    return c;
}

void tb_gen_seed(tb_gen *r, uint64_t seed)
{
    r->key = rng_stream_key(seed, 0);
    r->n = 0;
}

double tb_gen_unit(tb_gen *r)
{
    return rng_uniform(r->key, r->n++, 0);
}

bool tb_gen_chance(tb_gen *r, double p)
{
    return tb_gen_unit(r) < p;
}

uint64_t tb_gen_below(tb_gen *r, uint64_t n)
{
    return rng_below(r->key, r->n++, 0, n);
}

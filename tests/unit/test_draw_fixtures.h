/* test_draw_fixtures.h — hand-built boards and traces for the drawing tests
 * (the YAML loader and sim_run live elsewhere). Header-only: static inline. */
#ifndef TEST_DRAW_FIXTURES_H
#define TEST_DRAW_FIXTURES_H

#include "board.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *id, *label;
    sim_kind kind;
    double vcpu, gb;
    bool external;
    sim_idempotency idem;
} fx_part;

typedef struct {
    int from, to;
    sim_protocol proto;
    double lose_request, lose_reply;
    const int64_t *lose_reply_of;
    size_t n_lose_reply_of;
    bool transactional;
} fx_link;

static inline const char *fx_proto_label(sim_protocol p)
{
    switch (p) {
    case SIM_PROTO_AMQP:
        return "AMQP";
    case SIM_PROTO_HTTP1:
        return "HTTP/1.1";
    case SIM_PROTO_HTTP2:
        return "HTTP/2";
    default:
        return "SQL";
    }
}

/* A board as the loader would hand it over: catalog defaults filled in. */
static inline bp_board *fx_board(const char *id, const char *title, const fx_part *parts, size_t n,
                                 const fx_link *links, size_t nl)
{
    bp_board *b = xcalloc(1, sizeof *b);
    b->id = xstrdup(id);
    b->title = title ? xstrdup(title) : NULL;
    b->sim.id = b->id;
    b->sim.seed = 1;
    b->sim.replications = 1;
    b->sim.parts = xcalloc(n, sizeof *b->sim.parts);
    b->sim.n_parts = n;
    b->parts = xcalloc(n, sizeof *b->parts);
    for (size_t i = 0; i < n; i++) {
        sim_part *p = &b->sim.parts[i];
        p->kind = parts[i].kind;
        p->vcpu = parts[i].vcpu;
        p->gb = parts[i].gb;
        p->external = parts[i].external;
        p->idempotency = parts[i].idem;
        p->tries = 5;
        p->concurrency = 1;
        p->key_ttl_us = SIM_FOREVER;
        p->restart_us = 1000000;
        b->parts[i].id = xstrdup(parts[i].id);
        b->parts[i].label = xstrdup(parts[i].label);
    }
    b->sim.links = xcalloc(nl ? nl : 1, sizeof *b->sim.links);
    b->sim.n_links = nl;
    b->links = xcalloc(nl ? nl : 1, sizeof *b->links);
    size_t n_lro = 0;
    for (size_t i = 0; i < nl; i++)
        n_lro += links[i].n_lose_reply_of;
    b->lose_reply_of = xcalloc(n_lro ? n_lro : 1, sizeof *b->lose_reply_of);
    n_lro = 0;
    for (size_t i = 0; i < nl; i++) {
        sim_link *l = &b->sim.links[i];
        l->from = links[i].from;
        l->to = links[i].to;
        l->protocol = links[i].proto;
        l->lose_request = links[i].lose_request;
        l->lose_reply = links[i].lose_reply;
        l->transactional = links[i].transactional;
        l->rtt_us = 1000;
        l->reply_round_trips = 1;
        if (links[i].n_lose_reply_of) {
            memcpy(b->lose_reply_of + n_lro, links[i].lose_reply_of,
                   links[i].n_lose_reply_of * sizeof *b->lose_reply_of);
            l->lose_reply_of = b->lose_reply_of + n_lro;
            l->n_lose_reply_of = links[i].n_lose_reply_of;
            n_lro += links[i].n_lose_reply_of;
        }
        b->links[i].label = xstrdup(fx_proto_label(links[i].proto));
    }
    b->sim.traffic.from = 0;
    b->sim.traffic.jobs = 5;
    b->sim.traffic.op = SIM_OP_CHARGE;
    return b;
}

static inline void fx_board_free(bp_board *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        free(b->parts[i].id);
        free(b->parts[i].label);
    }
    for (size_t i = 0; i < b->sim.n_links; i++)
        free(b->links[i].label);
    free(b->parts);
    free(b->links);
    free(b->sim.parts);
    free(b->sim.links);
    free(b->lose_reply_of);
    free(b->id);
    free(b->title);
    free(b);
}

/* The page's first board: every delivery runs the effect, 20% of acks lost. */
static inline bp_board *fx_every_delivery(void)
{
    static const fx_part parts[] = {
        {"users", "Users", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"broker", "Message broker", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"processor", "Payment processor", SIM_KIND_CONSUMER, 2, 2, false, SIM_IDEM_NONE},
        {"provider", "Payment provider", SIM_KIND_PROVIDER, 0, 0, true, SIM_IDEM_NONE},
    };
    static const fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
        {1, 2, SIM_PROTO_AMQP, 0, 0.2, NULL, 0, false},
        {2, 3, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
    };
    return fx_board("every-delivery", "Every delivery runs the effect", parts, 4, links, 3);
}

/* The mini board: the ack of job 3 is lost; the ID check is in the transaction. */
static inline bp_board *fx_mini(void)
{
    static const int64_t lost[] = {3};
    static const fx_part parts[] = {
        {"users", "Users", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"broker", "Message broker", SIM_KIND_BROKER, 1, 1, false, SIM_IDEM_NONE},
        {"processor", "Payment processor", SIM_KIND_CONSUMER, 2, 2, false,
         SIM_IDEM_KEY_IN_TRANSACTION},
        {"provider", "Payment provider", SIM_KIND_PROVIDER, 0, 0, true, SIM_IDEM_NONE},
    };
    static const fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
        {1, 2, SIM_PROTO_AMQP, 0, 0, lost, 1, false},
        {2, 3, SIM_PROTO_HTTP2, 0, 0, NULL, 0, false},
    };
    return fx_board("mini", "Delivered twice, charged once", parts, 4, links, 3);
}

/* A service called over HTTP without a broker, with its own database. */
static inline bp_board *fx_service(void)
{
    static const fx_part parts[] = {
        {"users", "Users", SIM_KIND_USERS, 0, 0, false, SIM_IDEM_NONE},
        {"checkout", "Checkout service", SIM_KIND_SERVICE, 1, 2, false, SIM_IDEM_PROVIDER_KEY},
        {"provider", "Payment provider", SIM_KIND_PROVIDER, 0, 0, true, SIM_IDEM_NONE},
        {"db", "Orders database", SIM_KIND_DATABASE, 2, 4, false, SIM_IDEM_NONE},
    };
    static const fx_link links[] = {
        {0, 1, SIM_PROTO_HTTP2, 0.05, 0.1, NULL, 0, false},
        {1, 2, SIM_PROTO_HTTP2, 0, 0.02, NULL, 0, false},
        {1, 3, SIM_PROTO_SQL, 0, 0, NULL, 0, false},
    };
    bp_board *b = fx_board("service", "Checkout calls the provider with a key", parts, 4, links, 3);
    b->sim.parts[2].key_ttl_us = 86400000000LL;
    b->sim.parts[1].crash_after_effect = 0.01;
    return b;
}

#endif

/* test_draw_fixtures.h — hand-built boards and traces for the drawing tests
 * (the YAML loader and sim_run live elsewhere). Header-only: static inline. */
#ifndef TEST_DRAW_FIXTURES_H
#define TEST_DRAW_FIXTURES_H

#include "load/board.h"
#include "base/util.h"
#include "draw/draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The look the golden and layout tests draw unless they say otherwise. */
#define FX_LOOK ((draw_look){DRAW_WIDE, DRAW_LIGHT})

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

/* Include after cmocka.h. */
/* Parse a document with xmllint; true when it is well-formed. */
static inline bool fx_wellformed(const buf *svg)
{
    char path[] = "/tmp/bp-draw-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(svg->data, 1, svg->len, f), svg->len);
    fclose(f);
    char *cmd = xasprintf("xmllint --noout %s", path);
    int rc = system(cmd);
    free(cmd);
    remove(path);
    assert_true(WIFEXITED(rc));
    assert_int_not_equal(WEXITSTATUS(rc), 127); /* xmllint must be installed (make test does) */
    return WEXITSTATUS(rc) == 0;
}

/* A hand-built trace of the mini board (parts: 0 users, 1 broker, 2
 * processor, 3 provider): five jobs, the ack of job 3 is lost, the broker
 * redelivers it after 3 s. With id_check the processor skips the repeat;
 * without, the provider charges job 3 twice. Returns the entry count; *out
 * is a heap array (free it). */
static inline size_t fx_mini_trace(bool id_check, sim_trace_entry **out)
{
    sim_trace_entry *t = xcalloc(128, sizeof *t);
    size_t n = 0;
#define FX_EV(T, K, J, P, Q, D) (t[n++] = (sim_trace_entry){(T), (K), (J), (P), (Q), (D), 0})
    for (int64_t k = 1; k <= 5; k++) {
        int64_t t0 = (k - 1) * 200000;
        FX_EV(t0, SIM_TR_ARRIVE, k, 0, -1, 0);
        FX_EV(t0 + 1000, SIM_TR_SEND, k, 1, 2, 1);
        FX_EV(t0 + 2000, SIM_TR_RECEIVE, k, 2, 1, 1);
        FX_EV(t0 + 3000, SIM_TR_CALL, k, 2, 3, 0);
        FX_EV(t0 + 150000, SIM_TR_EFFECT, k, 3, 2, 1); /* on try 1 */
        if (id_check)
            FX_EV(t0 + 151000, SIM_TR_RECORD_KEY, k, 2, -1, 0);
        FX_EV(t0 + 152000, SIM_TR_REPLY, k, 2, 1, 0);
        if (k == 3)
            FX_EV(t0 + 152500, SIM_TR_LOST_REPLY, k, 2, 1, 0);
        else
            FX_EV(t0 + 153000, SIM_TR_ACKED, k, 1, 2, 0);
    }
    int64_t t0 = 3400000;
    FX_EV(t0, SIM_TR_TIMEOUT, 3, 1, 2, 1);
    FX_EV(t0, SIM_TR_SEND, 3, 1, 2, 2);
    FX_EV(t0 + 1000, SIM_TR_RECEIVE, 3, 2, 1, 2);
    if (id_check) {
        FX_EV(t0 + 2000, SIM_TR_SKIP, 3, 2, -1, 0);
    } else {
        FX_EV(t0 + 3000, SIM_TR_CALL, 3, 2, 3, 0);
        FX_EV(t0 + 150000, SIM_TR_EFFECT, 3, 3, 2, -2); /* a duplicate, on try 2 */
    }
    FX_EV(t0 + 152000, SIM_TR_REPLY, 3, 2, 1, 0);
    FX_EV(t0 + 153000, SIM_TR_ACKED, 3, 1, 2, 0);
#undef FX_EV
    *out = t;
    return n;
}

/* Compare with tests/golden-svg/NAME.svg; BOARDPRESS_REGEN=1 rewrites it. */
static inline void fx_golden(const char *name, const char *got)
{
    char *path = xasprintf("tests/golden-svg/%s.svg", name);
    const char *regen = getenv("BOARDPRESS_REGEN");
    if (regen && strcmp(regen, "1") == 0) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(got, f);
        fclose(f);
        printf("rewrote %s\n", path);
        free(path);
        return;
    }
    char *want = NULL;
    size_t len = 0;
    if (file_read(path, 1 << 22, &want, &len) != 0)
        fail_msg("cannot read %s (BOARDPRESS_REGEN=1 writes it)", path);
    if (strcmp(want, got) != 0) {
        size_t line = 1, i = 0;
        while (want[i] && want[i] == got[i]) {
            if (want[i] == '\n')
                line++;
            i++;
        }
        char *actual = xasprintf("/tmp/boardpress-golden-%s.svg", name);
        FILE *f = fopen(actual, "wb");
        if (f) {
            fputs(got, f);
            fclose(f);
        }
        print_error("%s differs from the drawing at line %zu\n  see: diff -u %s %s\n"
                    "  if the change is intended: BOARDPRESS_REGEN=1 make test\n",
                    path, line, path, actual);
        free(actual);
        free(want);
        free(path);
        fail();
    }
    free(want);
    free(path);
}

#endif

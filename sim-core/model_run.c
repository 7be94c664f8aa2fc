/* model_run.c — one replication of a board: the model set up from the
 * board, the event loop with its limits, and the measures tallied from the
 * per-job arrays at the end. Per-job state is a few parallel arrays (26
 * bytes a job); pending events live in the queue only until they happen. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t round_trips(double rt, int64_t rtt_us)
{
    return (int64_t)(rt * (double)rtt_us + 0.5);
}

sim_model *sim_model_new(const sim_board *b, const sim_topology *topo)
{
    sim_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    const sim_topology *t = topo;
    const sim_part *sp = &b->parts[t->sender], *hp = &b->parts[t->handler];
    const sim_link *dl = &b->links[t->delivery_link];
    m->b = b;
    m->t = *t;
    m->jobs = (uint32_t)b->traffic.jobs;
    m->broker_fed = t->broker >= 0;
    m->at_most_once = m->broker_fed && sp->delivery == SIM_DELIVERY_AT_MOST_ONCE;
    m->external = t->provider >= 0;
    m->transactional = m->broker_fed && dl->transactional;
    m->policy = hp->idempotency;
    m->op = b->traffic.op;
    m->arrivals = b->traffic.arrivals;
    m->tries = (uint32_t)sp->tries;
    m->over_us = b->traffic.over_us;
    m->timer_us = m->broker_fed ? sp->redelivery_after_us : sp->timeout_us;
    m->publish_us = t->publish_link >= 0 ? b->links[t->publish_link].rtt_us / 2 : 0;
    m->deliver_us = dl->rtt_us / 2;
    m->reply_us = round_trips(dl->reply_round_trips, dl->rtt_us);
    m->lose_request = dl->lose_request;
    m->lose_reply = dl->lose_reply;
    m->key_ttl_us = hp->key_ttl_us;
    m->crash_p = hp->crash_after_effect;
    m->restart_us = hp->restart_us;
    m->repeat_share = b->traffic.repeat_share;
    dist_init(&m->work, hp->work);
    sim_latency zero = {0, 0};
    dist_init(&m->write, t->database >= 0 ? b->parts[t->database].write : zero);
    dist_init(&m->call, m->external ? b->parts[t->provider].call : zero);
    m->work_lane = m->work.sigma == 0 && m->write.sigma == 0 ? L_WORK : QUEUE_HEAP;
    m->call_reply_lane = m->call.sigma == 0 ? L_CALL_REPLY : QUEUE_HEAP;
    m->effect_part = t->database >= 0 ? t->database : t->handler;
    m->effect_peer = t->database >= 0 ? t->handler : -1;
    if (m->external) {
        const sim_link *cl = &b->links[t->call_link];
        const sim_part *pp = &b->parts[t->provider];
        m->call_us = cl->rtt_us / 2;
        m->call_reply_us = round_trips(cl->reply_round_trips, cl->rtt_us);
        m->call_timeout_us = hp->timeout_us;
        m->call_lose_request = cl->lose_request;
        m->call_lose_reply = cl->lose_reply;
        m->fail_p = pp->fail;
        m->provider_ttl_us = pp->key_ttl_us;
    }
    m->concurrency = (uint32_t)hp->concurrency;

    size_t n = m->jobs;
    bool keys = m->policy != SIM_IDEM_NONE;
    m->at_us = malloc(n * sizeof *m->at_us);
    m->key_rec = keys ? malloc(n * sizeof *m->key_rec) : NULL;
    m->bkey = m->repeat_share > 0 ? malloc(n * sizeof *m->bkey) : NULL;
    m->cur_try = malloc(n * sizeof *m->cur_try);
    m->effects = malloc(n * sizeof *m->effects);
    m->flags = malloc(n * sizeof *m->flags);
    m->slots = calloc(m->concurrency, sizeof *m->slots);
    m->free_slots = malloc(m->concurrency * sizeof *m->free_slots);
    queue_init(&m->q);
    if (!m->at_us || (keys && !m->key_rec) || (m->repeat_share > 0 && !m->bkey) || !m->cur_try ||
        !m->effects || !m->flags || !m->slots || !m->free_slots) {
        sim_model_free(m);
        return NULL;
    }
    return m;
}

void sim_model_free(sim_model *m)
{
    if (!m)
        return;
    free(m->at_us);
    free(m->key_rec);
    free(m->bkey);
    free(m->cur_try);
    free(m->effects);
    free(m->flags);
    free(m->slots);
    free(m->free_slots);
    free(m->waiting.v);
    queue_free(&m->q);
    free(m);
}

static void mark_lose_reply_of(sim_model *m, int link, uint16_t flag)
{
    if (link < 0)
        return;
    const sim_link *l = &m->b->links[link];
    for (size_t i = 0; i < l->n_lose_reply_of; i++)
        m->flags[l->lose_reply_of[i] - 1] |= flag;
}

static void reset(sim_model *m, uint64_t seed, sim_trace_buf *trace)
{
    size_t n = m->jobs;
    memset(m->cur_try, 0, n * sizeof *m->cur_try);
    memset(m->effects, 0, n * sizeof *m->effects);
    memset(m->flags, 0, n * sizeof *m->flags);
    if (m->key_rec)
        for (size_t i = 0; i < n; i++)
            m->key_rec[i] = KEY_NONE;
    mark_lose_reply_of(m, m->t.delivery_link, F_LRO_DELIVERY);
    mark_lose_reply_of(m, m->t.call_link, F_LRO_CALL);
    model_reset_slots(m);
    m->down = m->pumping = m->oom = false;
    m->waiting.head = m->waiting.n = 0;
    rng_seed(&m->rng, seed);
    queue_clear(&m->q);
    m->trace = trace;
    memset(&m->k, 0, sizeof m->k);
    m->k.jobs = m->jobs;
    m->now = 0;
    m->arrival_clock = 0;
}

/* The measures from the per-job arrays at the end of a run. */
static void tally(sim_model *m)
{
    sim_counts *k = &m->k;
    size_t n = m->jobs;
    for (size_t j = 0; j < n; j++) {
        int64_t e = m->effects[j];
        k->effects += e;
        if (e >= 1)
            k->jobs_with_effect++;
        if (e >= 2) {
            k->charged_twice++;
            k->duplicates += e - 1;
        }
        if (m->op == SIM_OP_CHARGE) {
            k->jobs_should_effect++;
            if (e == 0)
                k->lost_writes++;
        } else if (bkey_of(m, (uint32_t)j) == j) { /* each business key once */
            k->jobs_should_effect++;
            if (!(m->flags[j] & F_KEY_SET))
                k->lost_writes++;
        }
    }
    size_t ok = 0; /* latencies of the jobs that succeeded, packed in front */
    for (size_t j = 0; j < n; j++)
        if (m->flags[j] & F_SUCCESS)
            m->at_us[ok++] = m->at_us[j];
    if (ok > 0) {
        k->latency_p50_us = sim_percentile(m->at_us, ok, 50);
        k->latency_p99_us = sim_percentile(m->at_us, ok, 99);
    }
}

int sim_model_run(sim_model *m, const sim_limits *lim, uint64_t seed, sim_trace_buf *trace,
                  sim_counts *out, char *msg, size_t n)
{
    reset(m, seed, trace);
    model_start(m);
    sim_event e;
    int64_t events = 0;
    while (queue_pop(&m->q, &e)) {
        if (++events > lim->max_events) {
            snprintf(msg, n,
                     "the board needs more than %lld events in one run; lower jobs or tries",
                     (long long)lim->max_events);
            return -1;
        }
        if (e.t_us > TIME_HORIZON_US) {
            snprintf(msg, n,
                     "the board runs longer than simulated time can count; shorten its "
                     "durations");
            return -1;
        }
        m->now = e.t_us;
        model_dispatch(m, &e);
        if (m->oom || m->q.oom) {
            snprintf(msg, n, "not enough memory to simulate the board");
            return -1;
        }
    }
    m->k.events = events;
    tally(m);
    *out = m->k;
    return 0;
}

int sim_run_counts(const sim_board *b, const sim_limits *lim, uint64_t seed, sim_trace_buf *trace,
                   sim_counts *out, char *msg, size_t n)
{
    sim_topology t;
    int link;
    if (sim_board_check_topology(b, lim, msg, n, &link, &t) != -1)
        return -1;
    sim_model *m = sim_model_new(b, &t);
    if (!m) {
        snprintf(msg, n, "not enough memory to simulate %lld jobs", (long long)b->traffic.jobs);
        return -1;
    }
    int rc = sim_model_run(m, lim, seed, trace, out, msg, n);
    sim_model_free(m);
    return rc;
}

/* model.c — one replication of the delivery model of MODEL.md: the events of
 * the sender (users or broker), the handler (consumer or service) and the
 * payment provider, and the measures counted from per-job state at the end.
 * Per-job state is a few parallel arrays (26 bytes a job); pending events
 * live in the queue only until they happen. */
#include "queue.h"
#include "rng.h"
#include "sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Event kinds. */
enum {
    EV_ARRIVE,         /* job arrives at the users part */
    EV_AT_BROKER,      /* published job reaches the broker */
    EV_H_ARRIVE,       /* a send reaches the handler; arg = try */
    EV_H_LOCAL_DONE,   /* work and write done: apply the local effect */
    EV_H_CALL,         /* work done: call the provider */
    EV_P_CALL,         /* the call reaches the provider */
    EV_H_CALL_OK,      /* success response back at the handler */
    EV_H_CALL_FAILED,  /* failure response back at the handler */
    EV_H_CALL_TIMEOUT, /* the handler's own call timeout */
    EV_H_RESTART,      /* crashed handler is back */
    EV_S_REPLY,        /* ack/response back at the sender; arg = try */
    EV_S_TIMER,        /* sender's redelivery/timeout timer; arg = try */
};

/* Lanes for events scheduled a constant delay ahead (see queue.h). */
enum { L_TIMER, L_PUBLISH, L_DELIVER, L_REPLY, L_WORK, L_CALL, L_CALL_REPLY, L_CALL_TIMEOUT };

/* Per-job flags. */
enum {
    F_DONE = 1 << 0,              /* final outcome reached */
    F_SUCCESS = 1 << 1,           /* acknowledged (at-most-once: finished) */
    F_ERROR = 1 << 2,             /* sender gave up */
    F_DROPPED = 1 << 3,           /* at-most-once: lost on the way */
    F_WAITING = 1 << 4,           /* sender's timer for cur_try is live */
    F_KEY_SET = 1 << 5,           /* op set: the business key with this index is set */
    F_LRO_DELIVERY = 1 << 6,      /* in lose_reply_of of the delivery link ... */
    F_LRO_DELIVERY_USED = 1 << 7, /* ... and its first reply has gone */
    F_LRO_CALL = 1 << 8,          /* in lose_reply_of of the call link ... */
    F_LRO_CALL_USED = 1 << 9,     /* ... and its first response has gone */
};

/* Why a call timed out (trace detail of CALL_LOST). */
enum { CALL_SLOW = 0, CALL_REQUEST_LOST = 1, CALL_RESPONSE_LOST = 2 };

#define KEY_NONE INT64_MIN
#define NO_JOB UINT32_MAX
/* Simulated time may not pass this (~146,000 years): no sum can overflow. */
#define TIME_HORIZON_US (INT64_C(1) << 62)

typedef struct {
    uint32_t job, try_no;
    uint32_t gen;      /* bumped when the slot frees: older events are stale */
    uint8_t used;      /* holds a delivery (or one in transit to it) */
    uint8_t call_lost; /* CALL_* reason for a timeout */
} slot;

typedef struct {
    uint32_t job, try_no;
} pending;

/* FIFO of waiting deliveries; capacity a power of two. */
typedef struct {
    pending *v;
    size_t head, n, cap;
} ring;

/* What a delivery changed locally, for a rollback in the same event. */
typedef struct {
    bool effect;
    bool key;
    uint32_t key_at;
    int64_t old_key;
} local_change;

struct sim_model {
    const sim_board *b;
    sim_topology t;
    /* the board, resolved */
    uint32_t jobs;
    bool broker_fed, at_most_once, external, transactional;
    sim_idempotency policy;
    sim_op op;
    sim_arrivals arrivals;
    uint32_t tries;
    int64_t over_us, timer_us, publish_us, deliver_us, reply_us;
    int64_t call_us, call_reply_us, call_timeout_us, restart_us;
    int64_t key_ttl_us, provider_ttl_us;
    double lose_request, lose_reply, call_lose_request, call_lose_reply;
    double crash_p, fail_p, repeat_share;
    sim_dist work, write, call;
    int work_lane, call_reply_lane;
    int effect_part; /* where a local effect lands: the database, else the handler */
    int effect_peer;
    /* per job */
    int64_t *at_us;   /* arrival time; latency once it succeeded */
    int64_t *key_rec; /* when the handler (or, provider-key, the provider) recorded this key */
    uint32_t *bkey;   /* business key (index of the original job); NULL: no repeats */
    uint16_t *cur_try, *effects, *flags;
    /* the handler */
    slot *slots;
    uint32_t *free_slots, n_free, concurrency;
    bool down, pumping;
    ring waiting; /* broker's queue (broker-fed) or the service's (users-fed) */
    /* the run */
    sim_rng rng;
    sim_queue q;
    sim_trace_buf *trace;
    sim_counts k;
    int64_t now;
    double arrival_clock; /* poisson: exact arrival time in us */
    bool oom;
};

/* ------------------------------------------------------------ helpers */

static void push(sim_model *m, int lane, int64_t delay, unsigned kind, uint32_t job, uint32_t arg,
                 uint32_t gen, uint32_t slot_i)
{
    queue_push(&m->q, lane, m->now + delay, kind, job, arg, gen, slot_i);
}

static void tr(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer, int64_t detail)
{
    sim_trace_buf *t = m->trace;
    if (!t)
        return;
    if (t->n == t->max) {
        t->truncated = true;
        return;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        if (cap > t->max)
            cap = t->max;
        sim_trace_entry *v = realloc(t->v, cap * sizeof *v);
        if (!v) {
            m->oom = true;
            return;
        }
        t->v = v;
        t->cap = cap;
    }
    sim_trace_entry *e = &t->v[t->n++];
    e->t_us = m->now;
    e->kind = kind;
    e->job = job == NO_JOB ? 0 : (int64_t)job + 1;
    e->part = part;
    e->peer = peer;
    e->detail = detail;
}

static void ring_push(sim_model *m, uint32_t job, uint32_t try_no)
{
    ring *r = &m->waiting;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        pending *v = malloc(cap * sizeof *v);
        if (!v) {
            m->oom = true;
            return;
        }
        for (size_t i = 0; i < r->n; i++)
            v[i] = r->v[(r->head + i) & (r->cap - 1)];
        free(r->v);
        r->v = v;
        r->cap = cap;
        r->head = 0;
    }
    r->v[(r->head + r->n) & (r->cap - 1)] = (pending){job, try_no};
    r->n++;
}

static pending ring_pop(ring *r)
{
    pending p = r->v[r->head];
    r->head = (r->head + 1) & (r->cap - 1);
    r->n--;
    return p;
}

static uint32_t bkey_of(const sim_model *m, uint32_t job)
{
    return m->bkey ? m->bkey[job] : job;
}

static bool key_live(const sim_model *m, int64_t rec, int64_t ttl)
{
    return rec != KEY_NONE && m->now - rec <= ttl;
}

/* Does the handler keep its own key record? */
static bool handler_checks(const sim_model *m)
{
    return m->policy == SIM_IDEM_KEY_AFTER_EFFECT || m->policy == SIM_IDEM_KEY_IN_TRANSACTION ||
           m->policy == SIM_IDEM_BUSINESS_KEY;
}

/* Is the key recorded in the same commit as a local effect? */
static bool key_in_commit(const sim_model *m)
{
    return m->policy == SIM_IDEM_KEY_IN_TRANSACTION || m->policy == SIM_IDEM_BUSINESS_KEY;
}

static uint32_t key_index(const sim_model *m, uint32_t job)
{
    return m->policy == SIM_IDEM_BUSINESS_KEY ? bkey_of(m, job) : job;
}

/* The handler's check: a live record of this delivery's key. */
static bool seen(const sim_model *m, uint32_t job)
{
    return handler_checks(m) && key_live(m, m->key_rec[key_index(m, job)], m->key_ttl_us);
}

/* Is this reply lost? lose_reply_of loses a job's first reply on the link. */
static bool reply_lost(sim_model *m, uint32_t job, uint16_t listed, double p)
{
    uint16_t used = (uint16_t)(listed << 1);
    if ((m->flags[job] & (listed | used)) == listed) {
        m->flags[job] |= used;
        return true;
    }
    m->flags[job] |= used;
    return rng_bernoulli(&m->rng, p);
}

/* ------------------------------------------------------------ outcomes */

static void outcome(sim_model *m, uint32_t job, uint16_t flag)
{
    m->flags[job] |= (uint16_t)(F_DONE | flag);
    if (m->now > m->k.last_outcome_us)
        m->k.last_outcome_us = m->now;
}

static void job_success(sim_model *m, uint32_t job)
{
    outcome(m, job, F_SUCCESS);
    m->at_us[job] = m->now - m->at_us[job];
    m->k.successes++;
}

static void job_error(sim_model *m, uint32_t job)
{
    tr(m, SIM_TR_GIVE_UP, job, m->t.sender, m->t.handler, m->cur_try[job]);
    outcome(m, job, F_ERROR);
    m->k.errors++;
}

static void job_dropped(sim_model *m, uint32_t job, int part)
{
    tr(m, SIM_TR_DROPPED, job, part, -1, 0);
    outcome(m, job, F_DROPPED);
    m->k.dropped++;
}

/* ------------------------------------------------------------ effects */

/* Apply the job's operation; false when it changed nothing (a repeated set). */
static bool apply_effect(sim_model *m, uint32_t job, int part, int peer)
{
    if (m->op == SIM_OP_SET) {
        uint32_t k = bkey_of(m, job);
        if (m->flags[k] & F_KEY_SET)
            return false;
        m->flags[k] |= F_KEY_SET;
    }
    m->effects[job]++;
    tr(m, SIM_TR_EFFECT, job, part, peer, m->effects[job] > 1);
    return true;
}

static void rollback(sim_model *m, uint32_t job, const local_change *ch)
{
    if (!ch || (!ch->effect && !ch->key))
        return;
    if (ch->effect) {
        m->effects[job]--;
        if (m->op == SIM_OP_SET)
            m->flags[bkey_of(m, job)] &= (uint16_t)~F_KEY_SET;
    }
    if (ch->key)
        m->key_rec[ch->key_at] = ch->old_key;
    tr(m, SIM_TR_ROLLBACK, job, m->effect_part, -1, 0);
}

/* Record the handled key; a live record already there (a unique key) stays. */
static void record_key(sim_model *m, uint32_t job, local_change *ch)
{
    if (!handler_checks(m))
        return;
    uint32_t at = key_index(m, job);
    if (key_live(m, m->key_rec[at], m->key_ttl_us))
        return;
    ch->key = true;
    ch->key_at = at;
    ch->old_key = m->key_rec[at];
    m->key_rec[at] = m->now;
    tr(m, SIM_TR_RECORD_KEY, job, m->t.handler, -1, 0);
}

/* ------------------------------------------------------------ handler slots */

static void receive(sim_model *m, uint32_t job, uint32_t try_no, uint32_t s);
static void send(sim_model *m, uint32_t job);

static uint32_t take_slot(sim_model *m, uint32_t job, uint32_t try_no)
{
    uint32_t s = m->free_slots[--m->n_free];
    m->slots[s].job = job;
    m->slots[s].try_no = try_no;
    m->slots[s].used = 1;
    m->slots[s].call_lost = CALL_SLOW;
    return s;
}

/* Move waiting deliveries into free slots: the broker sends, or the
 * service takes the next queued request. Not reentrant: a nested call (a
 * delivery that finishes at once) leaves the work to the outer loop. */
static void pump(sim_model *m)
{
    if (m->pumping)
        return;
    m->pumping = true;
    while (!m->down && m->n_free > 0 && m->waiting.n > 0 && !m->oom) {
        pending p = ring_pop(&m->waiting);
        if (m->broker_fed) {
            send(m, p.job);
        } else {
            uint32_t s = take_slot(m, p.job, p.try_no);
            receive(m, p.job, p.try_no, s);
        }
    }
    m->pumping = false;
}

static void release_slot(sim_model *m, uint32_t s)
{
    m->slots[s].used = 0;
    m->slots[s].gen++;
    m->free_slots[m->n_free++] = s;
    pump(m);
}

static void reset_slots(sim_model *m)
{
    for (uint32_t i = 0; i < m->concurrency; i++) {
        m->slots[i].used = 0;
        m->slots[i].gen++;
        m->free_slots[i] = m->concurrency - 1 - i; /* slot 0 is taken first */
    }
    m->n_free = m->concurrency;
}

static bool slot_valid(const sim_model *m, const sim_event *e)
{
    return m->slots[e->slot].gen == e->gen;
}

/* The delivery is done: reply over the delivery link, free the slot. */
static void reply(sim_model *m, uint32_t job, uint32_t try_no, uint32_t s, const local_change *ch)
{
    if (m->at_most_once) {
        job_success(m, job);
    } else {
        tr(m, SIM_TR_REPLY, job, m->t.handler, m->t.sender, try_no);
        if (reply_lost(m, job, F_LRO_DELIVERY, m->lose_reply)) {
            tr(m, SIM_TR_LOST_REPLY, job, m->t.handler, m->t.sender, try_no);
            if (m->transactional)
                rollback(m, job, ch); /* the receive never committed */
        } else {
            push(m, L_REPLY, m->reply_us, EV_S_REPLY, job, try_no, 0, 0);
        }
    }
    release_slot(m, s);
}

/* The delivery ends with no reply (failed or lost call). */
static void end_without_reply(sim_model *m, uint32_t job, uint32_t s)
{
    if (m->at_most_once)
        job_dropped(m, job, m->t.handler);
    release_slot(m, s);
}

static void crash(sim_model *m, uint32_t job, const local_change *ch)
{
    tr(m, SIM_TR_CRASH, job, m->t.handler, -1, 0);
    if (key_in_commit(m) || m->transactional)
        rollback(m, job, ch);
    if (m->at_most_once)
        for (uint32_t i = 0; i < m->concurrency; i++)
            if (m->slots[i].used)
                job_dropped(m, m->slots[i].job, m->t.handler);
    reset_slots(m);
    m->down = true;
    if (!m->broker_fed) { /* requests queued in the process die with it */
        m->waiting.n = 0;
        m->waiting.head = 0;
    }
    push(m, QUEUE_HEAP, m->restart_us, EV_H_RESTART, 0, 0, 0, 0);
}

/* ------------------------------------------------------------ handler events */

static void receive(sim_model *m, uint32_t job, uint32_t try_no, uint32_t s)
{
    m->k.deliveries++;
    tr(m, SIM_TR_RECEIVE, job, m->t.handler, m->t.sender, try_no);
    if (seen(m, job)) {
        tr(m, SIM_TR_SKIP, job, m->t.handler, -1, 0);
        reply(m, job, try_no, s, NULL);
        return;
    }
    int64_t w = dist_draw(&m->work, &m->rng);
    uint32_t gen = m->slots[s].gen;
    if (m->external)
        push(m, m->work_lane, w, EV_H_CALL, job, try_no, gen, s);
    else
        push(m, m->work_lane, w + dist_draw(&m->write, &m->rng), EV_H_LOCAL_DONE, job, try_no, gen,
             s);
}

static void on_h_arrive(sim_model *m, const sim_event *e)
{
    if (m->broker_fed) {
        if (slot_valid(m, e)) /* else the handler crashed while it was in transit */
            receive(m, e->job, e->arg, e->slot);
        return;
    }
    if (m->down) {
        tr(m, SIM_TR_LOST_REQUEST, e->job, m->t.sender, m->t.handler, e->arg);
        return;
    }
    if (m->n_free > 0 && m->waiting.n == 0)
        receive(m, e->job, e->arg, take_slot(m, e->job, e->arg));
    else
        ring_push(m, e->job, e->arg);
}

static void on_local_done(sim_model *m, const sim_event *e)
{
    if (!slot_valid(m, e))
        return;
    uint32_t job = e->job;
    if (key_in_commit(m) && seen(m, job)) {
        /* another delivery committed the key first: this commit conflicts */
        tr(m, SIM_TR_SKIP, job, m->t.handler, -1, 0);
        reply(m, job, e->arg, e->slot, NULL);
        return;
    }
    local_change ch = {0};
    ch.effect = apply_effect(m, job, m->effect_part, m->effect_peer);
    if (rng_bernoulli(&m->rng, m->crash_p)) {
        crash(m, job, &ch);
        return;
    }
    record_key(m, job, &ch);
    reply(m, job, e->arg, e->slot, &ch);
}

static void on_h_call(sim_model *m, const sim_event *e)
{
    if (!slot_valid(m, e))
        return;
    tr(m, SIM_TR_CALL, e->job, m->t.handler, m->t.provider, 0);
    push(m, L_CALL_TIMEOUT, m->call_timeout_us, EV_H_CALL_TIMEOUT, e->job, e->arg, e->gen, e->slot);
    if (rng_bernoulli(&m->rng, m->call_lose_request))
        m->slots[e->slot].call_lost = CALL_REQUEST_LOST;
    else
        push(m, L_CALL, m->call_us, EV_P_CALL, e->job, e->arg, e->gen, e->slot);
}

/* The provider takes a call. It runs whatever happened to the handler. */
static void on_p_call(sim_model *m, const sim_event *e)
{
    uint32_t job = e->job;
    bool ok = true;
    int p = m->t.provider, h = m->t.handler;
    if (m->policy == SIM_IDEM_PROVIDER_KEY && key_live(m, m->key_rec[job], m->provider_ttl_us)) {
        tr(m, SIM_TR_PROVIDER_SKIP, job, p, h, 0);
    } else if (rng_bernoulli(&m->rng, m->fail_p)) {
        tr(m, SIM_TR_CALL_FAILED, job, p, h, 0);
        ok = false;
    } else {
        apply_effect(m, job, p, h);
        if (m->policy == SIM_IDEM_PROVIDER_KEY)
            m->key_rec[job] = m->now;
    }
    int64_t busy = dist_draw(&m->call, &m->rng);
    if (reply_lost(m, job, F_LRO_CALL, m->call_lose_reply)) {
        if (slot_valid(m, e))
            m->slots[e->slot].call_lost = CALL_RESPONSE_LOST;
        return;
    }
    push(m, m->call_reply_lane, busy + m->call_reply_us, ok ? EV_H_CALL_OK : EV_H_CALL_FAILED, job,
         e->arg, e->gen, e->slot);
}

static void on_call_ok(sim_model *m, const sim_event *e)
{
    if (!slot_valid(m, e))
        return;
    if (rng_bernoulli(&m->rng, m->crash_p)) {
        crash(m, e->job, NULL); /* the call is made; nothing local to undo */
        return;
    }
    local_change ch = {0};
    record_key(m, e->job, &ch);
    reply(m, e->job, e->arg, e->slot, &ch);
}

static void on_call_failed(sim_model *m, const sim_event *e)
{
    if (slot_valid(m, e))
        end_without_reply(m, e->job, e->slot);
}

static void on_call_timeout(sim_model *m, const sim_event *e)
{
    if (!slot_valid(m, e))
        return;
    tr(m, SIM_TR_CALL_LOST, e->job, m->t.handler, m->t.provider, m->slots[e->slot].call_lost);
    end_without_reply(m, e->job, e->slot);
}

static void on_restart(sim_model *m)
{
    m->down = false;
    tr(m, SIM_TR_RESTART, NO_JOB, m->t.handler, -1, 0);
    pump(m);
}

/* ------------------------------------------------------------ sender events */

static void send(sim_model *m, uint32_t job)
{
    uint32_t try_no = ++m->cur_try[job];
    tr(m, SIM_TR_SEND, job, m->t.sender, m->t.handler, try_no);
    if (!m->at_most_once) {
        m->flags[job] |= F_WAITING;
        push(m, L_TIMER, m->timer_us, EV_S_TIMER, job, try_no, 0, 0);
    }
    if (rng_bernoulli(&m->rng, m->lose_request)) {
        tr(m, SIM_TR_LOST_REQUEST, job, m->t.sender, m->t.handler, try_no);
        if (m->at_most_once)
            job_dropped(m, job, m->t.sender);
        return;
    }
    uint32_t s = 0, gen = 0;
    if (m->broker_fed) { /* prefetch: the delivery holds its slot from now */
        s = take_slot(m, job, try_no);
        gen = m->slots[s].gen;
    }
    push(m, L_DELIVER, m->deliver_us, EV_H_ARRIVE, job, try_no, gen, s);
}

static void to_broker(sim_model *m, uint32_t job)
{
    ring_push(m, job, 0);
    pump(m);
}

static void schedule_arrival(sim_model *m, uint32_t job)
{
    if (job >= m->jobs)
        return;
    int64_t t;
    if (m->arrivals == SIM_ARRIVALS_EVEN) {
        /* job * over / jobs, exactly: (jobs-1)^2 fits in 64 bits */
        uint64_t n = m->jobs, over = (uint64_t)m->over_us;
        t = (int64_t)((uint64_t)job * (over / n) + ((uint64_t)job * (over % n)) / n);
    } else {
        m->arrival_clock += rng_exponential(&m->rng, (double)m->over_us / (double)m->jobs);
        t = (int64_t)(m->arrival_clock + 0.5);
    }
    queue_push(&m->q, QUEUE_HEAP, t, EV_ARRIVE, job, 0, 0, 0);
}

static void on_arrive(sim_model *m, uint32_t job)
{
    m->at_us[job] = m->now;
    if (job == 0)
        m->k.first_arrival_us = m->now;
    tr(m, SIM_TR_ARRIVE, job, m->t.users, -1, 0);
    if (m->bkey)
        m->bkey[job] = job > 0 && rng_bernoulli(&m->rng, m->repeat_share)
                           ? m->bkey[rng_below(&m->rng, job)]
                           : job;
    schedule_arrival(m, job + 1); /* lazily: one pending arrival at a time */
    if (!m->broker_fed)
        send(m, job);
    else if (m->publish_us > 0)
        push(m, L_PUBLISH, m->publish_us, EV_AT_BROKER, job, 0, 0, 0);
    else
        to_broker(m, job);
}

static void on_timer(sim_model *m, uint32_t job, uint32_t try_no)
{
    uint16_t f = m->flags[job];
    if ((f & F_DONE) || !(f & F_WAITING) || m->cur_try[job] != try_no)
        return; /* answered, or an older try's timer */
    tr(m, SIM_TR_TIMEOUT, job, m->t.sender, m->t.handler, try_no);
    m->flags[job] &= (uint16_t)~F_WAITING;
    if (try_no >= m->tries)
        job_error(m, job);
    else if (m->broker_fed)
        to_broker(m, job); /* redelivery queues behind waiting messages */
    else
        send(m, job);
}

static void on_reply(sim_model *m, uint32_t job, uint32_t try_no)
{
    uint16_t f = m->flags[job];
    if ((f & F_DONE) || !(f & F_WAITING) || m->cur_try[job] != try_no)
        return; /* an older try's reply, or one after the timer: ignored */
    tr(m, SIM_TR_ACKED, job, m->t.sender, m->t.handler, try_no);
    m->flags[job] &= (uint16_t)~F_WAITING;
    job_success(m, job);
}

/* ------------------------------------------------------------ setup and run */

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
    reset_slots(m);
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

static void dispatch(sim_model *m, const sim_event *e)
{
    switch (event_kind(e)) {
    case EV_ARRIVE:
        on_arrive(m, e->job);
        break;
    case EV_AT_BROKER:
        to_broker(m, e->job);
        break;
    case EV_H_ARRIVE:
        on_h_arrive(m, e);
        break;
    case EV_H_LOCAL_DONE:
        on_local_done(m, e);
        break;
    case EV_H_CALL:
        on_h_call(m, e);
        break;
    case EV_P_CALL:
        on_p_call(m, e);
        break;
    case EV_H_CALL_OK:
        on_call_ok(m, e);
        break;
    case EV_H_CALL_FAILED:
        on_call_failed(m, e);
        break;
    case EV_H_CALL_TIMEOUT:
        on_call_timeout(m, e);
        break;
    case EV_H_RESTART:
        on_restart(m);
        break;
    case EV_S_REPLY:
        on_reply(m, e->job, e->arg);
        break;
    case EV_S_TIMER:
        on_timer(m, e->job, e->arg);
        break;
    default:
        break;
    }
}

int sim_model_run(sim_model *m, const sim_limits *lim, uint64_t seed, sim_trace_buf *trace,
                  sim_counts *out, char *msg, size_t n)
{
    reset(m, seed, trace);
    schedule_arrival(m, 0);
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
        dispatch(m, &e);
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

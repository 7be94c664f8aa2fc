/* model.c — the events of the delivery model of MODEL.md: the sender
 * (users or broker), the handler (consumer or service) and the payment
 * provider. State lives in struct sim_model (model.h); the run loop and the
 * measures are in model_run.c. */
#include "model.h"

#include <stdlib.h>

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

/* ------------------------------------------------------------ helpers */

static void push(sim_model *m, int lane, int64_t delay, unsigned kind, uint32_t job, uint32_t arg,
                 uint32_t gen, uint32_t slot_i)
{
    queue_push(&m->q, lane, m->now + delay, kind, job, arg, gen, slot_i);
}

static void trace_add(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer,
                      int64_t detail)
{
    sim_trace_buf *t = m->trace;
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

/* Record a trace entry, when the run keeps a trace (cheap when it does not). */
static inline void tr(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer,
                      int64_t detail)
{
    if (m->trace)
        trace_add(m, kind, job, part, peer, detail);
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

void model_reset_slots(sim_model *m)
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
    model_reset_slots(m);
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

void model_dispatch(sim_model *m, const sim_event *e)
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

void model_start(sim_model *m)
{
    schedule_arrival(m, 0);
}

/* model.c — the events of one hop of the delivery model of MODEL.md: the
 * sender (users or broker), the handler (consumer or service) and the
 * payment provider, for the first hop and, on a two-hop board, the second.
 * State lives in struct sim_model (model.h); the publishers and the outbox
 * are in model_pub.c, the setup, limits and measures in model_run.c; the
 * event loop is here, with the handlers it calls. */
#include "model.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static void ring_push(sim_model *m, ring *r, uint32_t job, uint32_t try_no)
{
    if (r->n == r->cap && !sim_ring_grow(&r->v, &r->head, r->n, &r->cap, sizeof *r->v, 64)) {
        m->oom = true;
        return;
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

bool model_key_live(const sim_model *m, int64_t rec, int64_t ttl)
{
    return rec != KEY_NONE && m->now - rec <= ttl;
}

/* Does the handler keep its own key record? */
static bool handler_checks(const sim_hop *h)
{
    return h->policy == SIM_IDEM_KEY_AFTER_EFFECT || h->policy == SIM_IDEM_KEY_IN_TRANSACTION ||
           h->policy == SIM_IDEM_BUSINESS_KEY || h->policy == SIM_IDEM_KEY_CLAIMED_FIRST;
}

/* Is the key recorded in the same commit as a local effect? */
static bool key_in_commit(const sim_hop *h)
{
    return h->policy == SIM_IDEM_KEY_IN_TRANSACTION || h->policy == SIM_IDEM_BUSINESS_KEY ||
           h->policy == SIM_IDEM_KEY_CLAIMED_FIRST;
}

/* Is that commit's insert of the key unique (a second commit conflicts)?
 * key-claimed-first inserted its key at the claim; its commit updates it. */
static bool unique_commit(const sim_hop *h)
{
    return h->policy == SIM_IDEM_KEY_IN_TRANSACTION || h->policy == SIM_IDEM_BUSINESS_KEY;
}

static uint32_t key_index(const sim_model *m, const sim_hop *h, uint32_t c)
{
    return h->policy == SIM_IDEM_BUSINESS_KEY ? bkey_of(m, job_of(h, c)) : msg_of(h, c);
}

/* The handler's check: a live record of this delivery's key. */
static inline bool seen(const sim_model *m, const sim_hop *h, uint32_t c)
{
    return handler_checks(h) && model_key_live(m, h->key_rec[key_index(m, h, c)], h->key_ttl_us);
}

bool model_reply_lost(sim_model *m, uint16_t *flags, uint16_t listed, double p, uint64_t who,
                      uint32_t what)
{
    return model_lro_take(flags, listed) || model_chance(m, who, what, p);
}

/* ------------------------------------------------------------ effects */

/* Apply the job's operation on copy c's try try_no; false when it changed
 * nothing (a repeated set). The trace entry names the try, negated for a
 * duplicate (sim_effect_try). */
static bool apply_effect(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no, int part, int peer)
{
    uint32_t job = job_of(h, c);
    if (m->op == SIM_OP_SET) {
        uint32_t k = bkey_of(m, job);
        if (h->jf[k] & F_KEY_SET)
            return false;
        h->jf[k] |= F_KEY_SET;
    }
    h->effects[job]++;
    trc(m, h, SIM_TR_EFFECT, c, part, peer,
        h->effects[job] > 1 ? -(int64_t)try_no : (int64_t)try_no);
    return true;
}

static void rollback(sim_model *m, sim_hop *h, uint32_t c, const local_change *ch)
{
    if (!ch || (!ch->effect && !ch->key && !ch->outbox))
        return;
    uint32_t job = job_of(h, c);
    if (ch->effect) {
        h->effects[job]--;
        if (m->op == SIM_OP_SET)
            h->jf[bkey_of(m, job)] &= (uint16_t)~F_KEY_SET;
    }
    if (ch->key)
        h->key_rec[ch->key_at] = ch->old_key;
    if (ch->outbox)
        pub_outbox_cancel(m, ch->outbox_entry);
    trc(m, h, SIM_TR_ROLLBACK, c, h->effect_part, -1, 0);
}

/* Record the handled key; a live record already there (a unique key) stays. */
static void record_key(sim_model *m, sim_hop *h, uint32_t c, local_change *ch)
{
    if (!handler_checks(h))
        return;
    uint32_t at = key_index(m, h, c);
    if (model_key_live(m, h->key_rec[at], h->key_ttl_us))
        return;
    ch->key = true;
    ch->key_at = at;
    ch->old_key = h->key_rec[at];
    h->key_rec[at] = m->now;
    trc(m, h, SIM_TR_RECORD_KEY, c, h->t.handler, -1, 0);
}

/* ------------------------------------------------------------ handler slots */

static void receive(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no, uint32_t s);
static void send(sim_model *m, sim_hop *h, uint32_t c);

static uint32_t take_slot(sim_hop *h, uint32_t c, uint32_t try_no)
{
    uint32_t s = h->free_slots[--h->n_free];
    if (h->n_free < h->low_free)
        h->low_free = h->n_free;
    slot *sl = &h->slots[s];
    sl->job = c;
    sl->try_no = try_no;
    sl->used = 1;
    sl->call_lost = CALL_SLOW;
    sl->pub_token = NO_TOKEN;
    sl->claimed_at = KEY_NONE;
    return s;
}

/* Move waiting deliveries into free slots: the broker sends, or the
 * service takes the next queued request. Not reentrant: a nested call (a
 * delivery that finishes at once) leaves the work to the outer loop. */
static void pump_waiting(sim_model *m, sim_hop *h)
{
    h->pumping = true;
    while (!h->down && h->n_free > 0 && h->waiting.n > 0 && !m->oom) {
        pending p = ring_pop(&h->waiting);
        if (h->broker_fed) {
            send(m, h, p.job);
        } else {
            uint32_t s = take_slot(h, p.job, p.try_no);
            receive(m, h, p.job, p.try_no, s);
        }
    }
    h->pumping = false;
}

static inline void pump(sim_model *m, sim_hop *h)
{
    if (!h->pumping && h->waiting.n > 0) /* else there is nothing to do here */
        pump_waiting(m, h);
}

#ifdef __wasm__
void model_push(sim_model *m, int lane, int64_t delay, unsigned kind, uint32_t job, uint32_t arg,
                uint32_t gen, uint32_t slot_i)
{
    queue_push(&m->q, lane, m->now + delay, kind, job, arg, gen, slot_i);
}
#endif

/* Call timeouts. A call's timeout is due call_timeout_us after the call,
 * but its response mostly comes first, and the delivery's slot is freed;
 * the timeout then finds a stale slot and does nothing. So the timeout is
 * not pushed at the call: its place in the queue's order is kept, and it is
 * pushed there, at its time, as soon as it could matter: at once when the
 * request is lost; when the provider takes the call and its response is
 * lost or would come no sooner than the timeout. Otherwise the response
 * comes first, and handling it always frees the slot (after_commit replies
 * or crashes, call_ended ends the delivery). A kept timeout whose slot is
 * freed (or whose handler crashes) is counted as the event it would have
 * been, so k.events is what it would be had it been pushed. */
static void drop_kept_timeout(sim_model *m, slot *sl)
{
    if (sl->timeout_at) {
        sl->timeout_at = 0;
        m->k.events++;
    }
}

static void push_kept_timeout(sim_model *m, sim_hop *h, uint32_t s)
{
    slot *sl = &h->slots[s];
    if (!sl->timeout_at)
        return;
    uint64_t next = m->q.next_seq;
    m->q.next_seq = sl->timeout_place; /* its kept place (queue_keep_place) */
    model_push(m, QUEUE_HEAP, sl->timeout_at - m->now, h->ev0 + EV_H_CALL_TIMEOUT, sl->job,
               sl->try_no, sl->gen, s);
    m->q.next_seq = next;
    sl->timeout_at = 0;
}

static void release_slot(sim_model *m, sim_hop *h, uint32_t s)
{
    drop_kept_timeout(m, &h->slots[s]);
    h->slots[s].used = 0;
    h->slots[s].gen++;
    h->free_slots[h->n_free++] = s;
    pump(m, h);
}

/* Slots are taken from the top of free_slots, which a reset leaves as
 * concurrency-1 ... 1 0, and given back there: the slots taken since the
 * last reset are 0 .. concurrency-low_free-1, and free_slots below
 * low_free still holds what the reset put there. Only those are reset (a
 * proof's run of three jobs on a handler of 32 slots resets three). An
 * untouched slot keeps its gen: no pending event holds it with that gen
 * (gens only grow, and only equality with an event's counts). */
void model_reset_slots(sim_hop *h)
{
    uint32_t c = h->concurrency, taken = c - h->low_free;
    for (uint32_t i = 0; i < taken; i++) {
        h->slots[i].used = 0;
        h->slots[i].gen++;
        h->slots[i].timeout_at = 0; /* a crash counted them (see "call timeouts") */
    }
    for (uint32_t i = h->low_free; i < c; i++)
        h->free_slots[i] = c - 1 - i; /* slot 0 is taken first */
    h->n_free = h->low_free = c;
}

static bool slot_valid(const sim_hop *h, const sim_event *e)
{
    return h->slots[e->slot].gen == e->gen;
}

/* The delivery is done: reply over the delivery link, free the slot. */
static void reply(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no, uint32_t s,
                  const local_change *ch)
{
    if (h->at_most_once) {
        model_copy_succeeded(m, h, c);
    } else {
        trc(m, h, SIM_TR_REPLY, c, h->t.handler, h->t.sender, try_no);
        if (model_lro_take(&h->jf[job_of(h, c)], F_LRO_DELIVERY) ||
            hop_chance(m, h, c, try_no, h->d0 + D_REPLY_LOST, h->lose_reply)) {
            trc(m, h, SIM_TR_LOST_REPLY, c, h->t.handler, h->t.sender, try_no);
            if (h->transactional && ch) { /* the receive never committed */
                rollback(m, h, c, ch);
                pub_token_ghost(m, h->slots[s].pub_token);
            }
        } else {
            model_push(m, h->lane0 + L_REPLY, h->reply_us, h->ev0 + EV_S_REPLY, c, try_no, 0, 0);
        }
    }
    release_slot(m, h, s);
}

/* The delivery ends with no reply (held, failed or lost call). */
static void end_without_reply(sim_model *m, sim_hop *h, uint32_t c, uint32_t s)
{
    if (h->at_most_once)
        model_copy_dropped(m, h, c, h->t.handler);
    release_slot(m, h, s);
}

/* A failed or lost call: the handler gives its claim back (it is alive to
 * do so) and an event it published first has no commit behind it. */
static void call_ended(sim_model *m, sim_hop *h, uint32_t c, uint32_t s)
{
    slot *sl = &h->slots[s];
    if (h->policy == SIM_IDEM_KEY_CLAIMED_FIRST && sl->claimed_at != KEY_NONE &&
        h->claim_us[msg_of(h, c)] == sl->claimed_at)
        h->claim_us[msg_of(h, c)] = KEY_NONE;
    pub_token_ghost(m, sl->pub_token);
    end_without_reply(m, h, c, s);
}

/* The handler dies while slot s works on copy c. undo: its local change
 * rolls back; committed: its commit stood (else an event it published
 * first is a ghost). Every other delivery in the process is abandoned
 * before its commit. */
static void crash(sim_model *m, sim_hop *h, uint32_t c, uint32_t s, const local_change *ch,
                  bool undo, bool committed)
{
    trc(m, h, SIM_TR_CRASH, c, h->t.handler, -1, 0);
    uint32_t taken = h->concurrency - h->low_free; /* the others are free (model_reset_slots) */
    if (undo)
        rollback(m, h, c, ch);
    if (h->publishes)
        for (uint32_t i = 0; i < taken; i++)
            if (h->slots[i].used && (i != s || !committed))
                pub_token_ghost(m, h->slots[i].pub_token);
    if (h->at_most_once)
        for (uint32_t i = 0; i < taken; i++)
            if (h->slots[i].used)
                model_copy_dropped(m, h, h->slots[i].job, h->t.handler);
    for (uint32_t i = 0; i < taken; i++)
        drop_kept_timeout(m, &h->slots[i]);
    model_reset_slots(h);
    h->down = true;
    h->epoch++;
    if (!h->broker_fed) { /* requests queued in the process die with it */
        h->waiting.n = 0;
        h->waiting.head = 0;
    }
    model_push(m, QUEUE_HEAP, h->restart_us, h->ev0 + EV_H_RESTART, 0, 0, 0, 0);
}

/* The commit stood: the crash after it, the event published after it,
 * the reply. */
static void after_commit(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no, uint32_t s,
                         const local_change *ch)
{
    if (hop_chance(m, h, c, try_no, h->d0 + D_CRASH_COMMIT, h->crash_commit_p)) {
        crash(m, h, c, s, ch, h->transactional, !h->transactional);
        return;
    }
    if (h->publishes && h->publish == SIM_PUBLISH_AFTER_COMMIT)
        pub_event(m, h, c, s);
    reply(m, h, c, try_no, s, ch);
}

/* ------------------------------------------------------------ handler events */

/* The local write of copy c's try (the database's latency; 0 without one). */
static int64_t write_time(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no)
{
    return hop_duration(m, h, AHEAD_WRITE, &h->write, h->d0 + D_WRITE, c, try_no);
}

static void receive(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no, uint32_t s)
{
    uint32_t job = job_of(h, c);
    if (h->index == 0)
        m->k.deliveries++;
    else
        m->k.downstream_deliveries++;
    trc(m, h, SIM_TR_RECEIVE, c, h->t.handler, h->t.sender, try_no);
    if (h->index == 1) { /* what the second hop's measures count */
        h->mflags[c] |= F_RECEIVED;
        h->jf[job] |= F_REACHED;
        h->jf[bkey_of(m, job)] |= F_BKEY_REACHED;
    }
    if (seen(m, h, c)) {
        trc(m, h, SIM_TR_SKIP, c, h->t.handler, -1, 0);
        reply(m, h, c, try_no, s, NULL);
        return;
    }
    if (h->policy == SIM_IDEM_KEY_CLAIMED_FIRST) {
        uint32_t at = msg_of(h, c);
        if (model_key_live(m, h->claim_us[at], h->lease_us)) {
            /* another delivery holds the claim: leave the message to its
             * sender's next try */
            trc(m, h, SIM_TR_HELD, c, h->t.handler, -1, 0);
            m->k.held++;
            end_without_reply(m, h, c, s);
            return;
        }
        h->claim_us[at] = m->now;
        h->slots[s].claimed_at = m->now;
        trc(m, h, SIM_TR_CLAIM, c, h->t.handler, -1, 0);
    }
    int64_t w = hop_duration(m, h, AHEAD_WORK, &h->work, h->d0 + D_WORK, c, try_no);
    uint32_t gen = h->slots[s].gen;
    if ((m->hop[0].jf[job] & F_POISON) ||
        hop_chance(m, h, c, try_no, h->d0 + D_HANDLER_FAIL, h->handler_fail_p))
        model_push(m, QUEUE_HEAP, w, h->ev0 + EV_H_FAILED, c, try_no, gen, s);
    else if (h->external)
        model_push(m, h->work_lane, w, h->ev0 + EV_H_CALL, c, try_no, gen, s);
    else if (h->publishes && h->publish == SIM_PUBLISH_BEFORE_COMMIT)
        model_push(m, h->work_lane, w, h->ev0 + EV_H_WORK_DONE, c, try_no, gen, s);
    else
        model_push(m, h->work_lane, w + write_time(m, h, c, try_no), h->ev0 + EV_H_LOCAL_DONE, c,
                   try_no, gen, s);
}

/* before-commit, local effect: the work is done; the event goes out now,
 * so it is a ghost if anything ends the attempt during the write. */
static void on_work_done(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    pub_event(m, h, e->job, e->slot);
    model_push(m, h->write_lane, write_time(m, h, e->job, e->arg), h->ev0 + EV_H_LOCAL_DONE, e->job,
               e->arg, e->gen, e->slot);
}

static void on_h_arrive(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (h->broker_fed) {
        if (slot_valid(h, e)) /* else the handler crashed while it was in transit */
            receive(m, h, e->job, e->arg, e->slot);
        return;
    }
    if (h->down) {
        trc(m, h, SIM_TR_LOST_REQUEST, e->job, h->t.sender, h->t.handler, e->arg);
        return;
    }
    if (h->n_free > 0 && h->waiting.n == 0)
        receive(m, h, e->job, e->arg, take_slot(h, e->job, e->arg));
    else
        ring_push(m, &h->waiting, e->job, e->arg);
}

static void on_local_done(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    uint32_t c = e->job, s = e->slot;
    if (unique_commit(h) && seen(m, h, c)) {
        /* another delivery committed the key first: this commit conflicts
         * (an event sent first describes a change that was made) */
        h->slots[s].pub_token = NO_TOKEN;
        trc(m, h, SIM_TR_SKIP, c, h->t.handler, -1, 0);
        reply(m, h, c, e->arg, s, NULL);
        return;
    }
    local_change ch = {0};
    ch.effect = apply_effect(m, h, c, e->arg, h->effect_part, h->effect_peer);
    if (h->publishes && h->publish == SIM_PUBLISH_OUTBOX)
        pub_outbox_write(m, h, c, &ch);
    if (hop_chance(m, h, c, e->arg, h->d0 + D_CRASH, h->crash_p)) {
        bool undo = key_in_commit(h) || h->transactional;
        crash(m, h, c, s, &ch, undo, !undo);
        return;
    }
    record_key(m, h, c, &ch);
    after_commit(m, h, c, e->arg, s, &ch);
}

static void on_h_call(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    if (h->publishes && h->publish == SIM_PUBLISH_BEFORE_COMMIT)
        pub_event(m, h, e->job, e->slot);
    trc(m, h, SIM_TR_CALL, e->job, h->t.handler, h->t.provider, 0);
    slot *sl = &h->slots[e->slot];
    /* kept, not pushed, when the provider takes the call before it is due
     * (see "call timeouts") */
    int64_t due = m->now + h->call_timeout_us;
    if (h->call_us < h->call_timeout_us && due <= TIME_HORIZON_US) {
        sl->timeout_at = due;
        sl->timeout_place = queue_keep_place(&m->q);
    } else {
        model_push(m, h->lane0 + L_CALL_TIMEOUT, h->call_timeout_us, h->ev0 + EV_H_CALL_TIMEOUT,
                   e->job, e->arg, e->gen, e->slot);
    }
    if (hop_chance(m, h, e->job, e->arg, h->d0 + D_CALL_LOST, h->call_lose_request)) {
        sl->call_lost = CALL_REQUEST_LOST;
        push_kept_timeout(m, h, e->slot);
    } else {
        model_push(m, h->lane0 + L_CALL, h->call_us, h->ev0 + EV_P_CALL, e->job, e->arg, e->gen,
                   e->slot);
    }
}

/* The provider takes a call. It runs whatever happened to the handler. */
static void on_p_call(sim_model *m, sim_hop *h, const sim_event *e)
{
    uint32_t c = e->job, msg = msg_of(h, c);
    bool ok = true;
    int p = h->t.provider, hd = h->t.handler;
    if (h->policy == SIM_IDEM_PROVIDER_KEY &&
        model_key_live(m, h->key_rec[msg], h->provider_ttl_us)) {
        trc(m, h, SIM_TR_PROVIDER_SKIP, c, p, hd, 0);
    } else if (hop_chance(m, h, c, e->arg, h->d0 + D_FAIL, h->fail_p)) {
        trc(m, h, SIM_TR_CALL_FAILED, c, p, hd, 0);
        ok = false;
    } else {
        apply_effect(m, h, c, e->arg, p, hd);
        if (h->policy == SIM_IDEM_PROVIDER_KEY)
            h->key_rec[msg] = m->now;
    }
    int64_t busy = hop_duration(m, h, AHEAD_CALL, &h->call, h->d0 + D_CALL_TIME, c, e->arg);
    if (model_lro_take(&h->jf[job_of(h, c)], F_LRO_CALL) ||
        hop_chance(m, h, c, e->arg, h->d0 + D_CALL_REPLY_LOST, h->call_lose_reply)) {
        if (slot_valid(h, e)) {
            h->slots[e->slot].call_lost = CALL_RESPONSE_LOST;
            push_kept_timeout(m, h, e->slot);
        }
        return;
    }
    /* a response at the timeout's time comes after it (it is pushed later) */
    if (slot_valid(h, e) && m->now + busy + h->call_reply_us >= h->slots[e->slot].timeout_at)
        push_kept_timeout(m, h, e->slot);
    model_push(m, h->call_reply_lane, busy + h->call_reply_us,
               h->ev0 + (ok ? EV_H_CALL_OK : EV_H_CALL_FAILED), c, e->arg, e->gen, e->slot);
}

static void on_call_ok(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    uint32_t c = e->job, s = e->slot;
    if (hop_chance(m, h, c, e->arg, h->d0 + D_CRASH, h->crash_p)) {
        crash(m, h, c, s, NULL, false, false); /* the call is made; nothing local to undo */
        return;
    }
    local_change ch = {0};
    record_key(m, h, c, &ch);
    if (h->publishes && h->publish == SIM_PUBLISH_OUTBOX)
        pub_outbox_write(m, h, c, &ch);
    after_commit(m, h, c, e->arg, s, &ch);
}

static void on_call_failed(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (slot_valid(h, e))
        call_ended(m, h, e->job, e->slot);
}

/* The handler failed the delivery after its work (fail, or a poison
 * message): as a failed call, no effect and no reply. */
static void on_failed(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    trc(m, h, SIM_TR_FAILED, e->job, h->t.handler, -1,
        (m->hop[0].jf[job_of(h, e->job)] & F_POISON) != 0);
    call_ended(m, h, e->job, e->slot);
}

static void on_call_timeout(sim_model *m, sim_hop *h, const sim_event *e)
{
    if (!slot_valid(h, e))
        return;
    trc(m, h, SIM_TR_CALL_LOST, e->job, h->t.handler, h->t.provider, h->slots[e->slot].call_lost);
    call_ended(m, h, e->job, e->slot);
}

static void on_restart(sim_model *m, sim_hop *h)
{
    h->down = false;
    tr(m, SIM_TR_RESTART, NO_JOB, h->t.handler, -1, 0);
    pump(m, h);
}

/* ------------------------------------------------------------ sender events */

/* How long the sender waits for try try_no's reply: the first wait, times
 * the back-off factor for each try before, at most the cap; with jitter a
 * uniform draw below that (MODEL.md "Back-off"). */
static int64_t timer_of(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no)
{
    double d = (double)h->timer_us, cap = (double)h->backoff_max_us;
    for (uint32_t k = 1; k < try_no && h->backoff_factor > 1 && d < cap; k++)
        d *= h->backoff_factor;
    d = d < cap ? d : cap;
    if (h->jitter)
        d *= model_unit(m, copy_who(h, c, try_no), h->d0 + D_JITTER);
    return (int64_t)(d + 0.5);
}

static void send(sim_model *m, sim_hop *h, uint32_t c)
{
    uint32_t try_no = ++h->cur_try[c];
    trc(m, h, SIM_TR_SEND, c, h->t.sender, h->t.handler, try_no);
    if (try_no == 1 && h->first_us)
        h->first_us[c] = m->now;
    if (!h->at_most_once) {
        *mflags_of(h, c) |= F_WAITING;
        model_push(m, h->lane0 + L_TIMER, timer_of(m, h, c, try_no), h->ev0 + EV_S_TIMER, c,
                   try_no, 0, 0);
    }
    if (hop_chance(m, h, c, try_no, h->d0 + D_SEND_LOST, h->lose_request)) {
        trc(m, h, SIM_TR_LOST_REQUEST, c, h->t.sender, h->t.handler, try_no);
        if (h->at_most_once)
            model_copy_dropped(m, h, c, h->t.sender);
        return;
    }
    uint32_t s = 0, gen = 0;
    if (h->broker_fed) { /* prefetch: the delivery holds its slot from now */
        s = take_slot(h, c, try_no);
        gen = h->slots[s].gen;
    }
    model_push(m, h->lane0 + L_DELIVER, h->deliver_us, h->ev0 + EV_H_ARRIVE, c, try_no, gen, s);
}

void model_to_broker(sim_model *m, sim_hop *h, uint32_t c)
{
    if (h->waiting.n == 0 && !h->pumping && !h->down && h->n_free > 0 && !m->oom) {
        /* what pump would do with c alone in the queue, without the queue */
        h->pumping = true;
        send(m, h, c);
        h->pumping = false;
    } else {
        ring_push(m, &h->waiting, c, 0);
    }
    pump(m, h);
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
        m->arrival_clock += model_gap(m, job, (double)m->over_us / (double)m->jobs);
        t = (int64_t)(m->arrival_clock + 0.5);
    }
    model_push(m, L_ARRIVAL, t - m->now, EV_ARRIVE, job, 0, 0, 0);
}

static void on_arrive(sim_model *m, uint32_t job)
{
    sim_hop *h = &m->hop[0];
    m->at_us[job] = m->now;
    if (job == 0)
        m->k.first_arrival_us = m->now;
    tr(m, SIM_TR_ARRIVE, job, m->t.users, -1, 0);
    if (model_chance(m, job, D_POISON, m->poison))
        h->jf[job] |= F_POISON;
    if (m->bkey)
        m->bkey[job] = job > 0 && model_chance(m, job, D_REPEAT, m->repeat_share)
                           ? m->bkey[model_below(m, job, D_REPEAT_OF, job)]
                           : job;
    schedule_arrival(m, job + 1); /* lazily: one pending arrival at a time */
    if (!h->broker_fed)
        send(m, h, job);
    else if (m->pub_model)
        pub_publish(m, job);
    else if (m->publish_us > 0)
        model_push(m, h->lane0 + L_PUBLISH, m->publish_us, EV_AT_BROKER, job, 0, 0, 0);
    else
        model_to_broker(m, h, job);
}

static void on_timer(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no)
{
    uint16_t *f = mflags_of(h, c);
    if (!(*f & F_WAITING) || h->cur_try[c] != try_no)
        return; /* answered, or an older try's timer */
    trc(m, h, SIM_TR_TIMEOUT, c, h->t.sender, h->t.handler, try_no);
    *f &= (uint16_t)~F_WAITING;
    if (try_no >= h->tries)
        model_copy_gave_up(m, h, c);
    else if (h->broker_fed)
        model_to_broker(m, h, c); /* redelivery queues behind waiting messages */
    else
        send(m, h, c);
}

static void on_reply(sim_model *m, sim_hop *h, uint32_t c, uint32_t try_no)
{
    uint16_t *f = mflags_of(h, c);
    if (!(*f & F_WAITING) || h->cur_try[c] != try_no)
        return; /* an older try's reply, or one after the timer: ignored */
    trc(m, h, SIM_TR_ACKED, c, h->t.sender, h->t.handler, try_no);
    *f &= (uint16_t)~F_WAITING;
    model_copy_succeeded(m, h, c);
}

static void dispatch_hop(sim_model *m, sim_hop *h, unsigned kind, const sim_event *e)
{
    switch (kind) {
    case EV_AT_BROKER:
        if (h->index == 0 && !m->pub_model)
            model_to_broker(m, h, e->job);
        else
            pub_at_broker(m, h, e);
        break;
    case EV_H_ARRIVE:
        on_h_arrive(m, h, e);
        break;
    case EV_H_WORK_DONE:
        on_work_done(m, h, e);
        break;
    case EV_H_LOCAL_DONE:
        on_local_done(m, h, e);
        break;
    case EV_H_CALL:
        on_h_call(m, h, e);
        break;
    case EV_P_CALL:
        on_p_call(m, h, e);
        break;
    case EV_H_CALL_OK:
        on_call_ok(m, h, e);
        break;
    case EV_H_CALL_FAILED:
        on_call_failed(m, h, e);
        break;
    case EV_H_CALL_TIMEOUT:
        on_call_timeout(m, h, e);
        break;
    case EV_H_RESTART:
        on_restart(m, h);
        break;
    case EV_S_REPLY:
        on_reply(m, h, e->job, e->arg);
        break;
    case EV_S_TIMER:
        on_timer(m, h, e->job, e->arg);
        break;
    case EV_H_FAILED:
        on_failed(m, h, e);
        break;
    default:
        break;
    }
}

static void dispatch(sim_model *m, const sim_event *e)
{
#ifndef SIM_REPLAY_ONLY /* the WebAssembly module replays, never proves */
    if (m->drive && m->drive->at_event && m->drive->at_event(m->drive->ctx, m, e)) {
        queue_clear(&m->q); /* a proof ends the run here (choice.h) */
        return;
    }
#endif
    unsigned kind = event_kind(e);
    if (kind < SIM_MAX_HOPS * EV_HOP_STRIDE) {
        dispatch_hop(m, &m->hop[kind / EV_HOP_STRIDE], kind % EV_HOP_STRIDE, e);
        return;
    }
    switch (kind) {
    case EV_ARRIVE:
        on_arrive(m, e->job);
        break;
    case EV_PUB_CONFIRM:
        pub_on_confirm(m, e->job, e->arg);
        break;
    case EV_PUB_TIMER:
        pub_on_timer(m, e->job, e->arg);
        break;
    case EV_RELAY:
        pub_on_relay(m);
        break;
    case EV_RELAY_CONFIRM:
        pub_on_relay_confirm(m, e);
        break;
    default:
        break;
    }
}

void model_start(sim_model *m)
{
    schedule_arrival(m, 0);
}

/* Here, beside the handlers, so that the dispatch is inlined into the loop
 * (a call per event cost its saving and restoring of registers). */
model_stop model_events(sim_model *m, int64_t max_events)
{
    sim_event e;
    while (queue_pop(&m->q, &e)) {
        if (++m->k.events > max_events)
            return MODEL_STOP_EVENTS;
        if (e.t_us > TIME_HORIZON_US)
            return MODEL_STOP_TIME;
        m->now = e.t_us;
        dispatch(m, &e);
        if (m->oom || m->q.oom)
            return MODEL_STOP_MEMORY;
    }
    return MODEL_STOP_DONE;
}

/* model_pub.c — how messages get into a broker (MODEL.md "The publisher",
 * "Two hops"): the users publishing with confirms and retries, a broker's
 * intake with its de-duplication window, the first handler's event publish
 * (before or after its commit) and its outbox relay, and the copies and
 * message IDs these make. */
#include "model.h"

#include <stdlib.h>

/* Grow the array p (if the hop keeps it) to cap elements; clears ok when
 * memory runs out. */
#define GROW(p, cap, ok)                                                                           \
    do {                                                                                           \
        if ((p) && !sim_resize(&(p), (cap), sizeof *(p)))                                          \
            ok = false;                                                                            \
    } while (0)

static bool grow_copies(sim_model *m, sim_hop *h)
{
    size_t cap = h->cap_copies * 2;
    bool ok = true;
    GROW(h->copy_job, cap, ok);
    GROW(h->copy_msg, cap, ok);
    GROW(h->copy_pub, cap, ok);
    GROW(h->copy_no, cap, ok);
    GROW(h->cur_try, cap, ok);
    GROW(h->mflags, cap, ok);
    GROW(h->first_us, cap, ok);
    if (!ok) {
        m->oom = true;
        return false;
    }
    h->cap_copies = cap;
    return true;
}

uint32_t model_new_copy(sim_model *m, sim_hop *h, uint32_t job, uint32_t msg, uint32_t token)
{
    uint32_t c;
    if (!(h->jf[job] & F_FIRST_COPY)) {
        h->jf[job] |= F_FIRST_COPY;
        c = job;
    } else {
        if (h->n_copies >= NO_JOB || (h->n_copies == h->cap_copies && !grow_copies(m, h))) {
            m->oom = true;
            return NO_JOB;
        }
        c = (uint32_t)h->n_copies++;
    }
    if (h->copy_job)
        h->copy_job[c] = job;
    if (h->copy_msg)
        h->copy_msg[c] = msg;
    if (h->copy_pub)
        h->copy_pub[c] = token;
    if (h->copy_no) {
        h->copy_no[c] = h->n_copied[job];
        if (h->n_copied[job] < UINT16_MAX)
            h->n_copied[job]++;
    }
    h->cur_try[c] = 0;
    if (h->mflags)
        h->mflags[c] = 0;
    if (h->live)
        h->live[job]++;
    return c;
}

bool model_ensure_ids(sim_model *m, sim_hop *h, size_t n)
{
    if (n <= h->n_ids)
        return true;
    if (n > h->cap_ids) {
        size_t cap = h->cap_ids * 2 > n ? h->cap_ids * 2 : n;
        bool ok = true;
        GROW(h->key_rec, cap, ok);
        GROW(h->claim_us, cap, ok);
        GROW(h->seen_us, cap, ok);
        if (!ok) {
            m->oom = true;
            return false;
        }
        h->cap_ids = cap;
    }
    for (size_t i = h->n_ids; i < n; i++) {
        if (h->key_rec)
            h->key_rec[i] = KEY_NONE;
        if (h->claim_us)
            h->claim_us[i] = KEY_NONE;
        if (h->seen_us)
            h->seen_us[i] = KEY_NONE;
    }
    h->n_ids = n;
    return true;
}

/* ------------------------------------------------------------ the users */

void pub_publish(sim_model *m, uint32_t job)
{
    sim_hop *h = &m->hop[0];
    uint32_t try_no = ++m->pub_try[job];
    uint32_t msg = job;
    if (m->message_id == SIM_MESSAGE_ID_PER_PUBLISH && try_no > 1) {
        if (m->next_msg_id >= NO_JOB) {
            m->oom = true;
            return;
        }
        msg = m->next_msg_id++;
        if (!model_ensure_ids(m, h, (size_t)msg + 1))
            return;
    }
    m->k.publishes++;
    tr(m, SIM_TR_PUBLISH, job, m->t.users, h->t.broker, try_no);
    m->pub_flags[job] |= P_WAITING;
    model_push(m, L_PUB_TIMER, m->pub_timeout_us, EV_PUB_TIMER, job, try_no, 0, 0);
    if (model_chance(m, who_of(job, 0, try_no), D_PUBLISH_LOST, m->pub_lose_request)) {
        tr(m, SIM_TR_LOST_REQUEST, job, m->t.users, h->t.broker, try_no);
        return;
    }
    model_push(m, h->lane0 + L_PUBLISH, m->publish_us, h->ev0 + EV_AT_BROKER, job, try_no, msg, 0);
}

void pub_on_confirm(sim_model *m, uint32_t job, uint32_t try_no)
{
    uint16_t *f = &m->pub_flags[job];
    if (!(*f & P_WAITING) || m->pub_try[job] != try_no)
        return; /* an older publish's confirm, or one after the timeout */
    tr(m, SIM_TR_CONFIRM, job, m->t.users, m->hop[0].t.broker, try_no);
    *f = (uint16_t)((*f & ~P_WAITING) | P_DONE);
    model_job_settle(m, job);
}

void pub_on_timer(sim_model *m, uint32_t job, uint32_t try_no)
{
    uint16_t *f = &m->pub_flags[job];
    if (!(*f & P_WAITING) || m->pub_try[job] != try_no)
        return;
    int broker = m->hop[0].t.broker;
    tr(m, SIM_TR_TIMEOUT, job, m->t.users, broker, try_no);
    *f &= (uint16_t)~P_WAITING;
    if (try_no >= m->pub_tries) {
        tr(m, SIM_TR_GIVE_UP, job, m->t.users, broker, try_no);
        *f |= P_DONE;
        model_job_error(m, job); /* the user is told it failed */
    } else {
        pub_publish(m, job);
    }
}

/* ------------------------------------------------------------ a broker's intake */

void pub_at_broker(sim_model *m, sim_hop *h, const sim_event *e)
{
    uint32_t job = e->job;
    /* first hop: arg = publish try, gen = message ID; second hop: arg = the
     * relay's outbox entry + 1 (0 inline), gen = the handler's epoch, slot =
     * the publish token; the event's ID is the job's */
    bool first = h->index == 0;
    uint32_t msg = first ? e->gen : job;
    int broker = h->t.broker, from = first ? m->t.users : m->hop[0].t.handler;
    if (h->dedup_window_us > 0 && model_key_live(m, h->seen_us[msg], h->dedup_window_us)) {
        tr(m, SIM_TR_DEDUP, job, broker, from, (int64_t)msg + 1);
        m->k.dedup_drops++;
    } else {
        if (h->dedup_window_us > 0)
            h->seen_us[msg] = m->now;
        uint32_t c = model_new_copy(m, h, job, msg, first || e->arg > 0 ? NO_TOKEN : e->slot);
        if (c == NO_JOB)
            return;
        if (first)
            m->k.copies++;
        trc(m, h, SIM_TR_ACCEPT, c, broker, from, (int64_t)msg + 1);
        model_to_broker(m, h, c);
    }
    if (first) {
        if (model_reply_lost(m, &m->pub_flags[job], P_LRO, m->pub_lose_reply,
                             who_of(job, 0, e->arg), D_CONFIRM_LOST))
            tr(m, SIM_TR_LOST_REPLY, job, broker, from, e->arg);
        else
            model_push(m, L_PUB_CONFIRM, m->confirm_us, EV_PUB_CONFIRM, job, e->arg, 0, 0);
    } else if (e->arg > 0) { /* the relay waits for a confirm */
        const sim_hop *h0 = &m->hop[0];
        if (model_reply_lost(m, &m->pub_flags[job], P_LRO_EVENT, h0->event_lose_reply,
                             (uint64_t)job | (uint64_t)e->slot << 32, D_RELAY_CONFIRM_LOST))
            tr(m, SIM_TR_LOST_REPLY, job, broker, from, 1);
        else
            model_push(m, L_RELAY_CONFIRM, h0->event_confirm_us, EV_RELAY_CONFIRM, job, e->arg,
                       e->gen, 0);
    }
}

/* ------------------------------------------------------------ the first handler's event */

static uint32_t new_token(sim_model *m)
{
    if (m->n_tokens == m->cap_tokens &&
        (m->n_tokens >= NO_JOB ||
         !sim_grow(&m->token_ghost, &m->cap_tokens, sizeof *m->token_ghost, 256))) {
        m->oom = true;
        return NO_TOKEN;
    }
    m->token_ghost[m->n_tokens] = 0;
    return (uint32_t)m->n_tokens++;
}

void pub_token_ghost(sim_model *m, uint32_t token)
{
    if (token != NO_TOKEN)
        m->token_ghost[token] = 1;
}

/* Send job's event to the second broker (detail 0 inline, 1 the relay);
 * its loss is drawn at (who, what). The relay's publishes carry their
 * number n in the slot field instead of a token, for the confirm's draw. */
static void send_event(sim_model *m, sim_hop *h, uint32_t job, int copy, uint32_t entry,
                       uint32_t token, uint64_t who, uint32_t what)
{
    const sim_hop *n = &m->hop[1];
    int64_t detail = entry > 0;
    m->k.events_published++;
    if (m->trace)
        model_trace(m, SIM_TR_PUBLISH, job, h->t.handler, n->t.broker, detail, copy);
    if (model_chance(m, who, what, h->event_lose_request)) {
        if (m->trace)
            model_trace(m, SIM_TR_LOST_REQUEST, job, h->t.handler, n->t.broker, detail, copy);
        return;
    }
    model_push(m, n->lane0 + L_PUBLISH, h->event_us, n->ev0 + EV_AT_BROKER, job, entry, h->epoch,
               token);
}

void pub_event(sim_model *m, sim_hop *h, uint32_t c, uint32_t s)
{
    uint32_t token = new_token(m);
    if (token == NO_TOKEN)
        return;
    h->slots[s].pub_token = token;
    send_event(m, h, job_of(h, c), h->copy_no ? h->copy_no[c] : 0, 0, token,
               copy_who(h, c, h->slots[s].try_no), D_EVENT_LOST);
}

/* The relay polls at whole multiples of relay_every. A poll reads the
 * outbox as it stood when its microsecond began, whichever of the poll and
 * a commit in that microsecond the queue takes first (MODEL.md "Two hops"). */
static void schedule_relay(sim_model *m)
{
    if (m->relay_scheduled)
        return;
    int64_t every = m->hop[0].relay_every_us;
    int64_t next = (m->now / every + 1) * every;
    model_push(m, QUEUE_HEAP, next - m->now, EV_RELAY, 0, 0, 0, 0);
    m->relay_scheduled = true;
}

static bool grow_outbox(sim_model *m)
{
    if (m->ob_n == m->ob_cap) {
        size_t cap = sim_grown_cap(m->ob_cap, 256);
        if (m->ob_n >= NO_JOB - 1 || !sim_resize(&m->ob_job, cap, sizeof *m->ob_job) ||
            !sim_resize(&m->ob_at, cap, sizeof *m->ob_at) ||
            !sim_resize(&m->ob_state, cap, sizeof *m->ob_state))
            return false;
        m->ob_cap = cap;
    }
    return m->ob_pn < m->ob_pcap ||
           sim_grow(&m->ob_pending, &m->ob_pcap, sizeof *m->ob_pending, 256);
}

void pub_outbox_write(sim_model *m, sim_hop *h, uint32_t c, local_change *ch)
{
    if (!grow_outbox(m)) {
        m->oom = true;
        return;
    }
    uint32_t entry = (uint32_t)m->ob_n++;
    m->ob_job[entry] = job_of(h, c);
    m->ob_at[entry] = m->now;
    m->ob_state[entry] = OB_PENDING;
    m->ob_pending[m->ob_pn++] = entry;
    ch->outbox = true;
    ch->outbox_entry = entry;
    trc(m, h, SIM_TR_OUTBOX, c, h->effect_part, -1, 0);
    schedule_relay(m);
}

void pub_outbox_cancel(sim_model *m, uint32_t entry)
{
    m->ob_state[entry] = OB_CANCELLED;
}

void pub_on_relay(sim_model *m)
{
    sim_hop *h = &m->hop[0];
    m->relay_scheduled = false;
    size_t kept = 0;
    for (size_t i = 0; i < m->ob_pn; i++) /* drop confirmed and rolled-back entries */
        if (m->ob_state[m->ob_pending[i]] == OB_PENDING)
            m->ob_pending[kept++] = m->ob_pending[i];
    m->ob_pn = kept;
    if (kept == 0)
        return;
    if (!h->down) /* the relay runs in the handler's process */
        for (size_t i = 0; i < kept; i++) {
            uint32_t entry = m->ob_pending[i], job = m->ob_job[entry];
            if (m->ob_at[entry] == m->now)
                continue; /* committed in the poll's microsecond: the next poll's */
            uint32_t n = ++m->relay_sent[job]; /* the job's n-th relay publish */
            send_event(m, h, job, 0, entry + 1, n, (uint64_t)job | (uint64_t)n << 32, D_RELAY_LOST);
        }
    schedule_relay(m);
}

void pub_on_relay_confirm(sim_model *m, const sim_event *e)
{
    const sim_hop *h = &m->hop[0];
    if (h->down || e->gen != h->epoch)
        return; /* the process that sent it has died since */
    uint32_t entry = e->arg - 1;
    if (m->ob_state[entry] != OB_PENDING)
        return;
    m->ob_state[entry] = OB_SENT_OK;
    tr(m, SIM_TR_CONFIRM, e->job, h->t.handler, m->hop[1].t.broker, 1);
}

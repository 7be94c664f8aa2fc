/* model_state.c — the fingerprint of a model between two events: what the
 * rest of a run depends on, so that a proof counts the runs from a state it
 * has met before instead of running them again (proof.c, MODEL.md
 * "Proofs"). */
#include "model.h"

#include <string.h>

/* The fields of the state, each hashed below or left out for a reason
 * (tests/check_state.py reads this list and the structs' headers: a field
 * in neither fails make check). What decides the rest of a run from here
 * is what a later event, a fault count or a measure a proof takes
 * (sim_measure_rate_kind) reads; a driven run draws no random number.
 *
 * [sim_model] hashed: hop pub_try pub_flags next_msg_id n_tokens token_ghost
 *     ob_n ob_job ob_state ob_pending ob_pn relay_sent relay_scheduled bkey q k
 *     now arrival_clock oom.
 * [sim_model] board: b t jobs n_hops op arrivals over_us repeat_share poison
 *     publish_us pub_model message_id pub_tries pub_timeout_us confirm_us
 *     pub_lose_request pub_lose_reply. The same in every run of a proof.
 * [sim_model] room: cap_tokens ob_cap ob_pcap dl_cap.
 * [sim_model] left out: ob_at. Only whether it is now: a record is never
 *     committed later than now, and the relay reads its time only to skip
 *     one of the poll's own microsecond (pub_on_relay); the poll's time is
 *     hashed with the events.
 * [sim_model] left out: at_us. Arrival times, then latencies: only the
 *     tally's latency percentiles read them, no measure of a proof.
 * [sim_model] left out: dl_us dl_n. A dead letter's time: only the tally's
 *     dead-letter time reads them, no measure of a proof (the count is
 *     k.dead_lettered).
 * [sim_model] left out: key. The replication's stream: a driven run takes
 *     every draw from its choices (model_unit, model_gap, model_below,
 *     model_hop_draw).
 * [sim_model] left out: trace. Written, never read by the model.
 * [sim_model] left out: drive. Where the run is in its choices: a state is
 *     looked up only past the choice its run changed, where every later
 *     choice is each option in turn (proof.c).
 *
 * [sim_hop] hashed: copy_job copy_msg copy_pub copy_no cur_try mflags
 *     n_copies key_rec claim_us seen_us n_ids effects jf live n_copied slots
 *     free_slots n_free low_free down pumping waiting.
 * [sim_hop] board: index t broker_fed at_most_once external transactional
 *     policy tries timer_us deliver_us reply_us backoff_factor backoff_max_us
 *     jitter call_us call_reply_us call_timeout_us restart_us key_ttl_us
 *     provider_ttl_us lease_us dedup_window_us lose_request lose_reply
 *     call_lose_request call_lose_reply crash_p crash_commit_p fail_p
 *     handler_fail_p dlq_part work write call lane0 work_lane write_lane
 *     call_reply_lane ev0 d0 effect_part effect_peer publishes publish
 *     event_us event_confirm_us relay_every_us event_lose_request
 *     event_lose_reply concurrency. The same in every run of a proof.
 * [sim_hop] room: cap_copies cap_ids.
 * [sim_hop] left out: first_us. When a copy's first delivery went: only a
 *     dead letter's time reads it (dl_us).
 * [sim_hop] left out: epoch. Only whether a pending event still has it
 *     (gen_of): it only grows, and only equality with an event's gen counts.
 * [sim_hop] left out: ahead. A driven run draws nothing ahead
 *     (model_hop_draw).
 *
 * [slot] hashed: used call_lost timeout_at job try_no pub_token claimed_at.
 *     The last four only while the slot is used: take_slot sets them anew.
 * [slot] left out: gen. Only whether a pending event still has it (gen_of).
 * [slot] left out: timeout_place. Only its order among the events' places.
 * [ring] hashed: v head n.
 * [ring] room: cap.
 * [pending] hashed: job try_no.
 *
 * [sim_queue] hashed: heap n lanes.
 * [sim_queue] room: cap.
 * [sim_queue] left out: head_t head_order busy_lanes. Copies of the lanes'
 *     first events, and which lanes hold any.
 * [sim_queue] left out: next_seq. Only the order of the places taken: every
 *     later place comes after them all.
 * [sim_queue] left out: oom. Set, the run stops at once (model_events).
 * [queue_lane] hashed: v head n.
 * [queue_lane] room: cap.
 * [sim_event] hashed: t_us order job arg gen slot. The order only as the
 *     events' order and kind, the gen as gen_of says.
 *
 * [sim_counts] hashed: errors dead_lettered. Counted as the run goes, and
 *     measures of a proof.
 * [sim_counts] board: jobs.
 * [sim_counts] left out: events. The events before the state: the memo
 *     keeps those after it (proof.c).
 * [sim_counts] left out: effects duplicates charged_twice lost_writes
 *     jobs_with_effect jobs_should_effect latency_p50_us latency_p99_us
 *     lost_events ghost_events downstream_effects downstream_duplicates
 *     downstream_lost_writes downstream_errors dead_letter_p50_us. 0 until
 *     the tally sets them at the end, from the arrays hashed above.
 * [sim_counts] left out: deliveries successes dropped first_arrival_us
 *     last_outcome_us draws chances publishes copies dedup_drops held
 *     events_published downstream_deliveries. Counted as the run goes, read
 *     by no measure of a proof and by the model only to count them. */

/* The state written out as bytes, then hashed at once (four lanes of
 * xxHash64's round run side by side: a proof fingerprints at every
 * event). */
typedef struct {
    uint8_t *v;
    size_t n, cap; /* n past cap: it did not fit */
} fp_sink;

static inline void put(fp_sink *s, uint64_t w)
{
    if (s->n + 8 <= s->cap)
        memcpy(s->v + s->n, &w, 8);
    s->n += 8;
}

/* An array: its length (or none), then its bytes as they are. */
static void put_array(fp_sink *s, const void *v, size_t n, size_t size)
{
    put(s, v ? n : UINT64_MAX);
    if (!v)
        return;
    size_t bytes = n * size;
    if (s->n + bytes <= s->cap && bytes)
        memcpy(s->v + s->n, v, bytes);
    s->n += bytes;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9u;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebu;
    x ^= x >> 31;
    return x;
}

static inline uint64_t rotl(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

/* 128 bits of v[0..n), n a multiple of 32. */
static void hash128(const uint8_t *v, size_t n, uint64_t out[2])
{
    const uint64_t p1 = 0x9e3779b185ebca87u, p2 = 0xc2b2ae3d27d4eb4fu;
    uint64_t a = 0x243f6a8885a308d3u, b = 0x13198a2e03707344u, c = 0xa4093822299f31d0u,
             d = 0x082efa98ec4e6c89u;
    for (size_t i = 0; i < n; i += 32) {
        uint64_t w[4];
        memcpy(w, v + i, 32);
        a = rotl(a + w[0] * p2, 31) * p1;
        b = rotl(b + w[1] * p2, 31) * p1;
        c = rotl(c + w[2] * p2, 31) * p1;
        d = rotl(d + w[3] * p2, 31) * p1;
    }
    out[0] = mix(rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18) + n);
    out[1] = mix(mix(a ^ n) + 3 * mix(b) + (mix(c) ^ rotl(d, 29)));
}

/* An event's gen as far as it matters: for an event of a handler slot,
 * whether the slot still has it (gens only grow, and only equality with
 * the slot's counts, model.c slot_valid); for an event publish and its
 * confirm, whether the first handler's epoch does (model_pub.c); else the
 * number itself (a first-hop publish carries its message ID there). */
static uint64_t gen_of(const sim_model *m, const sim_event *e)
{
    unsigned kind = event_kind(e);
    if (kind == EV_RELAY_CONFIRM || kind == EV_HOP_STRIDE + EV_AT_BROKER)
        return e->gen == m->hop[0].epoch;
    if (kind >= SIM_MAX_HOPS * EV_HOP_STRIDE)
        return (uint64_t)e->gen << 1;
    const sim_hop *h = &m->hop[kind / EV_HOP_STRIDE];
    switch (kind % EV_HOP_STRIDE) {
    case EV_H_ARRIVE:
        if (!h->broker_fed)
            break;
        /* fall through */
    case EV_H_WORK_DONE:
    case EV_H_LOCAL_DONE:
    case EV_H_CALL:
    case EV_P_CALL:
    case EV_H_CALL_OK:
    case EV_H_CALL_FAILED:
    case EV_H_CALL_TIMEOUT:
    case EV_H_FAILED:
        return e->slot < h->concurrency && h->slots[e->slot].gen == e->gen;
    default:
        break;
    }
    return (uint64_t)e->gen << 1;
}

static void put_event(fp_sink *s, const sim_model *m, const sim_event *e)
{
    put(s, (uint64_t)e->t_us);
    put(s, event_kind(e));
    put(s, (uint64_t)e->job << 32 | e->arg);
    put(s, gen_of(m, e) << 32 | e->slot);
}

/* A place in the queue's order: a pending event, or a call timeout kept
 * (model.c "call timeouts") at hop h's slot. */
typedef struct {
    uint64_t seq;
    const sim_event *e; /* NULL: a kept timeout */
    int hop;
    uint32_t slot;
} place;

/* The pending events and the kept timeouts in the order of their places
 * (the queue's order is (time, place)), wherever the queue keeps them,
 * the places themselves left out: only their order matters, and every
 * later one comes after them all. An insertion sort: a proof's queue
 * holds a few. False when they are more than cap. */
static bool put_queue(fp_sink *s, const sim_model *m, place *v, size_t cap)
{
    const sim_queue *q = &m->q;
    size_t n = 0;
    for (size_t i = 0; i < q->n; i++) {
        if (n == cap)
            return false;
        v[n++] = (place){q->heap[i].order >> 8, &q->heap[i], 0, 0};
    }
    for (int l = 0; l < QUEUE_LANES; l++) {
        const queue_lane *ln = &q->lanes[l];
        for (size_t i = 0; i < ln->n; i++) {
            if (n == cap)
                return false;
            const sim_event *e = &ln->v[(ln->head + i) & (ln->cap - 1)];
            v[n++] = (place){e->order >> 8, e, 0, 0};
        }
    }
    for (int k = 0; k < m->n_hops; k++) {
        const sim_hop *h = &m->hop[k];
        uint32_t taken = h->concurrency - h->low_free;
        for (uint32_t i = 0; i < taken; i++)
            if (h->slots[i].timeout_at) {
                if (n == cap)
                    return false;
                v[n++] = (place){h->slots[i].timeout_place, NULL, k, i};
            }
    }
    for (size_t i = 1; i < n; i++) {
        place x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].seq > x.seq; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    put(s, n);
    for (size_t i = 0; i < n; i++) {
        if (v[i].e) {
            put_event(s, m, v[i].e);
        } else {
            put(s, UINT64_MAX);
            put(s, (uint64_t)v[i].hop << 32 | v[i].slot);
        }
    }
    return true;
}

static void put_hop(fp_sink *s, const sim_model *m, const sim_hop *h)
{
    size_t jobs = m->jobs, nc = h->n_copies, ni = h->n_ids;
    put(s, nc);
    put(s, ni);
    put_array(s, h->cur_try, nc, sizeof *h->cur_try);
    put_array(s, h->mflags, nc, sizeof *h->mflags);
    put_array(s, h->copy_job, nc, sizeof *h->copy_job);
    put_array(s, h->copy_msg, nc, sizeof *h->copy_msg);
    put_array(s, h->copy_pub, nc, sizeof *h->copy_pub);
    put_array(s, h->copy_no, nc, sizeof *h->copy_no);
    put_array(s, h->effects, jobs, sizeof *h->effects);
    put_array(s, h->jf, jobs, sizeof *h->jf);
    put_array(s, h->live, jobs, sizeof *h->live);
    put_array(s, h->n_copied, jobs, sizeof *h->n_copied);
    /* a key kept forever is live whenever it is set: when it was recorded
     * changes nothing (model_key_live); else its time counts */
    int64_t ttl = h->policy == SIM_IDEM_PROVIDER_KEY ? h->provider_ttl_us : h->key_ttl_us;
    if (h->key_rec && ttl >= TIME_HORIZON_US) {
        put(s, ni);
        for (size_t i = 0; i < ni; i++)
            put(s, h->key_rec[i] != KEY_NONE);
    } else {
        put_array(s, h->key_rec, ni, sizeof *h->key_rec);
    }
    put_array(s, h->claim_us, ni, sizeof *h->claim_us);
    put_array(s, h->seen_us, ni, sizeof *h->seen_us);
    /* first_us only times a dead letter (dl_us): no measure a proof takes */
    uint32_t taken = h->concurrency - h->low_free;
    put(s, (uint64_t)h->low_free << 32 | h->n_free);
    for (uint32_t i = 0; i < taken; i++) { /* the gens: with the events (gen_of) */
        const slot *sl = &h->slots[i];
        put(s, (uint64_t)sl->used << 8 | sl->call_lost);
        put(s, (uint64_t)sl->timeout_at); /* its place: with the events */
        if (sl->used) {
            put(s, (uint64_t)sl->job << 32 | sl->try_no);
            put(s, sl->pub_token);
            put(s, (uint64_t)sl->claimed_at);
        }
    }
    if (h->n_free > h->low_free) /* below low_free: as reset */
        put_array(s, h->free_slots + h->low_free, h->n_free - h->low_free, sizeof *h->free_slots);
    put(s, (uint64_t)h->down << 1 | h->pumping); /* the epoch: with the events */
    put(s, h->waiting.n);
    for (size_t i = 0; i < h->waiting.n; i++) {
        const pending *p = &h->waiting.v[(h->waiting.head + i) & (h->waiting.cap - 1)];
        put(s, (uint64_t)p->job << 32 | p->try_no);
    }
}

bool model_fingerprint(const sim_model *m, const sim_event *next, void *tmp, size_t cap,
                       uint64_t out[2])
{
    enum { PLACES = 128 }; /* tmp: the places, then the bytes */
    if (cap < PLACES * sizeof(place) + 64)
        return false;
    place *v = tmp;
    fp_sink s = {(uint8_t *)tmp + PLACES * sizeof(place), 0, cap - PLACES * sizeof(place)};
    put(&s, (uint64_t)m->now);
    put_event(&s, m, next);
    if (!put_queue(&s, m, v, PLACES))
        return false;
    for (int i = 0; i < m->n_hops; i++)
        put_hop(&s, m, &m->hop[i]);
    size_t jobs = m->jobs;
    put_array(&s, m->pub_try, jobs, sizeof *m->pub_try);
    put_array(&s, m->pub_flags, jobs, sizeof *m->pub_flags);
    put_array(&s, m->relay_sent, jobs, sizeof *m->relay_sent);
    put_array(&s, m->bkey, jobs, sizeof *m->bkey);
    put(&s, m->next_msg_id);
    put(&s, m->n_tokens);
    put_array(&s, m->token_ghost, m->n_tokens, 1);
    put(&s, m->ob_n);
    for (size_t i = 0; i < m->ob_n; i++) {
        put(&s, (uint64_t)m->ob_job[i] << 8 | m->ob_state[i]);
        put(&s, m->ob_at[i] == m->now); /* the relay skips a record of now only */
    }
    put_array(&s, m->ob_pending, m->ob_pn, sizeof *m->ob_pending);
    put(&s, m->relay_scheduled);
    uint64_t clock;
    memcpy(&clock, &m->arrival_clock, sizeof clock);
    put(&s, clock);
    /* the counts a proof's measure reads that the run keeps as it goes
     * (the others the tally takes from the arrays above); the latencies
     * (at_us, dl_us) are no fault count */
    put(&s, (uint64_t)m->k.errors);
    put(&s, (uint64_t)m->k.dead_lettered);
    put(&s, m->oom);
    put(&s, s.n);
    for (; s.n % 32; s.n++) /* whole blocks for hash128 */
        if (s.n < s.cap)
            s.v[s.n] = 0;
    if (s.n > s.cap)
        return false;
    hash128(s.v, s.n, out);
    return true;
}

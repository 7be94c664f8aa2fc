/* model_run.c — one replication of a board: the model set up from the
 * board, its events run within the limits (model_events), and the measures
 * tallied from the per-job arrays at the end. Per-job state is a few parallel arrays (26
 * bytes a job for one hop without copies; a second hop, key claims or a
 * simulated publisher add theirs); pending events live in the queue only
 * until they happen. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The draws (model.h): out of line, so the many places that draw share one
 * copy of the hashing. */
uint64_t copy_who(const sim_hop *h, uint32_t c, uint32_t try_no)
{
    return who_of(job_of(h, c), h->copy_no ? h->copy_no[c] : 0, try_no);
}

double model_unit(sim_model *m, uint64_t who, uint32_t what)
{
    m->k.draws++;
    m->k.chances++;
    if (model_drive(m))
        return choice_take(model_drive(m),
                           what == D_REPEAT || what == D_POISON ? CH_TRAFFIC : CH_FAULT, 2)
                   ? 0.0
                   : 1.0;
    return rng_uniform(m->key, who, what);
}

double model_gap(sim_model *m, uint32_t job, double mean_us)
{
    m->k.draws++;
    if (model_drive(m)) /* the exponential's median and 99th percentile: ln 2, ln 100 means */
        return mean_us *
               (choice_take(model_drive(m), CH_TIMING, 2) ? 4.605170185988091 : 0.6931471805599453);
    return rng_exponential(m->key, job, D_ARRIVAL, mean_us);
}

uint64_t model_below(sim_model *m, uint64_t who, uint32_t what, uint64_t n)
{
    if (model_drive(m))
        return n <= 255 ? choice_take(model_drive(m), CH_TRAFFIC, (uint32_t)n) : 0;
    return rng_below(m->key, who, what, n);
}

int64_t model_hop_draw(sim_model *m, sim_hop *h, int which, const sim_dist *d, uint32_t what,
                       uint32_t c, uint32_t try_no)
{
    m->k.draws++;
    if (model_drive(m))
        return d->proof_us[choice_take(model_drive(m), CH_TIMING, 2)];
    draw_ahead *a = h->ahead;
    if (try_no != 1 || !a)
        return dist_draw(d, m->key, copy_who(h, c, try_no), what);
    uint32_t block = c / AHEAD_BLOCK, row = block % AHEAD_ROWS;
    int64_t *v = a->v[which][row];
    if (a->tag[which][row] != block + 1) {
        uint32_t first = block * AHEAD_BLOCK, n = m->jobs - first;
        if (n > AHEAD_BLOCK)
            n = AHEAD_BLOCK;
#ifdef __wasm__
        for (uint32_t i = 0; i < n; i++)
            v[i] = dist_draw(d, m->key, who_of(first + i, 0, 1), what);
#else
        dist_draw_run(d, m->key, who_of(first, 0, 1), what, n, v); /* who_of(first + i, 0, 1) */
#endif
        a->tag[which][row] = block + 1;
    }
    return v[c % AHEAD_BLOCK];
}

/* The trace (model.h): out of line, as only a traced run records. */
void model_trace(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer,
                 int64_t detail, int copy)
{
    sim_trace_buf *t = m->trace;
    if (t->n == t->max) {
        t->truncated = true;
        return;
    }
    if (t->n == t->cap) {
        size_t cap = sim_grown_cap(t->cap, 256);
        if (cap > t->max)
            cap = t->max;
        if (!sim_resize(&t->v, cap, sizeof *t->v)) {
            m->oom = true;
            return;
        }
        t->cap = cap;
    }
    sim_trace_entry *e = &t->v[t->n++];
    e->t_us = m->now;
    e->kind = kind;
    e->job = job == NO_JOB ? 0 : (int64_t)job + 1;
    e->part = part;
    e->peer = peer;
    e->detail = detail;
    e->copy = copy;
}

static int64_t round_trips(double rt, int64_t rtt_us)
{
    return (int64_t)(rt * (double)rtt_us + 0.5);
}

/* A hop's settings from its parts and links. */
static void hop_setup(sim_hop *h, const sim_board *b, const sim_hop_topology *t, int index)
{
    const sim_part *sp = &b->parts[t->sender], *hp = &b->parts[t->handler];
    const sim_link *dl = &b->links[t->delivery_link];
    h->index = index;
    h->t = *t;
    h->broker_fed = t->broker >= 0;
    h->at_most_once = h->broker_fed && sp->delivery == SIM_DELIVERY_AT_MOST_ONCE;
    h->external = t->provider >= 0;
    h->transactional = h->broker_fed && dl->transactional;
    h->policy = hp->idempotency;
    h->tries = (uint32_t)sp->tries;
    h->timer_us = h->broker_fed ? sp->redelivery_after_us : sp->timeout_us;
    h->backoff_factor = h->broker_fed ? sp->backoff_factor : 0;
    h->backoff_max_us = sp->backoff_max_us > 0 ? sp->backoff_max_us : SIM_DURATION_CAP_US;
    h->jitter = h->broker_fed && sp->backoff_jitter;
    h->deliver_us = dl->rtt_us / 2;
    h->reply_us = round_trips(dl->reply_round_trips, dl->rtt_us);
    h->lose_request = dl->lose_request;
    h->lose_reply = dl->lose_reply;
    h->key_ttl_us = hp->key_ttl_us;
    h->lease_us = hp->lease_us;
    h->dedup_window_us = h->broker_fed ? b->parts[t->broker].dedup_window_us : 0;
    h->crash_p = hp->crash_after_effect;
    h->crash_commit_p = hp->crash_after_commit;
    h->restart_us = hp->restart_us;
    h->handler_fail_p = hp->fail;
    h->dlq_part = h->broker_fed && sp->dead_letter > 0 ? sp->dead_letter - 1 : -1;
    dist_init(&h->work, hp->work);
    sim_latency zero = {0, 0};
    dist_init(&h->write, t->database >= 0 ? b->parts[t->database].write : zero);
    dist_init(&h->call, h->external ? b->parts[t->provider].call : zero);
    h->lane0 = index * HOP_LANES;
    h->ev0 = (unsigned)(index * EV_HOP_STRIDE);
    h->d0 = D_HOP0 + D_HOP_STRIDE * (uint32_t)index;
    h->work_lane = h->work.sigma == 0 && h->write.sigma == 0 ? h->lane0 + L_WORK : QUEUE_HEAP;
    h->write_lane = h->write.sigma == 0 ? h->lane0 + L_WRITE : QUEUE_HEAP;
    h->call_reply_lane = h->call.sigma == 0 ? h->lane0 + L_CALL_REPLY : QUEUE_HEAP;
    h->effect_part = t->database >= 0 ? t->database : t->handler;
    h->effect_peer = t->database >= 0 ? t->handler : -1;
    if (h->external) {
        const sim_link *cl = &b->links[t->call_link];
        const sim_part *pp = &b->parts[t->provider];
        h->call_us = cl->rtt_us / 2;
        h->call_reply_us = round_trips(cl->reply_round_trips, cl->rtt_us);
        h->call_timeout_us = hp->timeout_us;
        h->call_lose_request = cl->lose_request;
        h->call_lose_reply = cl->lose_reply;
        h->fail_p = pp->fail;
        h->provider_ttl_us = pp->key_ttl_us;
    }
    h->concurrency = (uint32_t)hp->concurrency;
}

/* The first handler publishing to the second broker over link el. */
static void hop_publishes(sim_hop *h, const sim_board *b, const sim_link *el)
{
    const sim_part *hp = &b->parts[h->t.handler];
    h->publishes = true;
    h->publish = hp->publish;
    if (h->publish == SIM_PUBLISH_BEFORE_COMMIT) /* the work alone, then the write */
        h->work_lane = h->work.sigma == 0 ? h->lane0 + L_WORK : QUEUE_HEAP;
    h->relay_every_us = hp->relay_every_us;
    h->event_us = el->rtt_us / 2;
    h->event_confirm_us = round_trips(el->reply_round_trips, el->rtt_us);
    h->event_lose_request = el->lose_request;
    h->event_lose_reply = el->lose_reply;
}

/* A hop's arrays. copies: a job may have several messages at this hop. */
static bool hop_alloc(sim_hop *h, size_t n, bool copies, bool per_publish, bool tokens, bool live)
{
    h->cap_copies = h->cap_ids = n;
    h->cur_try = malloc(n * sizeof *h->cur_try);
    h->effects = malloc(n * sizeof *h->effects);
    h->jf = malloc(n * sizeof *h->jf);
    bool ok = h->cur_try && h->effects && h->jf;
    if (h->policy != SIM_IDEM_NONE)
        ok = ok && (h->key_rec = malloc(n * sizeof *h->key_rec));
    if (h->policy == SIM_IDEM_KEY_CLAIMED_FIRST)
        ok = ok && (h->claim_us = malloc(n * sizeof *h->claim_us));
    if (copies) {
        ok = ok && (h->copy_job = malloc(n * sizeof *h->copy_job)) &&
             (h->copy_no = malloc(n * sizeof *h->copy_no)) &&
             (h->n_copied = malloc(n * sizeof *h->n_copied)) &&
             (h->mflags = malloc(n * sizeof *h->mflags));
        if (h->dedup_window_us > 0)
            ok = ok && (h->seen_us = malloc(n * sizeof *h->seen_us));
        if (per_publish)
            ok = ok && (h->copy_msg = malloc(n * sizeof *h->copy_msg));
        if (tokens)
            ok = ok && (h->copy_pub = malloc(n * sizeof *h->copy_pub));
        if (live)
            ok = ok && (h->live = malloc(n * sizeof *h->live));
    } else {
        h->ahead = malloc(sizeof *h->ahead); /* optional: NULL draws each when needed */
    }
    if (h->dlq_part >= 0) /* per copy: when its first delivery was sent */
        ok = ok && (h->first_us = malloc(n * sizeof *h->first_us));
    h->slots = calloc(h->concurrency, sizeof *h->slots);
    h->free_slots = malloc(h->concurrency * sizeof *h->free_slots);
    return ok && h->slots && h->free_slots;
}

static void hop_free(sim_hop *h)
{
    free(h->copy_job);
    free(h->copy_msg);
    free(h->copy_pub);
    free(h->copy_no);
    free(h->cur_try);
    free(h->mflags);
    free(h->first_us);
    free(h->key_rec);
    free(h->claim_us);
    free(h->seen_us);
    free(h->effects);
    free(h->jf);
    free(h->live);
    free(h->n_copied);
    free(h->slots);
    free(h->free_slots);
    free(h->waiting.v);
    free(h->ahead);
}

sim_model *sim_model_new(const sim_board *b, const sim_topology *topo)
{
    sim_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    const sim_topology *t = topo;
    m->b = b;
    m->t = *t;
    m->jobs = (uint32_t)b->traffic.jobs;
    m->n_hops = t->n_hops;
    m->op = b->traffic.op;
    m->arrivals = b->traffic.arrivals;
    m->over_us = b->traffic.over_us;
    m->repeat_share = b->traffic.repeat_share;
    m->poison = b->traffic.poison;
    for (int i = 0; i < t->n_hops; i++)
        hop_setup(&m->hop[i], b, &t->hop[i], i);
    sim_hop *h0 = &m->hop[0];
    bool outbox = false;
    if (t->n_hops == 2) {
        hop_publishes(h0, b, &b->links[t->hop[1].publish_link]);
        outbox = h0->publish == SIM_PUBLISH_OUTBOX;
    }
    if (t->hop[0].publish_link >= 0) {
        const sim_link *pl = &b->links[t->hop[0].publish_link];
        const sim_part *up = &b->parts[t->users];
        m->publish_us = pl->rtt_us / 2;
        m->confirm_us = round_trips(pl->reply_round_trips, pl->rtt_us);
        m->pub_tries = (uint32_t)up->tries;
        m->pub_timeout_us = up->timeout_us;
        m->pub_lose_request = pl->lose_request;
        m->pub_lose_reply = pl->lose_reply;
        m->message_id = up->message_id;
        /* Without faults, and with a confirm faster than the timeout, the
         * publisher could never send twice: it is not simulated then. */
        m->pub_model = pl->lose_request > 0 || pl->lose_reply > 0 || pl->n_lose_reply_of > 0 ||
                       up->timeout_us <= m->publish_us + m->confirm_us;
    }

    size_t n = m->jobs;
    bool per_publish = m->pub_model && m->message_id == SIM_MESSAGE_ID_PER_PUBLISH;
    bool ok = hop_alloc(h0, n, m->pub_model, per_publish, false, m->pub_model);
    if (t->n_hops == 2)
        ok = ok && hop_alloc(&m->hop[1], n, true, false, true, false);
    m->at_us = malloc(n * sizeof *m->at_us);
    m->bkey = m->repeat_share > 0 ? malloc(n * sizeof *m->bkey) : NULL;
    ok = ok && m->at_us && (m->repeat_share == 0 || m->bkey);
    if (m->pub_model)
        ok = ok && (m->pub_try = malloc(n * sizeof *m->pub_try));
    if (m->pub_model || outbox)
        ok = ok && (m->pub_flags = malloc(n * sizeof *m->pub_flags));
    if (outbox)
        ok = ok && (m->relay_sent = malloc(n * sizeof *m->relay_sent));
    queue_init(&m->q);
    if (!ok) {
        sim_model_free(m);
        return NULL;
    }
    return m;
}

void sim_model_free(sim_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < SIM_MAX_HOPS; i++)
        hop_free(&m->hop[i]);
    free(m->at_us);
    free(m->bkey);
    free(m->dl_us);
    free(m->pub_try);
    free(m->pub_flags);
    free(m->relay_sent);
    free(m->token_ghost);
    free(m->ob_job);
    free(m->ob_at);
    free(m->ob_state);
    free(m->ob_pending);
    queue_free(&m->q);
    free(m);
}

static void mark_lose_reply_of(sim_model *m, int link, uint16_t *flags, uint16_t flag)
{
    if (link < 0 || !flags)
        return;
    const sim_link *l = &m->b->links[link];
    for (size_t i = 0; i < l->n_lose_reply_of; i++)
        flags[l->lose_reply_of[i] - 1] |= flag;
}

static void hop_reset(sim_model *m, sim_hop *h)
{
    size_t n = m->jobs;
    memset(h->cur_try, 0, n * sizeof *h->cur_try);
    memset(h->effects, 0, n * sizeof *h->effects);
    memset(h->jf, 0, n * sizeof *h->jf);
    if (h->mflags)
        memset(h->mflags, 0, n * sizeof *h->mflags);
    if (h->n_copied)
        memset(h->n_copied, 0, n * sizeof *h->n_copied);
    if (h->live)
        memset(h->live, 0, n * sizeof *h->live);
    int64_t *ids[3] = {h->key_rec, h->claim_us, h->seen_us};
    for (int a = 0; a < 3; a++)
        if (ids[a])
            for (size_t i = 0; i < n; i++)
                ids[a][i] = KEY_NONE;
    h->n_copies = h->n_ids = n;
    mark_lose_reply_of(m, h->t.delivery_link, h->jf, F_LRO_DELIVERY);
    mark_lose_reply_of(m, h->t.call_link, h->jf, F_LRO_CALL);
    model_reset_slots(h);
    h->down = h->pumping = false;
    h->epoch = 0;
    h->waiting.head = h->waiting.n = 0;
    if (h->ahead)
        memset(h->ahead->tag, 0, sizeof h->ahead->tag);
}

static void reset(sim_model *m, uint64_t key, sim_trace_buf *trace)
{
    size_t n = m->jobs;
    for (int i = 0; i < m->n_hops; i++)
        hop_reset(m, &m->hop[i]);
    if (m->pub_try)
        memset(m->pub_try, 0, n * sizeof *m->pub_try);
    if (m->relay_sent)
        memset(m->relay_sent, 0, n * sizeof *m->relay_sent);
    if (m->pub_flags) {
        memset(m->pub_flags, 0, n * sizeof *m->pub_flags);
        if (m->pub_model)
            mark_lose_reply_of(m, m->t.hop[0].publish_link, m->pub_flags, P_LRO);
        if (m->n_hops == 2)
            mark_lose_reply_of(m, m->t.hop[1].publish_link, m->pub_flags, P_LRO_EVENT);
    }
    m->next_msg_id = m->jobs;
    m->n_tokens = 1; /* token 0 is "none" */
    m->ob_n = m->ob_pn = 0;
    m->relay_scheduled = false;
    m->dl_n = 0;
    m->oom = false;
    if (m->n_hops == 2 && !m->token_ghost) {
        m->token_ghost = calloc(256, 1);
        m->cap_tokens = m->token_ghost ? 256 : 0;
        m->oom = !m->token_ghost;
    }
    m->key = key;
    queue_clear(&m->q);
    m->trace = trace;
    memset(&m->k, 0, sizeof m->k);
    m->k.jobs = m->jobs;
    m->now = 0;
    m->arrival_clock = 0;
}

/* The second hop's measures (MODEL.md "Measures"). */
static void tally_second_hop(sim_model *m)
{
    sim_counts *k = &m->k;
    const sim_hop *up = &m->hop[0], *h = &m->hop[1];
    for (size_t j = 0; j < m->jobs; j++) {
        int64_t e = h->effects[j];
        k->downstream_effects += e;
        if (e >= 2)
            k->downstream_duplicates += e - 1;
        if ((h->jf[j] & F_GAVE_UP) && !(h->jf[j] & F_SUCCESS))
            k->downstream_errors++;
        bool stands, reached, took;
        if (m->op == SIM_OP_CHARGE) {
            stands = up->effects[j] >= 1;
            reached = h->jf[j] & F_REACHED;
            took = e >= 1;
        } else if (bkey_of(m, (uint32_t)j) == j) { /* each business key once */
            stands = up->jf[j] & F_KEY_SET;
            reached = h->jf[j] & F_BKEY_REACHED;
            took = h->jf[j] & F_KEY_SET;
        } else {
            continue;
        }
        if (stands && !reached)
            k->lost_events++;
        else if (stands && !took)
            k->downstream_lost_writes++;
    }
    for (size_t c = 0; c < h->n_copies; c++)
        if (c >= m->jobs || (h->jf[c] & F_FIRST_COPY))
            if ((h->mflags[c] & F_RECEIVED) && h->copy_pub[c] != NO_TOKEN &&
                m->token_ghost[h->copy_pub[c]])
                k->ghost_events++;
}

/* The measures from the per-job arrays at the end of a run. */
static void tally(sim_model *m)
{
    sim_counts *k = &m->k;
    const sim_hop *h = &m->hop[0];
    size_t n = m->jobs;
    for (size_t j = 0; j < n; j++) {
        int64_t e = h->effects[j];
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
            if (!(h->jf[j] & F_KEY_SET))
                k->lost_writes++;
        }
    }
    if (m->n_hops == 2)
        tally_second_hop(m);
    size_t ok = 0; /* latencies of the jobs that succeeded, packed in front */
    for (size_t j = 0; j < n; j++)
        if (h->jf[j] & F_SUCCESS)
            m->at_us[ok++] = m->at_us[j];
    if (ok > 0) {
        sim_p50_p99(m->at_us, ok, &k->latency_p50_us, &k->latency_p99_us);
    }
    if (m->dl_n > 0)
        k->dead_letter_p50_us = sim_percentile(m->dl_us, m->dl_n, 50);
}

static sim_status too_many_events(const sim_limits *lim, char *msg, size_t n)
{
    snprintf(msg, n, "the board needs more than %lld events in one run; lower jobs or tries",
             (long long)lim->max_events);
    return SIM_ERR_EVENTS;
}

sim_status sim_model_run(sim_model *m, const sim_limits *lim, uint64_t key, sim_trace_buf *trace,
                         sim_counts *out, char *msg, size_t n)
{
    reset(m, key, trace);
    model_start(m);
    switch (model_events(m, lim->max_events)) {
    case MODEL_STOP_EVENTS:
        return too_many_events(lim, msg, n);
    case MODEL_STOP_TIME:
        snprintf(msg, n,
                 "the board runs longer than simulated time can count; shorten its "
                 "durations");
        return SIM_ERR_TIME;
    case MODEL_STOP_MEMORY:
        snprintf(msg, n, "not enough memory to simulate the board");
        return SIM_ERR_MEMORY;
    case MODEL_STOP_DONE:
        break;
    }
    if (m->k.events > lim->max_events) /* with the kept timeouts counted */
        return too_many_events(lim, msg, n);
    tally(m);
    *out = m->k;
    return SIM_OK;
}

int sim_run_counts(const sim_board *b, const sim_limits *lim, uint64_t seed, int r,
                   sim_trace_buf *trace, sim_counts *out, char *msg, size_t n)
{
    sim_topology t;
    int link;
    if (sim_board_check_topology(b, lim, msg, n, &link, &t) != -1)
        return SIM_ERR_BOARD;
    sim_model *m = sim_model_new(b, &t);
    if (!m) {
        snprintf(msg, n, "not enough memory to simulate %lld jobs", (long long)b->traffic.jobs);
        return SIM_ERR_MEMORY;
    }
    int rc = sim_model_run(m, lim, rng_stream_key(seed, (uint64_t)r), trace, out, msg, n);
    sim_model_free(m);
    return rc;
}

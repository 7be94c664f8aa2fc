/* model.h — the state of one simulation run, shared by the hop events and
 * the event loop (model.c), the publishers and the outbox (model_pub.c), and
 * the setup, limits and tally (model_run.c). Internal to sim-core. */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H

#include "choice.h"
#include "queue.h"
#include "rng.h"
#include "sim_internal.h"

#include <stdbool.h>
#include <stdint.h>

/* Lanes for events scheduled a constant delay ahead (see queue.h): nine
 * per hop (hop * HOP_LANES + L_...), then the publishers'. */
enum {
    L_TIMER,
    L_PUBLISH,
    L_DELIVER,
    L_REPLY,
    L_WORK,
    L_WRITE, /* the write after a before-commit publish */
    L_CALL,
    L_CALL_REPLY,
    L_CALL_TIMEOUT,
    HOP_LANES
};
enum {
    L_PUB_TIMER = SIM_MAX_HOPS * HOP_LANES,
    L_PUB_CONFIRM,
    L_RELAY_CONFIRM,
    L_ARRIVAL, /* each arrival is scheduled at the one before: times only grow */
    N_LANES
};
_Static_assert(N_LANES <= QUEUE_LANES, "the queue has a lane for each");

/* Event kinds: per hop (EV_HOP_STRIDE * hop + kind), then the others. */
enum {
    EV_AT_BROKER,      /* a publish reaches this hop's broker */
    EV_H_ARRIVE,       /* a send reaches the handler; arg = try */
    EV_H_WORK_DONE,    /* before-commit, local: work done, publish, then write */
    EV_H_LOCAL_DONE,   /* work and write done: apply the local effect */
    EV_H_CALL,         /* work done: call the provider */
    EV_P_CALL,         /* the call reaches the provider */
    EV_H_CALL_OK,      /* success response back at the handler */
    EV_H_CALL_FAILED,  /* failure response back at the handler */
    EV_H_CALL_TIMEOUT, /* the handler's own call timeout */
    EV_H_RESTART,      /* crashed handler is back */
    EV_S_REPLY,        /* ack/response back at the sender; arg = try */
    EV_S_TIMER,        /* sender's redelivery/timeout timer; arg = try */
    EV_H_FAILED,       /* the work is done and the handler fails the delivery */
    EV_HOP_KINDS
};
#define EV_HOP_STRIDE 16
_Static_assert(EV_HOP_KINDS <= EV_HOP_STRIDE, "a hop's kinds fit in its stride");
enum {
    EV_ARRIVE = SIM_MAX_HOPS * EV_HOP_STRIDE, /* job arrives at the users part */
    EV_PUB_CONFIRM,   /* the first broker's confirm back at the users; arg = try */
    EV_PUB_TIMER,     /* the users' confirm timeout; arg = try */
    EV_RELAY,         /* the outbox relay polls */
    EV_RELAY_CONFIRM, /* the second broker's confirm back at the relay; arg = entry */
};

/* Per-job flags of a hop (jf[job]); F_KEY_SET and F_BKEY_REACHED are kept
 * at the business key's index. F_WAITING and F_RECEIVED are per copy: in
 * mflags when the hop has copies, else in jf (copy c is job c). */
enum {
    F_DONE = 1 << 0,              /* first hop: the job's final outcome reached */
    F_SUCCESS = 1 << 1,           /* acknowledged (at-most-once: finished) */
    F_ERROR = 1 << 2,             /* a sender gave up: the job is an error */
    F_DROPPED = 1 << 3,           /* at-most-once: lost on the way */
    F_WAITING = 1 << 4,           /* per copy: the sender's timer for cur_try is live */
    F_KEY_SET = 1 << 5,           /* op set: the business key with this index is set */
    F_LRO_DELIVERY = 1 << 6,      /* in lose_reply_of of the delivery link ... */
    F_LRO_DELIVERY_USED = 1 << 7, /* ... and its first reply has gone */
    F_LRO_CALL = 1 << 8,          /* in lose_reply_of of the call link ... */
    F_LRO_CALL_USED = 1 << 9,     /* ... and its first response has gone */
    F_REACHED = 1 << 10,          /* some copy of the job was received by the handler */
    F_BKEY_REACHED = 1 << 11,     /* ... of a job with this business key */
    F_GAVE_UP = 1 << 12,          /* the sender gave up on some copy */
    F_FIRST_COPY = 1 << 13,       /* copy index == job index is taken */
    F_RECEIVED = 1 << 14,         /* per copy: received by the handler at least once */
    F_POISON = 1 << 15,           /* first hop: the job's message fails every delivery */
};

/* Publisher flags (users publishing with confirms), per job. */
enum {
    P_WAITING = 1 << 0,        /* the confirm timer of pub_try is live */
    P_DONE = 1 << 1,           /* confirmed, or gave up */
    P_LRO = 1 << 2,            /* in lose_reply_of of the publish link ... */
    P_LRO_USED = 1 << 3,       /* ... and its first confirm has gone */
    P_LRO_EVENT = 1 << 4,      /* in lose_reply_of of the event link (relay confirms) ... */
    P_LRO_EVENT_USED = 1 << 5, /* ... and its first confirm has gone */
};

/* Why a call timed out (trace detail of CALL_LOST). */
enum { CALL_SLOW = 0, CALL_REQUEST_LOST = 1, CALL_RESPONSE_LOST = 2 };

/* What a draw is for: with who draws (who_of), its coordinates in the
 * replication's stream (MODEL.md "Time and randomness"). The users' and the
 * first handler's publishes, then each hop's (d0 + D_...). */
enum {
    D_ARRIVAL,            /* job k's poisson gap after job k-1 */
    D_REPEAT,             /* is job k a legitimate repeat ... */
    D_REPEAT_OF,          /* ... and of which earlier job */
    D_PUBLISH_LOST,       /* the users' publish try is lost */
    D_CONFIRM_LOST,       /* the first broker's confirm of that try is lost */
    D_EVENT_LOST,         /* an inline event publish is lost */
    D_RELAY_LOST,         /* the relay's n-th publish of the job is lost */
    D_RELAY_CONFIRM_LOST, /* ... its confirm */
    D_POISON,             /* is job k a poison message */
    D_HOP0 = 16,          /* hop h's purposes start at D_HOP0 + D_HOP_STRIDE * h */
};
enum {
    D_SEND_LOST,       /* the sender's try is lost on the way */
    D_WORK,            /* the handler's work for that try */
    D_WRITE,           /* its database write */
    D_CRASH,           /* the crash after the effect */
    D_CRASH_COMMIT,    /* the crash after the commit */
    D_REPLY_LOST,      /* its ack/response is lost */
    D_CALL_LOST,       /* its call's request is lost */
    D_FAIL,            /* the provider fails the call */
    D_CALL_TIME,       /* the provider's time */
    D_CALL_REPLY_LOST, /* the call's response is lost */
    D_HANDLER_FAIL,    /* the handler fails the delivery (fail) */
    D_JITTER,          /* the broker's jittered wait after that try */
    D_HOP_STRIDE = 16
};

/* Who draws: a job, the copy of its message at a hop's broker (0-based)
 * and the try (or the publish, or the relay's n-th send). Distinct
 * triples are distinct numbers. */
static inline uint64_t who_of(uint32_t job, uint32_t copy_no, uint32_t try_no)
{
    return (uint64_t)job | (uint64_t)copy_no << 32 | (uint64_t)try_no << 48;
}

/* Outbox entry states. */
enum { OB_PENDING, OB_SENT_OK, OB_CANCELLED };

#define KEY_NONE INT64_MIN
#define NO_JOB UINT32_MAX
#define NO_TOKEN 0
/* Simulated time may not pass this (~146,000 years): no sum can overflow. */
#define TIME_HORIZON_US (INT64_C(1) << 62)

typedef struct {
    uint32_t job, try_no; /* job: the copy it holds */
    uint32_t gen;         /* bumped when the slot frees: older events are stale */
    uint8_t used;         /* holds a delivery (or one in transit to it) */
    uint8_t call_lost;    /* CALL_* reason for a timeout */
    uint32_t pub_token;   /* event published for this delivery, not yet committed */
    int64_t claimed_at;   /* key-claimed-first: when this delivery claimed, or KEY_NONE */
    /* the call's timeout, while it is only kept (model.c "call timeouts"):
     * when it is due (0: none kept) and its place in the queue's order */
    int64_t timeout_at;
    uint64_t timeout_place;
} slot;

typedef struct {
    uint32_t job, try_no; /* job: the copy */
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
    bool outbox; /* an outbox record was written, at outbox_entry */
    uint32_t outbox_entry;
} local_change;

/* Durations drawn ahead. A draw is a function of its coordinates only, so
 * the first try's work, write and call durations of a block of consecutive
 * copies can be drawn together, where the processor overlaps them, rather
 * than one by one inside the chain of events; each is the number its own
 * draw gives (model_hop_draw). A ring of recent blocks per duration. */
enum { AHEAD_WORK, AHEAD_WRITE, AHEAD_CALL, AHEAD_DISTS };
#define AHEAD_BLOCK 32
#define AHEAD_ROWS 16
typedef struct {
    int64_t v[AHEAD_DISTS][AHEAD_ROWS][AHEAD_BLOCK];
    uint32_t tag[AHEAD_DISTS][AHEAD_ROWS]; /* the block in each row, + 1; 0: none */
} draw_ahead;

/* One hop: its sender, handler, provider and database, resolved from the
 * board, and their state. A "copy" is one message at this hop's broker (a
 * job's publishes, or its events, may make several); without copies, copy
 * c is job c and the copy arrays are NULL. */
typedef struct {
    int index; /* 0 or 1 */
    sim_hop_topology t;
    bool broker_fed, at_most_once, external, transactional;
    sim_idempotency policy;
    uint32_t tries;
    int64_t timer_us, deliver_us, reply_us;
    double backoff_factor;  /* > 1: the timer of try k is timer_us * factor^(k-1) ... */
    int64_t backoff_max_us; /* ... at most this */
    bool jitter;            /* full jitter: drawn uniformly below that */
    int64_t call_us, call_reply_us, call_timeout_us, restart_us;
    int64_t key_ttl_us, provider_ttl_us, lease_us, dedup_window_us;
    double lose_request, lose_reply, call_lose_request, call_lose_reply;
    double crash_p, crash_commit_p, fail_p;
    double handler_fail_p; /* the handler's own fail: a delivery fails before the effect */
    int dlq_part;       /* the broker's dead-letter-queue, or -1: a message out of tries is dropped */
    int64_t *first_us;  /* with a dead-letter queue, per copy: when its first delivery was sent */
    sim_dist work, write, call;
    int lane0, work_lane, write_lane, call_reply_lane; /* lanes of this hop */
    unsigned ev0;                                      /* EV_HOP_STRIDE * index */
    uint32_t d0;                                       /* D_HOP0 + D_HOP_STRIDE * index */
    int effect_part; /* where a local effect lands: the database, else the handler */
    int effect_peer;
    /* publishing the event to the second hop (first hop of a two-hop board) */
    bool publishes;
    sim_publish publish;
    int64_t event_us, event_confirm_us, relay_every_us;
    double event_lose_request, event_lose_reply;
    /* per copy; n_copies starts at jobs (copy j of job j is taken on demand) */
    uint32_t *copy_job; /* NULL: copy c is job c */
    uint32_t *copy_msg; /* message ID of each copy; NULL: the job's own */
    uint32_t *copy_pub; /* the publish token behind each copy (second hop) */
    uint16_t *copy_no;  /* which copy of its job, 0-based */
    uint16_t *cur_try;
    uint16_t *mflags; /* NULL: per-copy flags live in jf */
    size_t n_copies, cap_copies;
    /* per message ID (jobs of them, more with per-publish IDs) */
    int64_t *key_rec;  /* when the handler (or, provider-key, the provider) recorded it */
    int64_t *claim_us; /* key-claimed-first: when it was claimed */
    int64_t *seen_us;  /* dedup_window: when the broker took it */
    size_t n_ids, cap_ids;
    /* per job */
    uint16_t *effects, *jf;
    uint16_t *live;     /* first hop with copies: copies not yet final */
    uint16_t *n_copied; /* copies taken so far, for copy_no */
    /* the handler */
    slot *slots;
    uint32_t *free_slots, n_free, concurrency;
    uint32_t low_free; /* the fewest free since the last reset (0 before the first) */
    uint32_t epoch; /* bumped at each crash */
    bool down, pumping;
    ring waiting;      /* broker's queue (broker-fed) or the service's (users-fed) */
    draw_ahead *ahead; /* NULL: each duration drawn when it is needed (a hop with copies) */
} sim_hop;

struct sim_model {
    const sim_board *b;
    sim_topology t;
    uint32_t jobs;
    int n_hops;
    sim_op op;
    sim_arrivals arrivals;
    int64_t over_us;
    double repeat_share, poison;
    sim_hop hop[SIM_MAX_HOPS];
    /* the users publishing to the first broker */
    int64_t publish_us; /* transit of a publish */
    bool pub_model;     /* publishes are confirmed and retried (MODEL.md "The publisher") */
    sim_message_id message_id;
    uint32_t pub_tries;
    int64_t pub_timeout_us, confirm_us;
    double pub_lose_request, pub_lose_reply;
    uint16_t *pub_try;    /* per job, with pub_model */
    uint16_t *pub_flags;  /* per job: P_*; also with an outbox (P_LRO_EVENT) */
    uint32_t next_msg_id; /* per-publish IDs after the jobs' own */
    /* publish tokens of the first handler's inline event publishes */
    uint8_t *token_ghost; /* 1: the publishing attempt did not commit */
    size_t n_tokens, cap_tokens;
    /* the outbox of the first handler */
    uint32_t *ob_job;
    int64_t *ob_at; /* when each record was committed */
    uint8_t *ob_state;
    size_t ob_n, ob_cap;
    uint32_t *ob_pending; /* entries the relay still sends */
    uint32_t *relay_sent; /* per job: the relay's publishes of its records so far */
    size_t ob_pn, ob_pcap;
    bool relay_scheduled;
    /* per job */
    int64_t *at_us; /* arrival time; latency once it succeeded */
    uint32_t *bkey; /* business key (index of the original job); NULL: no repeats */
    int64_t *dl_us; /* each dead-lettered message's time from first delivery to the queue */
    size_t dl_n, dl_cap;
    /* the run */
    uint64_t key; /* the replication's stream (rng_stream_key) */
    sim_queue q;
    sim_trace_buf *trace;
    sim_counts k;
    int64_t now;
    double arrival_clock; /* poisson: exact arrival time in us */
    bool oom;
    /* a proof's run: every random choice is taken from this list instead
     * of the random numbers (choice.h; MODEL.md "Proofs"); NULL samples */
    sim_choices *drive;
};

static inline uint32_t bkey_of(const sim_model *m, uint32_t job)
{
    return m->bkey ? m->bkey[job] : job;
}

static inline uint32_t job_of(const sim_hop *h, uint32_t c)
{
    return h->copy_job ? h->copy_job[c] : c;
}

/* The message ID a copy carries (what an ID check looks up). */
static inline uint32_t msg_of(const sim_hop *h, uint32_t c)
{
    return h->copy_msg ? h->copy_msg[c] : job_of(h, c);
}

/* Copy c's try at its hop: who draws for it. */
uint64_t copy_who(const sim_hop *h, uint32_t c, uint32_t try_no);

/* The list a proof's run takes its choices from, or NULL (a sampled run;
 * the WebAssembly module replays a proof's run with it too). */
static inline sim_choices *model_drive(const sim_model *m)
{
    return m->drive;
}

/* The model's random choices, each here, so that a proof can take them
 * from its list (m->drive) where a sampled run draws them: */
/* a uniform on [0, 1) drawn at (who, what), counted in k.draws (driven: 0
 * when the fault or repeat happens, else 1); */
double model_unit(sim_model *m, uint64_t who, uint32_t what);
/* job's poisson gap before it, of this mean (driven: its median or its 99th
 * percentile); */
double model_gap(sim_model *m, uint32_t job, double mean_us);
/* a uniform integer on [0, n) drawn at (who, what) (driven: any of them). */
uint64_t model_below(sim_model *m, uint64_t who, uint32_t what, uint64_t n);
/* Copy c's duration at try try_no (who: copy_who of them) from the hop's
 * dist `which` (AHEAD_..., d, drawn for what) when it is not constant,
 * counted likewise. A first try's comes from the hop's draws ahead, if it
 * has them: the draw at (who_of(c, 0, 1), what), its block drawn when it is
 * not there. Driven: the median or the 99th percentile. */
int64_t model_hop_draw(sim_model *m, sim_hop *h, int which, const sim_dist *d, uint32_t what,
                       uint32_t c, uint32_t try_no);

/* True with probability p, drawn at (who, what). 0 and 1 draw nothing;
 * inline: the model asks this at every step, most often with p = 0. */
static inline bool model_chance(sim_model *m, uint64_t who, uint32_t what, double p)
{
    if (p <= 0)
        return false;
    if (p >= 1)
        return true;
    return model_unit(m, who, what) < p;
}

/* The same for copy c's try try_no at hop h: who (copy_who) is worked
 * out only when a number is drawn. */
static inline bool hop_chance(sim_model *m, const sim_hop *h, uint32_t c, uint32_t try_no,
                              uint32_t what, double p)
{
    if (p <= 0)
        return false;
    if (p >= 1)
        return true;
    return model_unit(m, copy_who(h, c, try_no), what) < p;
}

/* lose_reply_of: is this the first reply of a listed job (flags holds
 * `listed` and, one bit up, "used")? Marks it used either way. */
static inline bool model_lro_take(uint16_t *flags, uint16_t listed)
{
    uint16_t used = (uint16_t)(listed << 1);
    bool first = (*flags & (listed | used)) == listed;
    *flags |= used;
    return first;
}

/* That duration; a constant draws nothing. Natively, a first try's whose
 * block of draws ahead is there is read here, without the call: what
 * model_hop_draw would return, counted as it would count it. */
static inline int64_t hop_duration(sim_model *m, sim_hop *h, int which, const sim_dist *d,
                                   uint32_t what, uint32_t c, uint32_t try_no)
{
    if (d->sigma == 0)
        return d->constant_us;
#ifndef __wasm__
    draw_ahead *a = h->ahead;
    uint32_t block = c / AHEAD_BLOCK;
    if (try_no == 1 && a && !model_drive(m) && a->tag[which][block % AHEAD_ROWS] == block + 1) {
        m->k.draws++;
        return a->v[which][block % AHEAD_ROWS][c % AHEAD_BLOCK];
    }
#endif
    return model_hop_draw(m, h, which, d, what, c, try_no);
}

static inline uint16_t *mflags_of(sim_hop *h, uint32_t c)
{
    return h->mflags ? &h->mflags[c] : &h->jf[c];
}

/* Schedule an event delay after now (queue_push). In the WebAssembly
 * module one copy for the model's files, so that it holds the queue's push
 * once; natively inline at each place, always (every event passes through
 * it; left to the compiler, it made one copy per file and called it). */
#ifdef __wasm__
void model_push(sim_model *m, int lane, int64_t delay, unsigned kind, uint32_t job, uint32_t arg,
                uint32_t gen, uint32_t slot_i);
#else
__attribute__((always_inline)) static inline void model_push(sim_model *m, int lane, int64_t delay,
                                                             unsigned kind, uint32_t job,
                                                             uint32_t arg, uint32_t gen,
                                                             uint32_t slot_i)
{
    queue_push(&m->q, lane, m->now + delay, kind, job, arg, gen, slot_i);
}
#endif

/* ---- model_state.c */

/* The 128-bit fingerprint (out) of the model between events, next the
 * event it takes next: equal fingerprints, equal rest of the run, as far
 * as a proof looks (its choices, its events, its fault counts). tmp is
 * cap bytes of room; false (no fingerprint) when the queue needs more. */
bool model_fingerprint(const sim_model *m, const sim_event *next, void *tmp, size_t cap,
                       uint64_t out[2]);

/* ---- model.c: the hops */

/* Record a trace entry, when the run keeps a trace (model_run.c). copy is
 * 0-based. */
void model_trace(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer,
                 int64_t detail, int copy);
static inline void tr(sim_model *m, sim_trace_kind kind, uint32_t job, int part, int peer,
                      int64_t detail)
{
    if (m->trace)
        model_trace(m, kind, job, part, peer, detail, 0);
}
/* The same for an entry about copy c of hop h. */
static inline void trc(sim_model *m, const sim_hop *h, sim_trace_kind kind, uint32_t c, int part,
                       int peer, int64_t detail)
{
    if (m->trace)
        model_trace(m, kind, job_of(h, c), part, peer, detail, h->copy_no ? h->copy_no[c] : 0);
}

/* Free every handler slot of a hop (a start, or a crash). */
void model_reset_slots(sim_hop *h);
/* Schedule the first arrival of a reset model. */
void model_start(sim_model *m);
/* Why model_events stopped. */
typedef enum {
    MODEL_STOP_DONE,   /* no event left */
    MODEL_STOP_EVENTS, /* the next event would pass max_events */
    MODEL_STOP_TIME,   /* the next event is past TIME_HORIZON_US */
    MODEL_STOP_MEMORY, /* m->oom or m->q.oom */
} model_stop;
/* Take the started model's events from the queue one by one, each
 * handled at its time (m->now), counted in k.events, until none is left or
 * a limit stops the run. */
model_stop model_events(sim_model *m, int64_t max_events);
/* Queue copy c at its hop's broker and send what fits. */
void model_to_broker(sim_model *m, sim_hop *h, uint32_t c);
/* The job's outcome: a sender of some copy gave up, or a copy was lost;
 * the job is final when nothing of it is still under way. */
void model_job_settle(sim_model *m, uint32_t job);
void model_job_error(sim_model *m, uint32_t job);
/* Copy c at hop h is done (model_out.c): acknowledged (at-most-once:
 * finished), given up by its sender (its tries ran out), or lost on the
 * way (at-most-once; part is where). */
void model_copy_succeeded(sim_model *m, sim_hop *h, uint32_t c);
void model_copy_gave_up(sim_model *m, sim_hop *h, uint32_t c);
void model_copy_dropped(sim_model *m, sim_hop *h, uint32_t c, int part);
bool model_key_live(const sim_model *m, int64_t rec, int64_t ttl);
/* Is this reply lost? lose_reply_of loses a job's first reply on the link
 * (flags holds `listed` and, one bit up, "used"); else a draw at (who, what). */
bool model_reply_lost(sim_model *m, uint16_t *flags, uint16_t listed, double p, uint64_t who,
                      uint32_t what);

/* ---- model_pub.c: publishers, the brokers' intake, the outbox */

/* The users publish job's next try to the first broker. */
void pub_publish(sim_model *m, uint32_t job);
void pub_on_confirm(sim_model *m, uint32_t job, uint32_t try_no);
void pub_on_timer(sim_model *m, uint32_t job, uint32_t try_no);
/* A publish reaches hop h's broker. */
void pub_at_broker(sim_model *m, sim_hop *h, const sim_event *e);
/* The first handler publishes copy c's event now (before or after its
 * commit); the token goes into slot s. */
void pub_event(sim_model *m, sim_hop *h, uint32_t c, uint32_t s);
/* The event of copy c is written to the outbox with the commit. */
void pub_outbox_write(sim_model *m, sim_hop *h, uint32_t c, local_change *ch);
void pub_outbox_cancel(sim_model *m, uint32_t entry);
void pub_on_relay(sim_model *m);
void pub_on_relay_confirm(sim_model *m, const sim_event *e);
/* Mark a publish token's attempt as one that did not commit. */
void pub_token_ghost(sim_model *m, uint32_t token);
/* A new copy of job at hop h (message ID msg, token), or NO_JOB on overflow. */
uint32_t model_new_copy(sim_model *m, sim_hop *h, uint32_t job, uint32_t msg, uint32_t token);
/* Make room for message IDs below n at hop h. */
bool model_ensure_ids(sim_model *m, sim_hop *h, size_t n);

#endif

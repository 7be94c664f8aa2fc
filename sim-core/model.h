/* model.h — the state of one simulation run, shared by the event handlers
 * (model.c) and the setup, run loop and tally (model_run.c). Internal to
 * sim-core. */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H

#include "queue.h"
#include "rng.h"
#include "sim_internal.h"

#include <stdbool.h>
#include <stdint.h>

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

static inline uint32_t bkey_of(const sim_model *m, uint32_t job)
{
    return m->bkey ? m->bkey[job] : job;
}

/* Free every handler slot (a start, or a crash). */
void model_reset_slots(sim_model *m);
/* Schedule the first arrival of a reset model. */
void model_start(sim_model *m);
/* Handle one event taken from the queue at m->now. */
void model_dispatch(sim_model *m, const sim_event *e);

#endif

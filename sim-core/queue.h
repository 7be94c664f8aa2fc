/* queue.h — the simulator's pending events, taken in (time, insertion) order.
 * A binary min-heap holds events with random delays; "lanes" are FIFO rings
 * for events scheduled a constant delay ahead (timers, link transit), whose
 * times arrive already sorted. A lane push that would break its order goes
 * to the heap instead, so the order taken is always exactly (time, seq).
 *
 * Push and pop are inline (every event passes through both, and the model
 * lives in other files); only growing an array leaves the header. The time
 * and order of each lane's first event are kept side by side, so choosing
 * the next event reads two small arrays instead of every ring. */
#ifndef SIM_QUEUE_H
#define SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One pending event: 32 bytes, no pointers. */
typedef struct {
    int64_t t_us;   /* simulated time it happens */
    uint64_t order; /* insertion sequence << 8 | kind: breaks ties by insertion */
    uint32_t job;   /* 0-based job index */
    uint32_t arg;   /* try number, or a reason */
    uint32_t gen;   /* generation of the handler slot it belongs to */
    uint32_t slot;  /* handler slot it occupies */
} sim_event;

#define QUEUE_LANES 24
#define QUEUE_HEAP (-1) /* lane argument: no lane */

typedef struct {
    sim_event *v;
    size_t head, n, cap; /* cap is 0 or a power of two */
} queue_lane;

typedef struct {
    sim_event *heap;
    size_t n, cap;
    queue_lane lanes[QUEUE_LANES];
    int64_t head_t[QUEUE_LANES];      /* each busy lane's first event: time ... */
    uint64_t head_order[QUEUE_LANES]; /* ... and order */
    uint64_t next_seq;
    unsigned busy_lanes; /* bit i: lane i holds events */
    bool oom;            /* a push failed for want of memory; the event was dropped */
} sim_queue;

static inline unsigned event_kind(const sim_event *e)
{
    return (unsigned)(e->order & 0xffu);
}

/* An empty queue (no allocation until the first push). */
void queue_init(sim_queue *q);
/* Frees the queue's arrays; the struct may be reused after queue_init. */
void queue_free(sim_queue *q);
/* Drop every pending event and restart the sequence; keeps the memory. */
void queue_clear(sim_queue *q);

size_t queue_size(const sim_queue *q);

/* Out of line: double an array (false and q->oom when memory runs out). */
bool queue_heap_grow(sim_queue *q);
bool queue_lane_grow(sim_queue *q, queue_lane *l);

/* (time, order) as one unsigned 128-bit number: times are never negative,
 * so one comparison, without branches, orders two events. */
__extension__ typedef unsigned __int128 queue_key;

static inline queue_key queue_key_of(int64_t t, uint64_t order)
{
    return (queue_key)(uint64_t)t << 64 | order;
}

static inline bool queue_before(int64_t at, uint64_t ao, int64_t bt, uint64_t bo)
{
    return queue_key_of(at, ao) < queue_key_of(bt, bo);
}

static inline void queue_heap_push(sim_queue *q, const sim_event *e)
{
    if (q->n == q->cap && !queue_heap_grow(q))
        return;
    sim_event *h = q->heap;
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!queue_before(e->t_us, e->order, h[parent].t_us, h[parent].order))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = *e;
}

/* The earlier of node i's children in a heap of n, or n when it has none. */
static inline size_t queue_heap_child(const sim_event *h, size_t n, size_t i)
{
    size_t c = 2 * i + 1;
    if (c + 1 < n && queue_before(h[c + 1].t_us, h[c + 1].order, h[c].t_us, h[c].order))
        c++;
    return c < n ? c : n;
}

static inline void queue_heap_pop(sim_queue *q)
{
    sim_event *h = q->heap;
    size_t n = --q->n;
    if (n == 0)
        return;
    sim_event last = h[n];
    size_t i = 0;
#ifdef __wasm__
    /* the last event sifted down from the top (the module: its size) */
    for (size_t c; (c = queue_heap_child(h, n, i)) < n; i = c) {
        if (!queue_before(h[c].t_us, h[c].order, last.t_us, last.order))
            break;
        h[i] = h[c];
    }
#else
    /* Floyd's: the hole goes down to a leaf by the earlier child (one
     * comparison a level), then the last event rises from there (it is
     * among the latest, so it mostly stays); 3 % fewer instructions in all
     * than the sift-down */
    for (size_t c; (c = queue_heap_child(h, n, i)) < n; i = c)
        h[i] = h[c];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!queue_before(last.t_us, last.order, h[parent].t_us, h[parent].order))
            break;
        h[i] = h[parent];
        i = parent;
    }
#endif
    h[i] = last;
}

/* Schedule an event. lane is 0..QUEUE_LANES-1 for events pushed a constant
 * delay ahead, or QUEUE_HEAP. On allocation failure sets q->oom. */
__attribute__((always_inline)) static inline void queue_push(sim_queue *q, int lane, int64_t t_us,
                                                             unsigned kind, uint32_t job,
                                                             uint32_t arg, uint32_t gen,
                                                             uint32_t slot)
{
    sim_event e = {t_us, (q->next_seq++ << 8) | (kind & 0xffu), job, arg, gen, slot};
    if (lane >= 0 && lane < QUEUE_LANES) {
        queue_lane *l = &q->lanes[lane];
        if (l->n == 0) {
            if (l->cap == 0 && !queue_lane_grow(q, l))
                return;
            l->v[l->head] = e;
            l->n = 1;
            q->head_t[lane] = e.t_us;
            q->head_order[lane] = e.order;
            q->busy_lanes |= 1u << lane;
            return;
        }
        if (l->v[(l->head + l->n - 1) & (l->cap - 1)].t_us <= t_us) {
            if (l->n == l->cap && !queue_lane_grow(q, l))
                return;
            l->v[(l->head + l->n) & (l->cap - 1)] = e;
            l->n++;
            return;
        }
        /* out of order: the heap takes it */
    }
    queue_heap_push(q, &e);
}

/* Keep the next place in the order for an event that may be pushed later,
 * or never; either way the events pushed after it keep the order they would
 * have had. To push it: next_seq set to the place for one push to the heap
 * (QUEUE_HEAP: a lane takes only events newer than its last), then put back. */
static inline uint64_t queue_keep_place(sim_queue *q)
{
    return q->next_seq++;
}

/* Take the earliest event (ties: the one pushed first). False when empty. */
static inline bool queue_pop(sim_queue *q, sim_event *out)
{
    int from = QUEUE_HEAP;
    /* nothing comes after (max, max): an empty heap loses to any lane */
    queue_key best = q->n ? queue_key_of(q->heap[0].t_us, q->heap[0].order) : ~(queue_key)0;
    for (unsigned busy = q->busy_lanes; busy; busy &= busy - 1) {
        int i = __builtin_ctz(busy);
        queue_key k = queue_key_of(q->head_t[i], q->head_order[i]);
        if (k < best) {
            best = k;
            from = i;
        }
    }
    if (from == QUEUE_HEAP) {
        if (!q->n)
            return false;
        *out = q->heap[0];
        queue_heap_pop(q);
        return true;
    }
    queue_lane *l = &q->lanes[from];
    *out = l->v[l->head];
    l->head = (l->head + 1) & (l->cap - 1);
    if (--l->n == 0) {
        q->busy_lanes &= ~(1u << from);
    } else {
        q->head_t[from] = l->v[l->head].t_us;
        q->head_order[from] = l->v[l->head].order;
    }
    return true;
}

#endif

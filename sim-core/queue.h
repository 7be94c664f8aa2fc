/* queue.h — the simulator's pending events, taken in (time, insertion) order.
 * A 4-ary min-heap holds events with random delays; "lanes" are FIFO rings
 * for events scheduled a constant delay ahead (timers, link transit), whose
 * times arrive already sorted. A lane push that would break its order goes
 * to the heap instead, so the order taken is always exactly (time, seq). */
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

#define QUEUE_LANES 8
#define QUEUE_HEAP (-1) /* lane argument: no lane */

typedef struct {
    sim_event *v;
    size_t head, n, cap; /* cap is 0 or a power of two */
} queue_lane;

typedef struct {
    sim_event *heap;
    size_t n, cap;
    queue_lane lanes[QUEUE_LANES];
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

/* Schedule an event. lane is 0..QUEUE_LANES-1 for events pushed a constant
 * delay ahead, or QUEUE_HEAP. On allocation failure sets q->oom. */
void queue_push(sim_queue *q, int lane, int64_t t_us, unsigned kind, uint32_t job, uint32_t arg,
                uint32_t gen, uint32_t slot);

/* Take the earliest event (ties: the one pushed first). False when empty. */
bool queue_pop(sim_queue *q, sim_event *out);

size_t queue_size(const sim_queue *q);

#endif

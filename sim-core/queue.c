/* queue.c — the queue's slow paths (see queue.h): setup, and growing its
 * arrays. No allocation per event: arrays grow by doubling and are kept
 * between runs. */
#include "queue.h"
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

void queue_init(sim_queue *q)
{
    memset(q, 0, sizeof *q);
}

void queue_free(sim_queue *q)
{
    free(q->heap);
    for (int i = 0; i < QUEUE_LANES; i++)
        free(q->lanes[i].v);
    queue_init(q);
}

void queue_clear(sim_queue *q)
{
    q->n = 0;
    for (int i = 0; i < QUEUE_LANES; i++) {
        q->lanes[i].head = 0;
        q->lanes[i].n = 0;
    }
    q->next_seq = 0;
    q->busy_lanes = 0;
    q->oom = false;
}

size_t queue_size(const sim_queue *q)
{
    size_t n = q->n;
    for (int i = 0; i < QUEUE_LANES; i++)
        n += q->lanes[i].n;
    return n;
}

bool queue_heap_grow(sim_queue *q)
{
    if (!sim_grow(&q->heap, &q->cap, sizeof *q->heap, 256)) {
        q->oom = true;
        return false;
    }
    return true;
}

bool queue_lane_grow(sim_queue *q, queue_lane *l)
{
    if (!sim_ring_grow(&l->v, &l->head, l->n, &l->cap, sizeof *l->v, 256)) {
        q->oom = true;
        return false;
    }
    return true;
}

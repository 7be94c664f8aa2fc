/* queue.c — 4-ary min-heap plus FIFO lanes of pending events (see queue.h).
 * No allocation per event: arrays grow by doubling and are kept between runs. */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

static bool before(const sim_event *a, const sim_event *b)
{
    return a->t_us < b->t_us || (a->t_us == b->t_us && a->order < b->order);
}

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

static void heap_push(sim_queue *q, const sim_event *e)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 256;
        sim_event *v = realloc(q->heap, cap * sizeof *v);
        if (!v) {
            q->oom = true;
            return;
        }
        q->heap = v;
        q->cap = cap;
    }
    sim_event *h = q->heap;
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!before(e, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = *e;
}

static void heap_pop(sim_queue *q)
{
    sim_event *h = q->heap;
    size_t n = --q->n;
    if (n == 0)
        return;
    sim_event last = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t best = c;
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t j = c + 1; j < end; j++)
            if (before(&h[j], &h[best]))
                best = j;
        if (!before(&h[best], &last))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = last;
}

static bool lane_push(queue_lane *l, const sim_event *e, bool *oom)
{
    if (l->n > 0) {
        const sim_event *tail = &l->v[(l->head + l->n - 1) & (l->cap - 1)];
        if (e->t_us < tail->t_us)
            return false; /* out of order: the heap takes it */
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        sim_event *v = malloc(cap * sizeof *v);
        if (!v) {
            *oom = true;
            return true;
        }
        for (size_t i = 0; i < l->n; i++) /* unwrap the ring */
            v[i] = l->v[(l->head + i) & (l->cap - 1)];
        free(l->v);
        l->v = v;
        l->cap = cap;
        l->head = 0;
    }
    l->v[(l->head + l->n) & (l->cap - 1)] = *e;
    l->n++;
    return true;
}

void queue_push(sim_queue *q, int lane, int64_t t_us, unsigned kind, uint32_t job, uint32_t arg,
                uint32_t gen, uint32_t slot)
{
    sim_event e = {t_us, (q->next_seq++ << 8) | (kind & 0xffu), job, arg, gen, slot};
    if (lane >= 0 && lane < QUEUE_LANES && lane_push(&q->lanes[lane], &e, &q->oom)) {
        q->busy_lanes |= 1u << lane;
        return;
    }
    heap_push(q, &e);
}

bool queue_pop(sim_queue *q, sim_event *out)
{
    const sim_event *best = q->n ? &q->heap[0] : NULL;
    int from = QUEUE_HEAP;
    for (unsigned busy = q->busy_lanes; busy; busy &= busy - 1) {
        int i = 0;
        while (!(busy & (1u << i))) /* lowest set bit; at most 8 steps */
            i++;
        queue_lane *l = &q->lanes[i];
        if (!best || before(&l->v[l->head], best)) {
            best = &l->v[l->head];
            from = i;
        }
    }
    if (!best)
        return false;
    *out = *best;
    if (from == QUEUE_HEAP) {
        heap_pop(q);
    } else {
        queue_lane *l = &q->lanes[from];
        l->head = (l->head + 1) & (l->cap - 1);
        if (--l->n == 0)
            q->busy_lanes &= ~(1u << from);
    }
    return true;
}

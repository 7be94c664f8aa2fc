/* heap.c — the reference for the simulator bench: a bare discrete-event loop
 * on a binary min-heap, as small as a DES kernel gets. It holds a fixed
 * number of pending events (the "hold" model): each step takes the earliest
 * event and schedules one new event a random delay later, ordered by (time,
 * insertion sequence) like sim-core's queue. Per event it does nothing else,
 * so its rate is the ceiling a model on the same pending-event count can
 * approach.
 *
 * usage: heap PENDING EVENTS    -> one JSON line on stdout */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
    int64_t t;
    uint64_t seq;
    uint32_t a, b; /* payload, the size of a small model's event */
    uint64_t pad;
} event;

static event *h;
static size_t n;

static int before(const event *x, const event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void push(event e)
{
    size_t i = n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static event pop(void)
{
    event top = h[0];
    event last = h[--n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (n)
        h[i] = last;
    return top;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void) /* xorshift64 */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    size_t pending = argc > 1 ? (size_t)atoll(argv[1]) : 2000;
    long long events = argc > 2 ? atoll(argv[2]) : 10000000;
    if (pending < 1)
        pending = 1;
    h = malloc((pending + 1) * sizeof *h);
    if (!h)
        return 3;
    uint64_t seq = 0;
    /* delays uniform on [0, 2 * mean): mean spacing between events 1000 us */
    uint64_t span = 2000 * (uint64_t)pending;
    for (size_t i = 0; i < pending; i++)
        push((event){(int64_t)(next() % span), seq++, (uint32_t)i, 0, 0});
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t check = 0;
    for (long long k = 0; k < events; k++) {
        event e = pop();
        check += e.a;
        push((event){e.t + (int64_t)(next() % span), seq++, e.a, e.b + 1, 0});
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("{\"pending\":%zu,\"events\":%lld,\"seconds\":%.6f,\"events_per_s\":%.0f,"
           "\"check\":%llu}\n",
           pending, events, s, (double)events / s, (unsigned long long)(check & 0xffff));
    free(h);
    return 0;
}

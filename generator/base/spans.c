/* spans.c — the build's timeline behind BOARDPRESS_SPANS (spans.h): spans
 * kept in memory under a lock (a build has hundreds, a large site some
 * thousands: a lock per job is nothing beside the job), sorted and written
 * at the end. */
#include "base/spans.h"
#include "base/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int thread;
    double t0, t1; /* seconds since spans_begin */
    const char *kind;
    char *name;
} span;

static struct {
    atomic_bool on;
    char *path;
    double zero; /* clock_now_s at spans_begin */
    pthread_mutex_t lock;
    span *v;
    size_t n, cap;
} S = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local int this_thread;

void spans_begin(void)
{
    const char *path = getenv("BOARDPRESS_SPANS");
    if (!path || !*path || atomic_load(&S.on))
        return;
    S.path = xstrdup(path);
    S.zero = clock_now_s();
    atomic_store(&S.on, true);
}

bool spans_on(void)
{
    return atomic_load_explicit(&S.on, memory_order_relaxed);
}

double spans_now(void)
{
    return spans_on() ? clock_now_s() - S.zero : 0;
}

void spans_thread_set(int thread)
{
    this_thread = thread;
}

void span_add(const char *kind, const char *name, double t0)
{
    if (!spans_on())
        return;
    span sp = {this_thread, t0, clock_now_s() - S.zero, kind, xstrdup(name ? name : "")};
    pthread_mutex_lock(&S.lock);
    S.v = xgrow(S.v, sizeof *S.v, &S.cap, S.n + 1);
    S.v[S.n++] = sp;
    pthread_mutex_unlock(&S.lock);
}

static int by_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return x->thread - y->thread;
}

int spans_end(void)
{
    if (!spans_on())
        return 0;
    atomic_store(&S.on, false);
    qsort(S.v, S.n, sizeof *S.v, by_start);
    FILE *f = fopen(S.path, "w");
    int rc = f ? 0 : -1;
    for (size_t i = 0; i < S.n; i++) {
        if (f)
            fprintf(f, "%d\t%.3f\t%.3f\t%s\t%s\n", S.v[i].thread, S.v[i].t0 * 1e3, S.v[i].t1 * 1e3,
                    S.v[i].kind, S.v[i].name);
        free(S.v[i].name);
    }
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "boardpress: cannot write the spans to %s (BOARDPRESS_SPANS)\n", S.path);
    free(S.v);
    free(S.path);
    S.v = NULL;
    S.path = NULL;
    S.n = S.cap = 0;
    return rc;
}

/* cache.c — results cache files: "BPRC3\n", the key's length and bytes (to
 * rule out hash collisions), then the result, all little-endian-as-stored
 * on this machine (the cache is local; a different machine just misses),
 * then a checksum of everything before it (cache_seal). */
#include "run/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "BPRC3\n"

#ifndef BP_SIM_HASH
#define BP_SIM_HASH "unknown"
#endif

static void put_bytes(buf *b, const void *p, size_t n)
{
    buf_put(b, p, n);
}

static void put_i64(buf *b, int64_t v)
{
    put_bytes(b, &v, sizeof v);
}

static void put_f64(buf *b, double v)
{
    put_bytes(b, &v, sizeof v);
}

static void put_latency(buf *b, sim_latency l)
{
    put_i64(b, l.median_us);
    put_i64(b, l.p99_us);
}

void cache_key(buf *key, const sim_board *b, const sim_limits *lim, bool want_trace)
{
    buf_puts(key, "boardpress-sim " SIMCORE_VERSION " " BP_SIM_HASH "\n");
    put_i64(key, (int64_t)b->seed);
    put_i64(key, b->replications);
    put_f64(key, b->until);
    put_i64(key, b->until_max);
    put_i64(key, want_trace);
    put_i64(key, lim->max_jobs);
    put_i64(key, lim->max_events);
    put_i64(key, lim->max_board_events);
    put_i64(key, lim->max_replications);
    put_i64(key, (int64_t)lim->max_trace);
    put_i64(key, (int64_t)b->n_parts);
    for (size_t i = 0; i < b->n_parts; i++) {
        const sim_part *p = &b->parts[i];
        put_i64(key, p->kind);
        put_f64(key, p->vcpu);
        put_f64(key, p->gb);
        put_i64(key, p->external);
        put_f64(key, p->fixed_usd_month);
        put_i64(key, p->tries);
        put_i64(key, p->redelivery_after_us);
        put_f64(key, p->backoff_factor);
        put_i64(key, p->backoff_max_us);
        put_i64(key, p->backoff_jitter);
        put_i64(key, p->timeout_us);
        put_i64(key, p->delivery);
        put_i64(key, p->message_id);
        put_i64(key, p->dedup_window_us);
        put_i64(key, p->dead_letter);
        put_i64(key, p->concurrency);
        put_latency(key, p->work);
        put_i64(key, p->idempotency);
        put_i64(key, p->key_ttl_us);
        put_f64(key, p->crash_after_effect);
        put_f64(key, p->crash_after_commit);
        put_i64(key, p->restart_us);
        put_i64(key, p->lease_us);
        put_i64(key, p->publish);
        put_i64(key, p->relay_every_us);
        put_latency(key, p->call);
        put_f64(key, p->fail);
        put_latency(key, p->write);
    }
    put_i64(key, (int64_t)b->n_links);
    for (size_t i = 0; i < b->n_links; i++) {
        const sim_link *l = &b->links[i];
        put_i64(key, l->from);
        put_i64(key, l->to);
        put_i64(key, l->protocol);
        put_i64(key, l->rtt_us);
        put_f64(key, l->reply_round_trips);
        put_f64(key, l->lose_request);
        put_f64(key, l->lose_reply);
        put_i64(key, (int64_t)l->n_lose_reply_of);
        for (size_t k = 0; k < l->n_lose_reply_of; k++)
            put_i64(key, l->lose_reply_of[k]);
        put_i64(key, l->transactional);
    }
    const sim_traffic *t = &b->traffic;
    put_i64(key, t->from);
    put_i64(key, t->jobs);
    put_i64(key, t->over_us);
    put_i64(key, t->op);
    put_i64(key, t->arrivals);
    put_f64(key, t->repeat_share);
    put_f64(key, t->poison);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        put_i64(key, b->goals[m].has_max);
        put_i64(key, b->goals[m].has_min);
        put_f64(key, b->goals[m].max);
        put_f64(key, b->goals[m].min);
    }
    put_i64(key, b->expect);
    put_f64(key, b->prices.vcpu_usd_month);
    put_f64(key, b->prices.gb_usd_month);
}

static char *cache_path(const char *dir, const buf *key, const char *suffix)
{
    return xasprintf("%s/%016llx%s", dir, (unsigned long long)hash64(key->data, key->len, 0),
                     suffix);
}

static void put_result(buf *b, const sim_result *r)
{
    put_i64(b, r->replications);
    put_bytes(b, r->m, sizeof r->m);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        put_i64(b, r->goals[m].present);
        put_f64(b, r->goals[m].worst);
        put_i64(b, r->goals[m].pass);
    }
    put_i64(b, r->all_goals_pass);
    put_i64(b, r->expect_ok);
    put_i64(b, (int64_t)r->seed);
    put_i64(b, r->latency_samples);
    put_i64(b, r->deterministic);
    put_i64(b, r->random_faults);
    put_i64(b, r->until_met);
    put_i64(b, r->values != NULL);
    if (r->values)
        put_bytes(b, r->values, (size_t)r->replications * SIM_M_COUNT * sizeof *r->values);
    put_i64(b, r->trace_truncated);
    put_i64(b, (int64_t)r->n_trace);
    for (size_t i = 0; i < r->n_trace; i++) {
        const sim_trace_entry *e = &r->trace[i];
        put_i64(b, e->t_us);
        put_i64(b, e->kind);
        put_i64(b, e->job);
        put_i64(b, e->part);
        put_i64(b, e->peer);
        put_i64(b, e->detail);
        put_i64(b, e->copy);
    }
}

typedef struct {
    const char *p;
    size_t left;
    bool bad;
} reader;

static void get(reader *r, void *dst, size_t n)
{
    if (r->bad || r->left < n) {
        r->bad = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p, n);
    r->p += n;
    r->left -= n;
}

static int64_t get_i64(reader *r)
{
    int64_t v;
    get(r, &v, sizeof v);
    return v;
}

static double get_f64(reader *r)
{
    double v;
    get(r, &v, sizeof v);
    return v;
}

void cache_seal(buf *b)
{
    uint64_t sum = hash64_words(b->data, b->len);
    buf_put(b, (const char *)&sum, sizeof sum);
}

bool cache_unseal(const char *data, size_t *len)
{
    uint64_t sum;
    if (*len < sizeof sum)
        return false;
    *len -= sizeof sum;
    memcpy(&sum, data + *len, sizeof sum);
    return hash64_words(data, *len) == sum;
}

bool cache_dir_usable(const char *dir, diag *d)
{
    struct stat st;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        diag_warning(d, NULL,
                     "not using the cache in %s: cannot make it (%s); the build runs without it",
                     dir, strerror(errno));
        return false;
    }
    const char *why = NULL;
    if (lstat(dir, &st) != 0)
        why = strerror(errno);
    else if (S_ISLNK(st.st_mode) && stat(dir, &st) != 0)
        why = "it is a link that leads nowhere";
    else if (!S_ISDIR(st.st_mode))
        why = "it is not a folder";
    else if (st.st_uid != geteuid())
        why = "others can write it (it belongs to another user)";
    else if (st.st_mode & 022)
        why = "others can write it";
    else if (access(dir, W_OK | X_OK) != 0)
        why = "this user cannot write it";
    if (why)
        diag_warning(d, NULL, "not using the cache in %s: %s; the build runs without it", dir, why);
    return why == NULL;
}

int cache_read(const char *path, size_t max, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
              !(st.st_mode & 022) && (size_t)st.st_size <= max;
    *data = NULL;
    *len = 0;
    if (ok) {
        size_t n = (size_t)st.st_size;
        *data = xmalloc(n + 1);
        while (*len < n) {
            ssize_t r = read(fd, *data + *len, n - *len);
            if (r <= 0)
                break;
            *len += (size_t)r;
        }
        ok = *len == n;
        if (!ok) {
            free(*data);
            *data = NULL;
        }
    }
    close(fd);
    return ok ? 0 : -1;
}

/* The entry of key in dir (suffix: its kind), sealed and with exactly this
 * key: *data (the caller frees) and a reader past the key; else NULL. */
static char *open_entry(const char *dir, const buf *key, const char *suffix, reader *r)
{
    char *path = cache_path(dir, key, suffix);
    char *data = NULL;
    size_t len = 0;
    int rc = cache_read(path, (size_t)256 << 20, &data, &len);
    free(path);
    if (rc != 0)
        return NULL;
    if (!cache_unseal(data, &len)) {
        free(data);
        return NULL;
    }
    *r = (reader){data, len, false};
    char magic[sizeof MAGIC - 1];
    get(r, magic, sizeof magic);
    int64_t klen = get_i64(r);
    if (r->bad || memcmp(magic, MAGIC, sizeof magic) != 0 || klen != (int64_t)key->len ||
        r->left < key->len || memcmp(r->p, key->data, key->len) != 0) {
        free(data);
        return NULL;
    }
    r->p += key->len;
    r->left -= key->len;
    return data;
}

/* Write the entry: MAGIC, the key, body, sealed (a temporary file renamed). */
static void put_entry(const char *dir, const buf *key, const char *suffix, const buf *body)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return;
    buf b;
    buf_init(&b);
    buf_put(&b, MAGIC, sizeof MAGIC - 1);
    put_i64(&b, (int64_t)key->len);
    buf_put(&b, key->data, key->len);
    buf_put(&b, body->data, body->len);
    cache_seal(&b);
    char *final = cache_path(dir, key, suffix);
    file_write_atomic(final, b.data, b.len);
    free(final);
    buf_free(&b);
}

bool cache_get(const char *dir, const buf *key, sim_result *out)
{
    reader r;
    char *data = open_entry(dir, key, ".bin", &r);
    bool ok = data != NULL;
    if (ok) {
        memset(out, 0, sizeof *out);
        out->replications = (int)get_i64(&r);
        get(&r, out->m, sizeof out->m);
        for (int m = 0; m < SIM_M_COUNT; m++) {
            out->goals[m].present = get_i64(&r) != 0;
            out->goals[m].worst = get_f64(&r);
            out->goals[m].pass = get_i64(&r) != 0;
        }
        out->all_goals_pass = get_i64(&r) != 0;
        out->expect_ok = get_i64(&r) != 0;
        out->seed = (uint64_t)get_i64(&r);
        out->latency_samples = get_i64(&r);
        out->deterministic = get_i64(&r) != 0;
        out->random_faults = get_i64(&r) != 0;
        out->until_met = get_i64(&r) != 0;
        if (get_i64(&r) != 0) { /* the values of replications × measures */
            size_t nv = (size_t)(out->replications > 0 ? out->replications : 0) * SIM_M_COUNT;
            if (nv == 0 || r.bad || r.left < nv * sizeof *out->values) {
                r.bad = true;
            } else {
                out->values = xmalloc(nv * sizeof *out->values);
                get(&r, out->values, nv * sizeof *out->values);
            }
        }
        out->trace_truncated = get_i64(&r) != 0;
        int64_t n = get_i64(&r);
        if (!r.bad && n >= 0 && (uint64_t)n <= r.left / 56) {
            out->n_trace = (size_t)n;
            out->trace = n ? xcalloc((size_t)n, sizeof *out->trace) : NULL;
            for (size_t i = 0; i < out->n_trace; i++) {
                sim_trace_entry *e = &out->trace[i];
                e->t_us = get_i64(&r);
                e->kind = (sim_trace_kind)get_i64(&r);
                e->job = get_i64(&r);
                e->part = (int)get_i64(&r);
                e->peer = (int)get_i64(&r);
                e->detail = get_i64(&r);
                e->copy = (int)get_i64(&r);
                if (e->kind < 0 || e->kind >= SIM_TR_COUNT)
                    r.bad = true;
            }
        } else {
            r.bad = true;
        }
        ok = !r.bad && r.left == 0;
        if (!ok)
            sim_result_free(out);
    }
    free(data);
    return ok;
}

void cache_put(const char *dir, const buf *key, const sim_result *r)
{
    buf b;
    buf_init(&b);
    put_result(&b, r);
    put_entry(dir, key, ".bin", &b);
    buf_free(&b);
}

/* ------------------------------------------------------------ proofs */

void cache_proof_key(buf *key, const sim_board *b, const sim_limits *lim, const sim_prove_opts *o)
{
    cache_key(key, b, lim, false);
    buf_puts(key, "proof\n");
    put_i64(key, o->measure);
    put_i64(key, o->sometimes);
    put_i64(key, o->jobs);
    put_i64(key, o->faults);
}

bool cache_get_proof(const char *dir, const buf *key, sim_proof *out)
{
    reader r;
    char *data = open_entry(dir, key, ".proof", &r);
    if (!data)
        return false;
    memset(out, 0, sizeof *out);
    out->holds = get_i64(&r) != 0;
    out->found = get_i64(&r) != 0;
    out->jobs = (int)get_i64(&r);
    out->faults = (int)get_i64(&r);
    out->runs = get_i64(&r);
    out->executions = get_i64(&r);
    out->events = get_i64(&r);
    out->estimate = get_i64(&r);
    out->cx_faults = (int)get_i64(&r);
    out->cx_events = get_i64(&r);
    out->cx_value = get_f64(&r);
    int64_t n = get_i64(&r);
    if (!r.bad && n >= 0 && (uint64_t)n == r.left) {
        out->n_choices = (size_t)n;
        out->choices = xmalloc(n ? (size_t)n : 1);
        get(&r, out->choices, (size_t)n);
    } else {
        r.bad = true;
    }
    bool ok = !r.bad && r.left == 0;
    if (!ok)
        sim_proof_free(out);
    free(data);
    return ok;
}

void cache_put_proof(const char *dir, const buf *key, const sim_proof *p)
{
    buf b;
    buf_init(&b);
    put_i64(&b, p->holds);
    put_i64(&b, p->found);
    put_i64(&b, p->jobs);
    put_i64(&b, p->faults);
    put_i64(&b, p->runs);
    put_i64(&b, p->executions);
    put_i64(&b, p->events);
    put_i64(&b, p->estimate);
    put_i64(&b, p->cx_faults);
    put_i64(&b, p->cx_events);
    put_f64(&b, p->cx_value);
    put_i64(&b, (int64_t)p->n_choices);
    buf_put(&b, (const char *)p->choices, p->n_choices);
    put_entry(dir, key, ".proof", &b);
    buf_free(&b);
}

/* cache.c — results cache files: "BPRC3\n", the key's length and bytes (to
 * rule out hash collisions), then the result, all little-endian-as-stored
 * on this machine (the cache is local; a different machine just misses),
 * then a checksum of everything before it (cache_seal). */
#include "run/cache.h"
#include "wire.h"

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

/* The key is the simulator's version and the run's wire encoding
 * (WIRE.md) with every id blanked: each field of sim-core/schema.h's lists,
 * the limits and whether a trace is kept, and nothing that leaves the
 * result as it is. */
void cache_key(buf *key, const sim_board *b, const sim_limits *lim, bool want_trace)
{
    buf_puts(key, "boardpress-sim " SIMCORE_VERSION " " BP_SIM_HASH "\n");
    size_t n = sim_wire_encode_blank(b, lim, want_trace, NULL, 0);
    uint8_t *bytes = xmalloc(n);
    sim_wire_encode_blank(b, lim, want_trace, bytes, n);
    buf_put(key, (const char *)bytes, n);
    free(bytes);
}

static char *cache_path(const char *dir, const buf *key, const char *suffix)
{
    return xasprintf("%s/%016llx%s", dir, (unsigned long long)hash64(key->data, key->len, 0),
                     suffix);
}

/* ------------------------------------------------------------ bodies
 * An entry's body is its struct's scalars in the order of a cell table,
 * each as 8 bytes (an integer, a flag or an enum widened to int64_t, a
 * double as it is), then what has a length of its own. The result and the
 * proof both go through put_cells and get_cells. */

typedef enum { C_BOOL, C_INT, C_ENUM, C_I64, C_U64, C_F64 } cell_type;

typedef struct {
    cell_type type;
    size_t at;
} cell;

#define CELL(T, m, type)                                                                           \
    {                                                                                              \
        type, offsetof(T, m)                                                                       \
    }
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void put_cells(buf *b, const cell *c, size_t n, const void *base)
{
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)base + c[i].at;
        switch (c[i].type) {
        case C_BOOL:
            put_i64(b, *(const bool *)p);
            break;
        case C_INT:
            put_i64(b, *(const int *)p);
            break;
        case C_ENUM: {
            unsigned v;
            memcpy(&v, p, sizeof v);
            put_i64(b, v);
            break;
        }
        case C_I64:
            put_i64(b, *(const int64_t *)p);
            break;
        case C_U64:
            put_i64(b, (int64_t) * (const uint64_t *)p);
            break;
        case C_F64:
            put_f64(b, *(const double *)p);
            break;
        }
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

static void get_cells(reader *r, const cell *c, size_t n, void *base)
{
    for (size_t i = 0; i < n; i++) {
        char *p = (char *)base + c[i].at;
        switch (c[i].type) {
        case C_BOOL:
            *(bool *)p = get_i64(r) != 0;
            break;
        case C_INT:
            *(int *)p = (int)get_i64(r);
            break;
        case C_ENUM: {
            unsigned v = (unsigned)get_i64(r);
            memcpy(p, &v, sizeof v);
            break;
        }
        case C_I64:
            *(int64_t *)p = get_i64(r);
            break;
        case C_U64:
            *(uint64_t *)p = (uint64_t)get_i64(r);
            break;
        case C_F64:
            *(double *)p = get_f64(r);
            break;
        }
    }
}

/* A result: replications, the measures' stats as they are in memory, each
 * goal, the flags and counts, the values (a flag, then replications ×
 * measures doubles), then the trace (truncated, count, entries). */
static const cell result_head[] = {CELL(sim_result, replications, C_INT)};
static const cell goal_cells[] = {CELL(sim_goal_result, present, C_BOOL),
                                  CELL(sim_goal_result, worst, C_F64),
                                  CELL(sim_goal_result, pass, C_BOOL)};
static const cell result_cells[] = {CELL(sim_result, all_goals_pass, C_BOOL),
                                    CELL(sim_result, expect_ok, C_BOOL),
                                    CELL(sim_result, seed, C_U64),
                                    CELL(sim_result, latency_samples, C_I64),
                                    CELL(sim_result, deterministic, C_BOOL),
                                    CELL(sim_result, random_faults, C_BOOL),
                                    CELL(sim_result, until_met, C_BOOL)};
static const cell trace_cells[] = {
    CELL(sim_trace_entry, t_us, C_I64), CELL(sim_trace_entry, kind, C_ENUM),
    CELL(sim_trace_entry, job, C_I64),  CELL(sim_trace_entry, part, C_INT),
    CELL(sim_trace_entry, peer, C_INT), CELL(sim_trace_entry, detail, C_I64),
    CELL(sim_trace_entry, copy, C_INT)};
#define TRACE_ENTRY_BYTES (8 * N_OF(trace_cells))

/* A proof: its scalars, then its choices (a count, then the bytes); its
 * trace is not kept (sim_replay of the choices gives it back). */
static const cell proof_cells[] = {
    CELL(sim_proof, holds, C_BOOL),    CELL(sim_proof, found, C_BOOL),
    CELL(sim_proof, jobs, C_INT),      CELL(sim_proof, faults, C_INT),
    CELL(sim_proof, runs, C_I64),      CELL(sim_proof, executions, C_I64),
    CELL(sim_proof, events, C_I64),    CELL(sim_proof, estimate, C_I64),
    CELL(sim_proof, cx_faults, C_INT), CELL(sim_proof, cx_events, C_I64),
    CELL(sim_proof, cx_value, C_F64)};

static void put_result(buf *b, const sim_result *r)
{
    put_cells(b, result_head, N_OF(result_head), r);
    put_bytes(b, r->m, sizeof r->m);
    for (int m = 0; m < SIM_M_COUNT; m++)
        put_cells(b, goal_cells, N_OF(goal_cells), &r->goals[m]);
    put_cells(b, result_cells, N_OF(result_cells), r);
    put_i64(b, r->values != NULL);
    if (r->values)
        put_bytes(b, r->values, (size_t)r->replications * SIM_M_COUNT * sizeof *r->values);
    put_i64(b, r->trace_truncated);
    put_i64(b, (int64_t)r->n_trace);
    for (size_t i = 0; i < r->n_trace; i++)
        put_cells(b, trace_cells, N_OF(trace_cells), &r->trace[i]);
}

/* Read what put_result wrote; r->bad when it does not read well. */
static void get_result(reader *r, sim_result *out)
{
    get_cells(r, result_head, N_OF(result_head), out);
    get(r, out->m, sizeof out->m);
    for (int m = 0; m < SIM_M_COUNT; m++)
        get_cells(r, goal_cells, N_OF(goal_cells), &out->goals[m]);
    get_cells(r, result_cells, N_OF(result_cells), out);
    if (get_i64(r) != 0) { /* the values of replications × measures */
        size_t nv = (size_t)(out->replications > 0 ? out->replications : 0) * SIM_M_COUNT;
        if (nv == 0 || r->bad || r->left < nv * sizeof *out->values) {
            r->bad = true;
        } else {
            out->values = xmalloc(nv * sizeof *out->values);
            get(r, out->values, nv * sizeof *out->values);
        }
    }
    out->trace_truncated = get_i64(r) != 0;
    int64_t n = get_i64(r);
    if (r->bad || n < 0 || (uint64_t)n > r->left / TRACE_ENTRY_BYTES) {
        r->bad = true;
        return;
    }
    out->n_trace = (size_t)n;
    out->trace = n ? xcalloc((size_t)n, sizeof *out->trace) : NULL;
    for (size_t i = 0; i < out->n_trace; i++) {
        get_cells(r, trace_cells, N_OF(trace_cells), &out->trace[i]);
        if (out->trace[i].kind < 0 || out->trace[i].kind >= SIM_TR_COUNT)
            r->bad = true;
    }
}

static void put_proof(buf *b, const sim_proof *p)
{
    put_cells(b, proof_cells, N_OF(proof_cells), p);
    put_i64(b, (int64_t)p->n_choices);
    buf_put(b, (const char *)p->choices, p->n_choices);
}

static void get_proof(reader *r, sim_proof *out)
{
    get_cells(r, proof_cells, N_OF(proof_cells), out);
    int64_t n = get_i64(r);
    if (r->bad || n < 0 || (uint64_t)n != r->left) {
        r->bad = true;
        return;
    }
    out->n_choices = (size_t)n;
    out->choices = xmalloc(n ? (size_t)n : 1);
    get(r, out->choices, (size_t)n);
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

/* Done reading the entry open_entry gave: frees data; whether the body
 * read well to its last byte. */
static bool close_entry(const reader *r, char *data)
{
    free(data);
    return !r->bad && r->left == 0;
}

/* put_entry of a body that write makes. */
#define PUT_ENTRY(dir, key, suffix, write, v)                                                      \
    do {                                                                                           \
        buf body_;                                                                                 \
        buf_init(&body_);                                                                          \
        write(&body_, v);                                                                          \
        put_entry(dir, key, suffix, &body_);                                                       \
        buf_free(&body_);                                                                          \
    } while (0)

/* ok: whether the entry of key in dir (suffix: its kind) read into *out
 * by read, to its last byte; when it did not, release frees what read
 * put in *out. */
#define GET_ENTRY(ok, dir, key, suffix, read, release, out)                                        \
    do {                                                                                           \
        reader r_;                                                                                 \
        char *data_ = open_entry(dir, key, suffix, &r_);                                           \
        (ok) = data_ != NULL;                                                                      \
        if (data_) {                                                                               \
            memset(out, 0, sizeof *(out));                                                         \
            read(&r_, out);                                                                        \
            (ok) = close_entry(&r_, data_);                                                        \
            if (!(ok))                                                                             \
                release(out);                                                                      \
        }                                                                                          \
    } while (0)

bool cache_get(const char *dir, const buf *key, sim_result *out)
{
    bool ok;
    GET_ENTRY(ok, dir, key, ".bin", get_result, sim_result_free, out);
    return ok;
}

void cache_put(const char *dir, const buf *key, const sim_result *r)
{
    PUT_ENTRY(dir, key, ".bin", put_result, r);
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
    bool ok;
    GET_ENTRY(ok, dir, key, ".proof", get_proof, sim_proof_free, out);
    return ok;
}

void cache_put_proof(const char *dir, const buf *key, const sim_proof *p)
{
    PUT_ENTRY(dir, key, ".proof", put_proof, p);
}

/* test_cache.c — the results cache: a key that changes with every input of
 * a run (every field of sim-core/schema.h's lists, so a new one is tested
 * as it is added), a round trip that keeps every number and the trace, and misses
 * (never wrong results) for damaged files and hash collisions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/cache.h"
#include "schema.h"
#include "wire.h"
#include "gen_testlib.h"
#include "sim_testlib.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every field of schema.h's lists, as the key test changes it. */
typedef enum { M_BOOL, M_INT, M_ENUM, M_I64, M_U64, M_SIZE, M_F64, M_ID, M_JOBS } mut_type;

typedef struct {
    const char *name;
    mut_type type;
    size_t at;
    size_t aux; /* M_ENUM: how many values; M_JOBS: the count's offset */
} mut_field;

#define MUT_AUX_BOOL(T, a) 0
#define MUT_AUX_INT(T, a) 0
#define MUT_AUX_ENUM(T, a) (a)
#define MUT_AUX_I64(T, a) 0
#define MUT_AUX_U64(T, a) 0
#define MUT_AUX_SIZE(T, a) 0
#define MUT_AUX_F64(T, a) 0
#define MUT_AUX_ID(T, a) 0
#define MUT_AUX_JOBS(T, a) offsetof(T, a)
#define MUT_ROW(T, m, wire, aux) {#m, M_##wire, offsetof(T, m), MUT_AUX_##wire(T, aux)},
#define PART_W(m, wire, ctype, aux) MUT_ROW(sim_part, m, wire, aux)
#define PART_S(m, wire, ctype, aux, ...) PART_W(m, wire, ctype, aux)
#define LINK_W(m, wire, ctype, aux) MUT_ROW(sim_link, m, wire, aux)
#define LINK_S(m, wire, ctype, aux, ...) LINK_W(m, wire, ctype, aux)
#define BOARD_W(m, wire, ctype, aux) MUT_ROW(sim_board, m, wire, aux)
#define BOARD_S(m, wire, ctype, aux, ...) BOARD_W(m, wire, ctype, aux)
#define REQUEST_W(m, wire, ctype, aux) MUT_ROW(sim_wire_request, m, wire, aux)
#define REQUEST_S(m, wire, ctype, aux, ...) REQUEST_W(m, wire, ctype, aux)

static const mut_field part_fields[] = {SIM_PART_FIELDS(PART_W, PART_S)};
static const mut_field link_fields[] = {SIM_LINK_FIELDS(LINK_W, LINK_S)};
static const mut_field board_fields[] = {SIM_BOARD_FIELDS(BOARD_W, BOARD_S)};
static const mut_field request_fields[] = {SIM_REQUEST_FIELDS(REQUEST_W, REQUEST_S)};

static const int64_t other_jobs[] = {2, 3};

/* Change the field f of the struct at base to another value (an id to
 * another name). */
static void mutate(const mut_field *f, void *base)
{
    char *p = (char *)base + f->at;
    switch (f->type) {
    case M_BOOL:
        *(bool *)p = !*(bool *)p;
        break;
    case M_INT: /* one more, or one less at the top */
        *(int *)p = *(int *)p == INT_MAX ? INT_MAX - 1 : *(int *)p + 1;
        break;
    case M_ENUM: {
        unsigned v;
        memcpy(&v, p, sizeof v);
        v = (v + 1) % (unsigned)f->aux;
        memcpy(p, &v, sizeof v);
        break;
    }
    case M_I64:
        *(int64_t *)p = *(int64_t *)p == INT64_MAX ? INT64_MAX - 1 : *(int64_t *)p + 1;
        break;
    case M_U64:
        *(uint64_t *)p += 1;
        break;
    case M_SIZE:
        *(size_t *)p += 1;
        break;
    case M_F64:
        *(double *)p = *(double *)p * 2 + 0.25;
        break;
    case M_ID:
        *(const char **)p = "renamed";
        break;
    case M_JOBS: {
        size_t *n = (size_t *)((char *)base + f->aux);
        *(const int64_t **)p = other_jobs;
        *n = *n == 2 ? 1 : 2;
        break;
    }
    }
}

static void base_board(tb_board *t)
{
    tb_init(t, TB_BROKER | TB_PROVIDER, 12);
    static const int64_t jobs[] = {2};
    tb_lose_reply_of(t, jobs, 1);
}

static void key_of(buf *key, tb_board *t, const sim_limits *lim, bool trace)
{
    buf_init(key);
    cache_key(key, &t->b, lim, trace);
}

static bool same_key(const buf *a, const buf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

static void keys(void **state)
{
    (void)state;
    tb_board t;
    base_board(&t);
    sim_limits lim = sim_limits_default();
    buf k0, k1;
    key_of(&k0, &t, &lim, false);
    /* the same inputs give the same bytes */
    tb_board t2;
    base_board(&t2);
    key_of(&k1, &t2, &lim, false);
    assert_true(same_key(&k0, &k1));
    buf_free(&k1);
    /* the board's and parts' names do not change a result */
    t2.b.id = "renamed";
    t2.parts[0].id = "someone";
    key_of(&k1, &t2, &lim, false);
    assert_true(same_key(&k0, &k1));
    buf_free(&k1);
    /* every other field changes the key: each of schema.h's lists, on
     * every part and link, the limits, want_trace and the goals */
    const struct {
        const mut_field *f;
        size_t n;
        size_t count; /* structs of its kind on the board */
    } lists[] = {
        {part_fields, sizeof part_fields / sizeof part_fields[0], t.b.n_parts},
        {link_fields, sizeof link_fields / sizeof link_fields[0], t.b.n_links},
        {board_fields, sizeof board_fields / sizeof board_fields[0], 1},
        {request_fields, sizeof request_fields / sizeof request_fields[0], 1},
    };
    size_t tried = 0;
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
        for (size_t i = 0; i < lists[l].n; i++)
            for (size_t k = 0; k < lists[l].count; k++) {
                const mut_field *f = &lists[l].f[i];
                tb_board m;
                base_board(&m);
                sim_wire_request q = {m.b, sim_limits_default(), false};
                void *base = l == 0   ? (void *)&m.parts[k]
                             : l == 1 ? (void *)&m.links[k]
                             : l == 2 ? (void *)&m.b
                                      : (void *)&q;
                mutate(f, base);
                key_of(&k1, &m, &q.limits, q.want_trace);
                if (f->type == M_ID ? !same_key(&k0, &k1) : same_key(&k0, &k1))
                    fail_msg("changing %s (struct %zu) %s", f->name, k + 1,
                             f->type == M_ID ? "changes the cache key"
                                             : "leaves the cache key as it was");
                buf_free(&k1);
                tried++;
            }
    assert_true(tried > 60);
    for (int g = 0; g < SIM_M_COUNT; g++)
        for (int way = 0; way < 4; way++) {
            tb_board m;
            base_board(&m);
            sim_goal *goal = &m.b.goals[g];
            if (way == 0)
                goal->has_max = !goal->has_max;
            else if (way == 1)
                goal->has_min = !goal->has_min;
            else if (way == 2)
                *goal =
                    (sim_goal){true, goal->has_min, goal->has_max ? goal->max + 1 : 0, goal->min};
            else
                *goal =
                    (sim_goal){goal->has_max, true, goal->max, goal->has_min ? goal->min + 1 : 0};
            key_of(&k1, &m, &lim, false);
            if (same_key(&k0, &k1))
                fail_msg("changing the goal of %s (way %d) leaves the cache key as it was",
                         sim_measure_name((sim_measure)g), way);
            buf_free(&k1);
        }
    buf_free(&k0);
}

static char *only_file(const char *dir)
{
    DIR *dh = opendir(dir);
    assert_non_null(dh);
    char *found = NULL;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        assert_null(found); /* exactly one */
        found = xasprintf("%s/%s", dir, e->d_name);
    }
    closedir(dh);
    assert_non_null(found);
    return found;
}

static void same_result(const sim_result *a, const sim_result *b)
{
    assert_int_equal(a->replications, b->replications);
    assert_memory_equal(a->m, b->m, sizeof a->m);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        assert_int_equal(a->goals[m].present, b->goals[m].present);
        assert_int_equal(a->goals[m].pass, b->goals[m].pass);
        assert_memory_equal(&a->goals[m].worst, &b->goals[m].worst, sizeof(double));
    }
    assert_int_equal(a->all_goals_pass, b->all_goals_pass);
    assert_int_equal(a->expect_ok, b->expect_ok);
    assert_int_equal(a->trace_truncated, b->trace_truncated);
    assert_int_equal(a->n_trace, b->n_trace);
    for (size_t i = 0; i < a->n_trace; i++) {
        const sim_trace_entry *x = &a->trace[i], *y = &b->trace[i];
        assert_int_equal(x->t_us, y->t_us);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->job, y->job);
        assert_int_equal(x->part, y->part);
        assert_int_equal(x->peer, y->peer);
        assert_int_equal(x->detail, y->detail);
    }
    assert_true(a->seed == b->seed);
    assert_int_equal(a->latency_samples, b->latency_samples);
    assert_int_equal(a->deterministic, b->deterministic);
    assert_int_equal(a->random_faults, b->random_faults);
    assert_int_equal(a->until_met, b->until_met);
    assert_non_null(a->values);
    assert_non_null(b->values);
    assert_memory_equal(a->values, b->values,
                        (size_t)a->replications * SIM_M_COUNT * sizeof *a->values);
}

typedef struct {
    char *dir;
    tb_board t;
    sim_limits lim;
    sim_result r;
    buf key;
} fixture;

static int setup(void **state)
{
    fixture *f = xcalloc(1, sizeof *f);
    f->dir = gt_tempdir();
    base_board(&f->t);
    f->t.b.replications = 3;
    f->t.b.goals[SIM_M_DUPLICATES] = (sim_goal){true, false, 0, 0};
    f->lim = sim_limits_default();
    char msg[256];
    if (sim_run(&f->t.b, &f->lim, true, &f->r, msg, sizeof msg) != 0)
        fail_msg("sim_run: %s", msg);
    key_of(&f->key, &f->t, &f->lim, true);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sim_result_free(&f->r);
    buf_free(&f->key);
    gt_rm_rf(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

static void round_trip(void **state)
{
    fixture *f = *state;
    assert_true(f->r.n_trace > 10); /* a real trace goes through */
    sim_result got;
    memset(&got, 0xAB, sizeof got);
    assert_false(cache_get(f->dir, &f->key, &got)); /* empty cache */
    char *sub = xasprintf("%s/cache", f->dir);      /* made on first put */
    cache_put(sub, &f->key, &f->r);
    assert_true(cache_get(sub, &f->key, &got));
    same_result(&f->r, &got);
    sim_result_free(&got);
    /* another key misses */
    buf other;
    tb_board t2;
    base_board(&t2);
    key_of(&other, &t2, &f->lim, false);
    assert_false(cache_get(sub, &other, &got));
    buf_free(&other);
    /* nothing but the one file: no temporary files left behind */
    char *file = only_file(sub);
    char *want =
        xasprintf("%s/%016llx.bin", sub, (unsigned long long)hash64(f->key.data, f->key.len, 0));
    assert_string_equal(file, want);
    free(want);
    free(file);
    free(sub);
}

/* Give the file at path a checksum that matches its (edited) bytes, so the
 * checks behind the checksum are tried too; payload is how many bytes the
 * file held before its checksum before the edit. */
static void reseal(const char *path, size_t payload)
{
    size_t len;
    char *data = gt_read(path, &len);
    assert_non_null(data);
    buf b;
    buf_init(&b);
    buf_put(&b, data, len > payload ? len - 8 : len);
    cache_seal(&b);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b.data, 1, b.len, fp), b.len);
    assert_int_equal(fclose(fp), 0);
    buf_free(&b);
    free(data);
}

/* Store, then damage the file with edit() (len: the bytes before the
 * checksum); cache_get must miss, and with the checksum made to match
 * (resealed) still miss, unless only the checksum stands in the way. */
static void damage_once(fixture *f, void (*edit)(const char *path, size_t len), bool resealed)
{
    char *sub = xasprintf("%s/damaged", f->dir);
    gt_rm_rf(sub);
    cache_put(sub, &f->key, &f->r);
    char *file = only_file(sub);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    edit(file, (size_t)st.st_size - 8);
    if (resealed)
        reseal(file, (size_t)st.st_size - 8);
    sim_result got;
    memset(&got, 0, sizeof got);
    assert_false(cache_get(sub, &f->key, &got));
    assert_null(got.trace);
    free(file);
    free(sub);
}

static void damaged(fixture *f, void (*edit)(const char *path, size_t len))
{
    damage_once(f, edit, false);
    damage_once(f, edit, true);
}

static void cut_in_half(const char *path, size_t len)
{
    assert_int_equal(truncate(path, (off_t)(len / 2)), 0);
}

static void cut_last_byte(const char *path, size_t len)
{
    assert_int_equal(truncate(path, (off_t)(len + 8 - 1)), 0);
}

static void cut_to_magic(const char *path, size_t len)
{
    (void)len;
    assert_int_equal(truncate(path, 6), 0);
}

static void empty_file(const char *path, size_t len)
{
    (void)len;
    assert_int_equal(truncate(path, 0), 0);
}

static void poke(const char *path, size_t at, unsigned char byte)
{
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, (long)at, SEEK_SET), 0);
    assert_int_equal(fputc(byte, fp), byte);
    assert_int_equal(fclose(fp), 0);
}

static void bad_magic(const char *path, size_t len)
{
    (void)len;
    poke(path, 0, 'X');
}

static void bad_trace_kind(const char *path, size_t len)
{
    /* the last entry's kind sits 48 bytes before the end (kind, job,
     * part, peer, detail, copy: six 8-byte fields) */
    poke(path, len - 48, 0x7f);
}

static size_t stored_trace; /* entries in the stored result, for bad_trace_count */

static void bad_trace_count(const char *path, size_t len)
{
    /* n_trace is the 8 bytes before the entries (56 bytes each): make it
     * larger than what follows */
    poke(path, len - 56 * stored_trace - 1, 0x7f);
}

static size_t key_len; /* the stored key's length, for changed_value */

/* A measured value changed: only the checksum tells (resealed, the file
 * would be a forgery that reads well, so that is not tried). */
static void changed_value(const char *path, size_t len)
{
    (void)len;
    /* magic (6), key length (8), key, replications (8), then the means */
    poke(path, 6 + 8 + key_len + 8 + 3, 0x40);
}

static void extra_bytes(const char *path, size_t len)
{
    (void)len;
    FILE *fp = fopen(path, "ab");
    assert_non_null(fp);
    fputs("junk", fp);
    assert_int_equal(fclose(fp), 0);
}

static void damaged_files(void **state)
{
    fixture *f = *state;
    damaged(f, cut_in_half);
    damaged(f, cut_last_byte);
    damaged(f, cut_to_magic);
    damaged(f, empty_file);
    damaged(f, bad_magic);
    damaged(f, bad_trace_kind);
    damaged(f, extra_bytes);
    stored_trace = f->r.n_trace;
    damaged(f, bad_trace_count);
    key_len = f->key.len;
    damage_once(f, changed_value, false);
    /* the checksum covers the key too: a file whose key bytes changed misses */
    damage_once(f, bad_magic, false);
}

static void collisions(void **state)
{
    fixture *f = *state;
    /* A file stored under another key, found under this key's file name
     * (what a 64-bit hash collision would look like), is not used. */
    char *sub = xasprintf("%s/collide", f->dir);
    buf other;
    tb_board t2;
    base_board(&t2);
    t2.b.seed = 99;
    key_of(&other, &t2, &f->lim, true);
    sim_result r2;
    char msg[256];
    assert_int_equal(sim_run(&t2.b, &f->lim, true, &r2, msg, sizeof msg), 0);
    cache_put(sub, &other, &r2);
    char *stored = only_file(sub);
    char *mine =
        xasprintf("%s/%016llx.bin", sub, (unsigned long long)hash64(f->key.data, f->key.len, 0));
    assert_int_equal(rename(stored, mine), 0);
    sim_result got;
    memset(&got, 0, sizeof got);
    assert_false(cache_get(sub, &f->key, &got));
    /* same length, one byte different: still a miss */
    buf twin;
    buf_init(&twin);
    buf_put(&twin, f->key.data, f->key.len);
    twin.data[twin.len - 1] ^= 1;
    cache_put(sub, &twin, &f->r);
    char *twin_file =
        xasprintf("%s/%016llx.bin", sub, (unsigned long long)hash64(twin.data, twin.len, 0));
    assert_int_equal(rename(twin_file, mine), 0);
    assert_false(cache_get(sub, &f->key, &got));
    /* while its own key still finds it after moving back */
    assert_int_equal(rename(mine, twin_file), 0);
    assert_true(cache_get(sub, &twin, &got));
    sim_result_free(&got);
    buf_free(&twin);
    free(twin_file);
    sim_result_free(&r2);
    buf_free(&other);
    free(stored);
    free(mine);
    free(sub);
}

static void unusable_folders(void **state)
{
    fixture *f = *state;
    /* a folder that cannot be made: put is silent, get misses */
    char *blocker = xasprintf("%s/file", f->dir);
    gt_write(f->dir, "file", "not a folder");
    char *sub = xasprintf("%s/inside", blocker);
    cache_put(sub, &f->key, &f->r);
    sim_result got;
    assert_false(cache_get(sub, &f->key, &got));
    free(sub);
    free(blocker);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys),
        cmocka_unit_test_setup_teardown(round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(damaged_files, setup, teardown),
        cmocka_unit_test_setup_teardown(collisions, setup, teardown),
        cmocka_unit_test_setup_teardown(unusable_folders, setup, teardown),
    };
    return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}

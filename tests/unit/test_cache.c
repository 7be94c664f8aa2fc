/* test_cache.c — the results cache: a key that changes with every input of
 * a run, a round trip that keeps every number and the trace, and misses
 * (never wrong results) for damaged files and hash collisions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/cache.h"
#include "gen_testlib.h"
#include "sim_testlib.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef void (*mutate_fn)(tb_board *t, sim_limits *lim, bool *trace);

#define MUT(name, stmt)                                                                            \
    static void name(tb_board *t, sim_limits *lim, bool *trace)                                    \
    {                                                                                              \
        (void)t;                                                                                   \
        (void)lim;                                                                                 \
        (void)trace;                                                                               \
        stmt;                                                                                      \
    }

static const int64_t other_jobs[] = {3};

MUT(m_seed, t->b.seed++)
MUT(m_replications, t->b.replications++)
MUT(m_until, (t->b.until = 0.02, t->b.until_max = 5))
MUT(m_until_max, t->b.until_max = 7)
MUT(m_trace, *trace = !*trace)
MUT(m_max_events, lim->max_events--)
MUT(m_max_board_events, lim->max_board_events--)
MUT(m_max_trace, lim->max_trace++)
MUT(m_kind, tb_handler(t)->kind = SIM_KIND_SERVICE)
MUT(m_vcpu, tb_handler(t)->vcpu += 0.5)
MUT(m_gb, tb_handler(t)->gb += 1)
MUT(m_external, tb_handler(t)->external = true)
MUT(m_fixed_price, tb_handler(t)->fixed_usd_month = 1)
MUT(m_tries, tb_sender(t)->tries = 2)
MUT(m_redelivery, tb_sender(t)->redelivery_after_us += 1)
MUT(m_timeout, tb_handler(t)->timeout_us += 1)
MUT(m_delivery, tb_sender(t)->delivery = SIM_DELIVERY_AT_MOST_ONCE)
MUT(m_message_id, t->parts[t->users].message_id = SIM_MESSAGE_ID_PER_PUBLISH)
MUT(m_dedup_window, tb_sender(t)->dedup_window_us = 300000000)
MUT(m_dead_letter, tb_sender(t)->dead_letter = 1)
MUT(m_backoff_factor, tb_sender(t)->backoff_factor = 2)
MUT(m_backoff_max, tb_sender(t)->backoff_max_us = 60000000)
MUT(m_backoff_jitter, tb_sender(t)->backoff_jitter = true)
MUT(m_poison, t->b.traffic.poison = 0.1)
MUT(m_lease, tb_handler(t)->lease_us += 1)
MUT(m_crash_commit, tb_handler(t)->crash_after_commit = 0.01)
MUT(m_publish, tb_handler(t)->publish = SIM_PUBLISH_OUTBOX)
MUT(m_relay_every, tb_handler(t)->relay_every_us += 1)
MUT(m_concurrency, tb_handler(t)->concurrency = 5)
MUT(m_work_median, tb_handler(t)->work.median_us += 1)
MUT(m_work_p99, tb_handler(t)->work.p99_us += 1)
MUT(m_idempotency, tb_handler(t)->idempotency = SIM_IDEM_KEY_IN_TRANSACTION)
MUT(m_key_ttl, tb_handler(t)->key_ttl_us = 60000000)
MUT(m_crash, tb_handler(t)->crash_after_effect = 0.01)
MUT(m_restart, tb_handler(t)->restart_us += 1)
MUT(m_call, t->parts[t->provider].call.median_us += 1)
MUT(m_call_p99, t->parts[t->provider].call.p99_us += 1)
MUT(m_fail, t->parts[t->provider].fail = 0.1)
MUT(m_provider_ttl, t->parts[t->provider].key_ttl_us = 1000000)
MUT(m_write, t->parts[t->provider].write.median_us += 1)
MUT(m_link_to, tb_delivery(t)->to = t->provider)
MUT(m_protocol, tb_delivery(t)->protocol = SIM_PROTO_HTTP1)
MUT(m_rtt, tb_delivery(t)->rtt_us += 1)
MUT(m_round_trips, tb_delivery(t)->reply_round_trips = 0.5)
MUT(m_lose_request, tb_delivery(t)->lose_request = 0.1)
MUT(m_lose_reply, tb_delivery(t)->lose_reply = 0.1)
MUT(m_lose_reply_of, tb_lose_reply_of(t, other_jobs, 1))
MUT(m_transactional, tb_delivery(t)->transactional = true)
MUT(m_jobs, t->b.traffic.jobs++)
MUT(m_over, t->b.traffic.over_us++)
MUT(m_op, t->b.traffic.op = SIM_OP_SET)
MUT(m_arrivals, t->b.traffic.arrivals = SIM_ARRIVALS_POISSON)
MUT(m_repeat, t->b.traffic.repeat_share = 0.5)
MUT(m_goal_max, (t->b.goals[SIM_M_DUPLICATES] = (sim_goal){true, false, 0, 0}))
MUT(m_goal_value, (t->b.goals[SIM_M_DUPLICATES] = (sim_goal){true, false, 1, 0}))
MUT(m_goal_min, (t->b.goals[SIM_M_JOBS] = (sim_goal){false, true, 0, 1}))
MUT(m_expect, t->b.expect = SIM_EXPECT_PASS)
MUT(m_price_vcpu, t->b.prices.vcpu_usd_month = 4)
MUT(m_price_gb, t->b.prices.gb_usd_month = 2)

static const struct {
    const char *name;
    mutate_fn fn;
} mutations[] = {
    {"seed", m_seed},
    {"replications", m_replications},
    {"until", m_until},
    {"until max", m_until_max},
    {"want_trace", m_trace},
    {"max_events", m_max_events},
    {"max_board_events", m_max_board_events},
    {"max_trace", m_max_trace},
    {"kind", m_kind},
    {"vcpu", m_vcpu},
    {"gb", m_gb},
    {"external", m_external},
    {"fixed price", m_fixed_price},
    {"tries", m_tries},
    {"redelivery_after", m_redelivery},
    {"timeout", m_timeout},
    {"delivery", m_delivery},
    {"message_id", m_message_id},
    {"dedup_window", m_dedup_window},
    {"dead_letter", m_dead_letter},
    {"backoff_factor", m_backoff_factor},
    {"backoff_max", m_backoff_max},
    {"backoff_jitter", m_backoff_jitter},
    {"poison", m_poison},
    {"lease", m_lease},
    {"crash_after_commit", m_crash_commit},
    {"publish", m_publish},
    {"relay_every", m_relay_every},
    {"concurrency", m_concurrency},
    {"work median", m_work_median},
    {"work p99", m_work_p99},
    {"idempotency", m_idempotency},
    {"key_ttl", m_key_ttl},
    {"crash_after_effect", m_crash},
    {"restart", m_restart},
    {"call median", m_call},
    {"call p99", m_call_p99},
    {"fail", m_fail},
    {"provider key_ttl", m_provider_ttl},
    {"write", m_write},
    {"link to", m_link_to},
    {"protocol", m_protocol},
    {"rtt", m_rtt},
    {"reply_round_trips", m_round_trips},
    {"lose_request", m_lose_request},
    {"lose_reply", m_lose_reply},
    {"lose_reply_of", m_lose_reply_of},
    {"transactional", m_transactional},
    {"jobs", m_jobs},
    {"over", m_over},
    {"op", m_op},
    {"arrivals", m_arrivals},
    {"repeat_share", m_repeat},
    {"goal max", m_goal_max},
    {"goal value", m_goal_value},
    {"goal min", m_goal_min},
    {"expect", m_expect},
    {"vcpu price", m_price_vcpu},
    {"gb price", m_price_gb},
};

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
    /* every input that does, changes the key */
    for (size_t i = 0; i < sizeof mutations / sizeof mutations[0]; i++) {
        tb_board m;
        base_board(&m);
        sim_limits ml = sim_limits_default();
        bool trace = false;
        mutations[i].fn(&m, &ml, &trace);
        key_of(&k1, &m, &ml, trace);
        if (same_key(&k0, &k1))
            fail_msg("changing %s leaves the cache key as it was", mutations[i].name);
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

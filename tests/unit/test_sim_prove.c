/* test_sim_prove.c — proofs with known answers: the boards of the pages,
 * small, whose shortest counterexample (or proof) is known by hand; the
 * minimality of each counterexample, the replay of its choices, the
 * budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "proof.h"
#include "sim_testlib.h"

#include <stdlib.h>
#include <string.h>

static sim_proof proved(const tb_board *t, sim_measure measure, int jobs, int faults)
{
    sim_board b = sim_prove_board(&t->b, jobs);
    sim_prove_opts o = {measure, false, jobs, faults, 0, false, false};
    sim_proof p;
    char msg[256];
    if (sim_prove(&b, NULL, &o, &p, msg, sizeof msg) != 0)
        fail_msg("sim_prove: %s", msg);
    return p;
}

static size_t count_kind(const sim_proof *p, sim_trace_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n_trace; i++)
        n += p->trace[i].kind == k;
    return n;
}

/* Fails with exactly `faults` faults, and holds with one fewer. */
static sim_proof fails_with(const tb_board *t, sim_measure measure, int jobs, int faults, int bound)
{
    sim_proof p = proved(t, measure, jobs, bound);
    assert_false(p.holds);
    assert_true(p.found);
    assert_int_equal(p.cx_faults, faults);
    assert_true(p.cx_value > 0);
    assert_true(p.n_trace > 0);
    if (faults > 0) {
        sim_proof q = proved(t, measure, jobs, faults - 1);
        assert_true(q.holds);
        assert_false(q.found);
        assert_true(q.runs > 0);
        sim_proof_free(&q);
    }
    return p;
}

static void consumer(tb_board *t, sim_idempotency policy)
{
    tb_init(t, TB_BROKER | TB_DATABASE, 3);
    tb_handler(t)->idempotency = policy;
}

/* No key: one lost acknowledgment charges twice. */
static void no_key_loses_one_ack(void **state)
{
    (void)state;
    tb_board t;
    consumer(&t, SIM_IDEM_NONE);
    tb_delivery(&t)->lose_reply = 0.01;
    tb_handler(&t)->crash_after_effect = 0.01;
    sim_proof p = fails_with(&t, SIM_M_DUPLICATES, 3, 1, 2);
    assert_int_equal(count_kind(&p, SIM_TR_LOST_REPLY), 1);
    assert_int_equal(count_kind(&p, SIM_TR_CRASH), 0);
    assert_int_equal(count_kind(&p, SIM_TR_EFFECT), 4);
    sim_proof_free(&p);
}

/* The key in the charge's transaction: no duplicate in any run of 3 jobs
 * with up to 2 faults of every kind the consumer has. */
static void key_in_transaction_holds(void **state)
{
    (void)state;
    tb_board t;
    consumer(&t, SIM_IDEM_KEY_IN_TRANSACTION);
    tb_delivery(&t)->lose_reply = 0.01;
    tb_delivery(&t)->lose_request = 0.01;
    tb_handler(&t)->crash_after_effect = 0.01;
    tb_handler(&t)->crash_after_commit = 0.01;
    sim_proof p = proved(&t, SIM_M_DUPLICATES, 3, 2);
    assert_true(p.holds);
    assert_false(p.found);
    /* at least every way to place two of the 12 first tries' faults */
    assert_true(p.runs > 1 + 12 + 66);
    assert_int_equal(p.executions, p.runs);
    sim_proof_free(&p);
}

/* The key saved after the charge: one crash between the two. */
static void check_after_effect_one_crash(void **state)
{
    (void)state;
    tb_board t;
    consumer(&t, SIM_IDEM_KEY_AFTER_EFFECT);
    tb_delivery(&t)->lose_reply = 0.01;
    tb_handler(&t)->crash_after_effect = 0.01;
    sim_proof p = fails_with(&t, SIM_M_DUPLICATES, 3, 1, 2);
    assert_int_equal(count_kind(&p, SIM_TR_CRASH), 1);
    assert_int_equal(count_kind(&p, SIM_TR_LOST_REPLY), 0);
    sim_proof_free(&p);
}

/* Check-then-act behind a short redelivery delay: a first copy's slow work
 * races its redelivery with no fault at all. */
static void race_board(tb_board *t, sim_idempotency policy)
{
    consumer(t, policy);
    tb_sender(t)->tries = 20;
    tb_handler(t)->work = (sim_latency){500000, 1500000};
    t->b.traffic.arrivals = SIM_ARRIVALS_POISSON;
    t->b.traffic.over_us = 10000000;
}

static void check_then_act_races(void **state)
{
    (void)state;
    tb_board t;
    race_board(&t, SIM_IDEM_KEY_AFTER_EFFECT);
    sim_proof p = fails_with(&t, SIM_M_DUPLICATES, 3, 0, 2);
    assert_int_equal(count_kind(&p, SIM_TR_CRASH) + count_kind(&p, SIM_TR_LOST_REPLY) +
                         count_kind(&p, SIM_TR_LOST_REQUEST),
                     0);
    assert_true(count_kind(&p, SIM_TR_TIMEOUT) >= 1);
    sim_proof_free(&p);
}

static void unique_insert_holds(void **state)
{
    (void)state;
    tb_board t;
    race_board(&t, SIM_IDEM_KEY_IN_TRANSACTION);
    tb_handler(&t)->crash_after_effect = 0.01;
    sim_proof p = proved(&t, SIM_M_DUPLICATES, 3, 1);
    assert_true(p.holds);
    assert_true(p.runs > 8);
    sim_proof_free(&p);
}

/* The shortest counterexample's choices, replayed, give its events. */
static void replay_gives_the_same_events(void **state)
{
    (void)state;
    tb_board t;
    race_board(&t, SIM_IDEM_KEY_AFTER_EFFECT);
    sim_proof p = proved(&t, SIM_M_DUPLICATES, 3, 0);
    sim_board b = sim_prove_board(&t.b, 3);
    sim_trace_entry *tr = NULL;
    size_t n = 0;
    double vals[SIM_M_COUNT];
    char msg[256];
    assert_int_equal(sim_replay(&b, NULL, p.choices, p.n_choices, &tr, &n, vals, msg, sizeof msg),
                     0);
    assert_int_equal(n, p.n_trace);
    assert_memory_equal(tr, p.trace, n * sizeof *tr);
    assert_true(vals[SIM_M_DUPLICATES] == p.cx_value);
    assert_true(vals[SIM_M_EVENTS] == (double)p.cx_events);
    free(tr);
    sim_proof_free(&p);
}

/* sometimes: the shortest witness; a claim that is true of no run fails. */
static void sometimes_finds_a_witness(void **state)
{
    (void)state;
    tb_board t;
    consumer(&t, SIM_IDEM_KEY_AFTER_EFFECT);
    tb_handler(&t)->crash_after_effect = 0.01;
    sim_board b = sim_prove_board(&t.b, 2);
    sim_prove_opts o = {SIM_M_DUPLICATES, true, 2, 1, 0, false, false};
    sim_proof p;
    char msg[256];
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), 0);
    assert_true(p.holds);
    assert_int_equal(p.cx_faults, 1);
    sim_proof_free(&p);
    o.faults = 0;
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), 0);
    assert_false(p.holds);
    assert_false(p.found);
    sim_proof_free(&p);
}

/* A proof over the budget is refused after the first run; brute force
 * runs more than the bound needs and finds the same answer. */
static void budget_and_brute_force(void **state)
{
    (void)state;
    tb_board t;
    consumer(&t, SIM_IDEM_KEY_IN_TRANSACTION);
    tb_delivery(&t)->lose_reply = 0.01;
    tb_handler(&t)->crash_after_effect = 0.01;
    sim_board b = sim_prove_board(&t.b, 3);
    sim_prove_opts o = {SIM_M_DUPLICATES, false, 3, 2, 20, false, false};
    sim_proof p;
    char msg[256];
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "more than the work budget allows"));
    o.max_runs = 0;
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), 0);
    int64_t runs = p.runs, est_runs = 0, est_events = 0;
    /* the estimate before the proof is the proof's own, and bounds its events */
    assert_int_equal(sim_prove_estimate(&b, NULL, &o, &est_runs, &est_events, msg, sizeof msg), 0);
    assert_int_equal(est_runs, p.estimate);
    assert_true(est_events >= est_runs * (p.events / p.executions));
    sim_proof_free(&p);
    o.brute = true;
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), 0);
    assert_true(p.holds);
    assert_int_equal(p.runs, runs);
    assert_true(p.executions > runs);
    sim_proof_free(&p);
    o.measure = SIM_M_LATENCY_P99;
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), -1);
    o.measure = SIM_M_GHOST_EVENTS;
    assert_int_equal(sim_prove(&b, NULL, &o, &p, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "two hops"));
    assert_int_equal(sim_prove_estimate(&b, NULL, &o, &est_runs, &est_events, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "two hops"));
}

/* The proof as it is made (states met before counted from their runs)
 * and the plain enumeration (every run replayed to its end) say the same
 * of random small boards: every number, the verdict, the counterexample.
 * Most of these claims hold, so the counting decides them. */
static void same_as_every_run(const sim_board *b, sim_measure measure, int jobs, int faults,
                              int *counted)
{
    sim_prove_opts o = {measure, false, jobs, faults, 0, false, false};
    for (int sometimes = 0; sometimes < 2; sometimes++) {
        o.sometimes = sometimes;
        sim_proof p, q;
        char pm[256] = "", qm[256] = "";
        o.plain = false;
        int prc = sim_prove(b, NULL, &o, &p, pm, sizeof pm);
        o.plain = true;
        int qrc = sim_prove(b, NULL, &o, &q, qm, sizeof qm);
        assert_int_equal(prc, qrc);
        assert_string_equal(pm, qm);
        if (prc != 0)
            return;
        assert_int_equal(p.holds, q.holds);
        assert_int_equal(p.found, q.found);
        assert_int_equal(p.runs, q.runs);
        assert_int_equal(p.executions, q.executions);
        assert_int_equal(p.events, q.events);
        assert_int_equal(p.estimate, q.estimate);
        assert_int_equal(p.cx_faults, q.cx_faults);
        assert_int_equal(p.cx_events, q.cx_events);
        assert_true(p.cx_value == q.cx_value);
        assert_int_equal(p.n_choices, q.n_choices);
        if (p.n_choices)
            assert_memory_equal(p.choices, q.choices, p.n_choices);
        assert_int_equal(p.n_trace, q.n_trace);
        if (p.n_trace)
            assert_memory_equal(p.trace, q.trace, p.n_trace * sizeof *p.trace);
        *counted += !p.found;
        sim_proof_free(&p);
        sim_proof_free(&q);
    }
}

/* One board of a random sweep: its bounds (0 to 2 faults; 2 or 3 jobs, 2
 * with two faults) and one of six measures drawn from g (with `on`, the
 * first or the last instead of one the board does not have), then
 * same_as_every_run; a proof estimated at more than 20,000 runs is left
 * out (seconds under ASan). */
static void sweep_board(const sim_board *board, tb_gen *g, const sim_measure measures[6], bool on,
                        int *counted)
{
    int faults = (int)tb_gen_below(g, 3);
    int jobs = faults < 2 ? 2 + (int)tb_gen_below(g, 2) : 2;
    sim_board b = sim_prove_board(board, jobs);
    sim_measure measure = measures[tb_gen_below(g, 6)];
    if (on && !sim_measure_on(&b, measure))
        measure = measures[tb_gen_below(g, 2) ? 0 : 5];
    sim_prove_opts o = {measure, false, jobs, faults, 0, false, false};
    int64_t runs = 0, events = 0;
    char msg[256];
    if (sim_prove_estimate(&b, NULL, &o, &runs, &events, msg, sizeof msg) == 0 && runs > 20000)
        return;
    same_as_every_run(&b, measure, jobs, faults, counted);
}

/* What a random sweep's boards are drawn from (random_board): the chance
 * of each setting (0: never, and nothing is drawn for it) and the values
 * drawn among. Times in µs. */
typedef struct {
    unsigned shape; /* before the draws below */
    double alone;   /* chance of alone_shape instead */
    unsigned alone_shape;
    double database, provider, two_hops; /* chance each is added (two hops: with a broker) */
    sim_idempotency policies[5];         /* the handler's (and the second handler's) */
    int64_t ttls[4];                     /* keys kept for, drawn among n_ttls */
    int n_ttls;
    double key_ttl, provider_ttl; /* chance the handler's, the provider's key has one */
    double lease;                 /* chance of a claim's lease, one of leases */
    int64_t leases[3];
    int n_leases;
    double call_lose_request, call_lose_reply, provider_fail;
    double call_timeout; /* chance of 45 ms, racing the call's 50 ms */
    double fail, crash_after_effect, crash_after_commit;
    double work; /* chance of work_us */
    sim_latency work_us;
    double lose_reply, lose_request; /* the delivery's */
    double one_at_a_time;            /* concurrency 1 */
    double tries;                    /* chance of tries_min, or one more with tries_more */
    int tries_min;
    bool tries_more;
    double sender_timeout;          /* 20 ms, redelivery too */
    double backoff, at_most_once;   /* with a broker */
    bool second_policy, second_ttl; /* two hops: the second handler's policy, key ttl */
    double confirms;                /* the users publish with confirms, timeout_us */
    int64_t confirm_timeout_us;
    double message_id, dedup; /* then: IDs per publish; a dedup window, one of windows */
    int64_t windows[3];
    int n_windows;
    double dlq, dlq_poison; /* a dead-letter queue (with a broker); then poison */
    double poisson, poison, repeat_share, op_set;
} board_odds;

/* A draw with chance p; none at all when p is 0, so a setting a sweep
 * never has takes no number from g. */
static bool odds(tb_gen *g, double p)
{
    return p > 0 && tb_gen_chance(g, p);
}

/* One random board of 3 jobs drawn from g by o. */
static void random_board(tb_board *t, tb_gen *g, const board_odds *o)
{
    unsigned shape = odds(g, o->alone) ? o->alone_shape : o->shape;
    if (odds(g, o->database))
        shape |= TB_DATABASE;
    if (odds(g, o->provider))
        shape |= TB_PROVIDER;
    if ((shape & TB_BROKER) && odds(g, o->two_hops))
        shape |= TB_TWO_HOPS;
    tb_init(t, shape, 3);
    sim_part *h = tb_handler(t), *sender = tb_sender(t);
    h->idempotency = o->policies[tb_gen_below(g, 5)];
    if (odds(g, o->key_ttl))
        h->key_ttl_us = o->ttls[tb_gen_below(g, (uint64_t)o->n_ttls)];
    if ((shape & TB_PROVIDER) && odds(g, o->provider_ttl))
        t->parts[t->provider].key_ttl_us = o->ttls[tb_gen_below(g, (uint64_t)o->n_ttls)];
    if (odds(g, o->lease))
        h->lease_us = o->leases[tb_gen_below(g, (uint64_t)o->n_leases)];
    if (shape & TB_PROVIDER) {
        if (odds(g, o->call_lose_request))
            t->links[t->call].lose_request = 0.01;
        if (odds(g, o->call_lose_reply))
            t->links[t->call].lose_reply = 0.01;
        if (odds(g, o->provider_fail))
            t->parts[t->provider].fail = 0.01;
        if (odds(g, o->call_timeout))
            h->timeout_us = 45000;
    }
    if (odds(g, o->fail))
        h->fail = 0.01;
    if (odds(g, o->crash_after_effect))
        h->crash_after_effect = 0.01;
    if (odds(g, o->crash_after_commit))
        h->crash_after_commit = 0.01;
    if (odds(g, o->work))
        h->work = o->work_us;
    if (odds(g, o->lose_reply))
        tb_delivery(t)->lose_reply = 0.01;
    if (odds(g, o->lose_request))
        tb_delivery(t)->lose_request = 0.01;
    if (odds(g, o->one_at_a_time))
        h->concurrency = 1;
    if (odds(g, o->tries))
        sender->tries = o->tries_min + (o->tries_more ? (int)tb_gen_below(g, 2) : 0);
    if (odds(g, o->sender_timeout))
        sender->timeout_us = sender->redelivery_after_us = 20000;
    if ((shape & TB_BROKER) && odds(g, o->backoff)) {
        sender->backoff_factor = 2;
        sender->backoff_jitter = tb_gen_chance(g, 0.5);
    }
    if ((shape & TB_BROKER) && odds(g, o->at_most_once))
        sender->delivery = SIM_DELIVERY_AT_MOST_ONCE;
    if (shape & TB_TWO_HOPS) {
        h->publish = (sim_publish)tb_gen_below(g, SIM_PUBLISH_COUNT);
        if (o->second_policy)
            t->parts[t->handler2].idempotency = o->policies[tb_gen_below(g, 5)];
        if (o->second_ttl)
            t->parts[t->handler2].key_ttl_us = o->ttls[tb_gen_below(g, (uint64_t)o->n_ttls)];
        if (tb_gen_chance(g, 0.5))
            t->links[t->delivery2].lose_reply = 0.01;
    }
    if ((shape & TB_BROKER) && odds(g, o->confirms)) {
        t->links[t->publish].lose_reply = 0.01;
        t->parts[t->users].timeout_us = o->confirm_timeout_us;
        if (odds(g, o->message_id))
            t->parts[t->users].message_id = SIM_MESSAGE_ID_PER_PUBLISH;
        if (odds(g, o->dedup))
            t->parts[t->broker].dedup_window_us =
                o->windows[tb_gen_below(g, (uint64_t)o->n_windows)];
    }
    if ((shape & TB_BROKER) && odds(g, o->dlq)) {
        int q = (int)t->b.n_parts++;
        memset(&t->parts[q], 0, sizeof t->parts[q]);
        t->parts[q].kind = SIM_KIND_DLQ;
        t->parts[q].id = "dlq";
        t->parts[t->broker].dead_letter = q + 1;
        if (odds(g, o->dlq_poison))
            t->b.traffic.poison = 0.1;
    }
    if (odds(g, o->poisson))
        t->b.traffic.arrivals = SIM_ARRIVALS_POISSON;
    if (odds(g, o->poison))
        t->b.traffic.poison = 0.1;
    if (odds(g, o->repeat_share))
        t->b.traffic.repeat_share = 0.2;
    if (odds(g, o->op_set))
        t->b.traffic.op = SIM_OP_SET;
}

/* rounds boards of o from seed, each through sweep_board; at least
 * min_counted of their claims decided by the counting. */
static void sweep(const board_odds *o, uint64_t seed, int rounds, const sim_measure measures[6],
                  bool on, int min_counted)
{
    tb_gen g;
    tb_gen_seed(&g, seed);
    int counted = 0;
    for (int k = 0; k < rounds; k++) {
        tb_board t;
        random_board(&t, &g, o);
        sweep_board(&t.b, &g, measures, on, &counted);
    }
    assert_true(counted >= min_counted);
}

static void counting_states_changes_nothing(void **state)
{
    (void)state;
    static const sim_measure measures[] = {SIM_M_DUPLICATES,   SIM_M_LOST_WRITES,
                                           SIM_M_ERRORS,       SIM_M_LOST_EVENTS,
                                           SIM_M_GHOST_EVENTS, SIM_M_DOWNSTREAM_DUPLICATES};
    /* clang-format off: one line a group of settings */
    static const board_odds o = {
        .shape = TB_BROKER, .alone = 0.3, .alone_shape = 0,
        .database = 0.5, .provider = 0.3, .two_hops = 0.4,
        .policies = {SIM_IDEM_NONE, SIM_IDEM_KEY_AFTER_EFFECT, SIM_IDEM_KEY_IN_TRANSACTION,
                     SIM_IDEM_KEY_CLAIMED_FIRST, SIM_IDEM_BUSINESS_KEY},
        .ttls = {1500000}, .n_ttls = 1, .key_ttl = 0.3,
        .lease = 0.2, .leases = {5000}, .n_leases = 1,
        .fail = 0.2, .crash_after_effect = 0.5, .crash_after_commit = 0.3,
        .work = 0.5, .work_us = {10000, 900000},
        .lose_reply = 0.4, .lose_request = 0.3, .one_at_a_time = 0.2,
        .tries = 0.3, .tries_min = 2,
        .backoff = 0.2, .at_most_once = 0.1,
        .second_policy = true,
        .confirms = 0.3, .confirm_timeout_us = 500000,
        .message_id = 0.5, .dedup = 0.5, .windows = {2000000}, .n_windows = 1,
        .poisson = 0.3, .poison = 0.1, .repeat_share = 0.2, .op_set = 0.3,
    };
    /* clang-format on */
    sweep(&o, 27, 120, measures, false, 60);
}

/* The same on what the sweep above leaves out, where the fingerprint keeps
 * times or leaves them out (sim-core/model_state.c "The fields of the
 * state"): the provider's key (kept forever or for a few ms), a handler's
 * key, a claim's lease and a broker's dedup window of a few ms (they
 * expire inside a run), call timeouts (a lost call request or response),
 * the handler's own failures, a dead-letter queue, and the measures of
 * dead letters, charges and the second hop's writes and errors. */
static void counting_states_times_and_calls(void **state)
{
    (void)state;
    static const sim_measure measures[] = {
        SIM_M_CHARGED_TWICE, SIM_M_DEAD_LETTERED, SIM_M_ERRORS, SIM_M_DOWNSTREAM_LOST_WRITES,
        SIM_M_DOWNSTREAM_ERRORS, SIM_M_DUPLICATES};
    /* clang-format off: one line a group of settings */
    static const board_odds o = {
        .shape = TB_BROKER | TB_PROVIDER, .alone = 0.2, .alone_shape = TB_PROVIDER,
        .database = 0.4, .two_hops = 0.3,
        .policies = {SIM_IDEM_PROVIDER_KEY, SIM_IDEM_KEY_AFTER_EFFECT,
                     SIM_IDEM_KEY_IN_TRANSACTION, SIM_IDEM_KEY_CLAIMED_FIRST, SIM_IDEM_NONE},
        .ttls = {SIM_FOREVER, 5000, 25000, 300000}, .n_ttls = 4, .key_ttl = 1,
        .provider_ttl = 1,
        .lease = 0.5, .leases = {5000, 25000, 300000}, .n_leases = 3,
        .call_lose_request = 0.4, .call_lose_reply = 0.5, .provider_fail = 0.3,
        .call_timeout = 0.4,
        .fail = 0.3, .crash_after_effect = 0.3,
        .work = 0.5, .work_us = {1000, 40000},
        .lose_reply = 0.3, .one_at_a_time = 0.3,
        .tries = 1, .tries_min = 2, .tries_more = true, .sender_timeout = 0.5,
        .second_ttl = true,
        .confirms = 0.4, .confirm_timeout_us = 20000,
        .dedup = 1, .windows = {5000, 25000, 300000}, .n_windows = 3,
        .dlq = 0.4, .dlq_poison = 0.5,
        .poisson = 0.3,
    };
    /* clang-format on */
    sweep(&o, 4, 150, measures, true, 40);
}

/* Boards where a time the fingerprint keeps decides the rest of a run:
 * two runs meet with the same pending events but a key recorded at
 * different times (the work short or long before a lost acknowledgment),
 * and the key, kept a few ms, expires before the redelivery in one of
 * them only. With a finite key's time left out of the fingerprint
 * (sim-core/model_state.c "The fields of the state") the counting explorer
 * counts 6 runs where every run replayed makes 5. The same shapes with a
 * claim's lease, the broker's dedup window and a call's timeout racing its
 * response: no board of these was found where leaving their times out
 * changes a count, but they are hashed all the same. */
static void counting_states_keeps_times(void **state)
{
    (void)state;
    static const int64_t windows[] = {5000, 20000, 50000};
    int counted = 0;
    for (int family = 0; family < 4; family++)
        for (int w = 0; w < 3; w++)
            for (int k = 0; k < 8; k++) {
                tb_board t;
                tb_init(&t, TB_BROKER | (family == 3 ? TB_PROVIDER : TB_DATABASE), 3);
                sim_part *h = tb_handler(&t), *sender = tb_sender(&t);
                h->work = (sim_latency){1000, k & 1 ? 40000 : 20000};
                sender->redelivery_after_us = k & 2 ? 60000 : 30000;
                sender->tries = 4;
                tb_delivery(&t)->lose_reply = 0.01;
                if (family == 0) { /* a key kept for a while */
                    h->idempotency = SIM_IDEM_KEY_AFTER_EFFECT;
                    h->key_ttl_us = windows[w];
                } else if (family == 1) { /* a claim's lease */
                    h->idempotency = SIM_IDEM_KEY_CLAIMED_FIRST;
                    h->lease_us = windows[w];
                    h->crash_after_effect = 0.01;
                } else if (family == 2) { /* the broker's dedup window */
                    t.links[t.publish].lose_reply = 0.01;
                    t.parts[t.users].timeout_us = 30000;
                    t.parts[t.broker].dedup_window_us = windows[w];
                } else { /* the call's timeout */
                    h->idempotency = SIM_IDEM_PROVIDER_KEY;
                    t.parts[t.provider].key_ttl_us = windows[w];
                    t.links[t.call].lose_reply = 0.01;
                    h->timeout_us = 45000;
                }
                int jobs = 1 + (k >> 2), faults = 1 + (k >> 2);
                sim_board b = sim_prove_board(&t.b, jobs);
                same_as_every_run(&b, SIM_M_LOST_WRITES, jobs, faults, &counted);
            }
    assert_true(counted >= 40);
}

/* A driven run takes no random number: the sampled runs are unchanged
 * (tests/wasm/pins.tsv and the goldens pin them), and a board's own seed
 * changes nothing in a proof. */
static void seed_changes_nothing(void **state)
{
    (void)state;
    tb_board t;
    race_board(&t, SIM_IDEM_KEY_AFTER_EFFECT);
    sim_proof a = proved(&t, SIM_M_DUPLICATES, 2, 0);
    t.b.seed = 12345;
    sim_proof b = proved(&t, SIM_M_DUPLICATES, 2, 0);
    assert_int_equal(a.runs, b.runs);
    assert_int_equal(a.n_trace, b.n_trace);
    assert_memory_equal(a.trace, b.trace, a.n_trace * sizeof *a.trace);
    sim_proof_free(&a);
    sim_proof_free(&b);
}

/* The estimate the budget uses, made before the proof runs, is within a
 * factor of 3 of the runs the proof then makes, on boards whose claim holds
 * (the whole tree is explored): no fault to place, lost acks, crashes,
 * racing copies, two hops. */
static void estimate_within_a_small_factor(void **state)
{
    (void)state;
    tb_board t[5];
    int jobs[5] = {3, 3, 3, 2, 3}, faults[5] = {0, 2, 2, 2, 1};
    sim_measure m[5] = {SIM_M_DUPLICATES, SIM_M_DUPLICATES, SIM_M_DUPLICATES, SIM_M_DUPLICATES,
                        SIM_M_DUPLICATES};
    race_board(&t[0], SIM_IDEM_KEY_IN_TRANSACTION);
    consumer(&t[1], SIM_IDEM_KEY_IN_TRANSACTION);
    tb_delivery(&t[1])->lose_reply = 0.01;
    tb_handler(&t[1])->crash_after_effect = 0.01;
    race_board(&t[2], SIM_IDEM_KEY_IN_TRANSACTION);
    tb_delivery(&t[2])->lose_reply = 0.01;
    tb_handler(&t[2])->crash_after_effect = 0.01;
    consumer(&t[3], SIM_IDEM_KEY_IN_TRANSACTION);
    tb_delivery(&t[3])->lose_reply = 0.01;
    tb_delivery(&t[3])->lose_request = 0.01;
    tb_handler(&t[3])->crash_after_effect = 0.01;
    tb_handler(&t[3])->crash_after_commit = 0.01;
    race_board(&t[4], SIM_IDEM_KEY_IN_TRANSACTION);
    tb_handler(&t[4])->crash_after_commit = 0.01;
    for (int i = 0; i < 5; i++) {
        sim_proof p = proved(&t[i], m[i], jobs[i], faults[i]);
        assert_true(p.holds);
        print_message("board %d: %lld runs, estimated %lld\n", i, (long long)p.runs,
                      (long long)p.estimate);
        assert_true(p.estimate * 3 >= p.runs);
        assert_true(p.estimate <= p.runs * 3);
        sim_proof_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_key_loses_one_ack),
        cmocka_unit_test(key_in_transaction_holds),
        cmocka_unit_test(check_after_effect_one_crash),
        cmocka_unit_test(check_then_act_races),
        cmocka_unit_test(unique_insert_holds),
        cmocka_unit_test(replay_gives_the_same_events),
        cmocka_unit_test(sometimes_finds_a_witness),
        cmocka_unit_test(budget_and_brute_force),
        cmocka_unit_test(seed_changes_nothing),
        cmocka_unit_test(counting_states_changes_nothing),
        cmocka_unit_test(counting_states_times_and_calls),
        cmocka_unit_test(counting_states_keeps_times),
        cmocka_unit_test(estimate_within_a_small_factor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

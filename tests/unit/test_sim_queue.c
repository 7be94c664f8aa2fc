/* test_sim_queue.c — the event queue takes events in (time, insertion)
 * order, whether they were pushed to the heap or to a lane. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "queue.h"
#include "sim_testlib.h"

#include <stdbool.h>
#include <stdlib.h>

static void empty_queue_pops_nothing(void **state)
{
    (void)state;
    sim_queue q;
    queue_init(&q);
    sim_event e;
    assert_false(queue_pop(&q, &e));
    assert_int_equal(queue_size(&q), 0);
    queue_free(&q);
}

static void earliest_first(void **state)
{
    (void)state;
    sim_queue q;
    queue_init(&q);
    const int64_t times[] = {50, 10, 40, 30, 20, 60, 0};
    for (uint32_t i = 0; i < 7; i++)
        queue_push(&q, QUEUE_HEAP, times[i], 3, i, 0, 0, 0);
    assert_int_equal(queue_size(&q), 7);
    const uint32_t order[] = {6, 1, 4, 3, 2, 0, 5};
    sim_event e;
    for (int i = 0; i < 7; i++) {
        assert_true(queue_pop(&q, &e));
        assert_int_equal(e.job, order[i]);
        assert_int_equal(event_kind(&e), 3);
    }
    assert_false(queue_pop(&q, &e));
    queue_free(&q);
}

static void ties_go_in_insertion_order(void **state)
{
    (void)state;
    sim_queue q;
    queue_init(&q);
    /* same time, mixed heap and lanes, kinds that would sort the other way */
    for (uint32_t i = 0; i < 100; i++)
        queue_push(&q, (int)(i % 3) - 1, 1000, 99 - i % 50, i, 0, 0, 0);
    sim_event e;
    for (uint32_t i = 0; i < 100; i++) {
        assert_true(queue_pop(&q, &e));
        assert_int_equal(e.job, i);
    }
    queue_free(&q);
}

static void fields_round_trip(void **state)
{
    (void)state;
    sim_queue q;
    queue_init(&q);
    queue_push(&q, 2, 123456789012LL, 7, 4000000000u, 17, 99, 5);
    sim_event e;
    assert_true(queue_pop(&q, &e));
    assert_int_equal(e.t_us, 123456789012LL);
    assert_int_equal(event_kind(&e), 7);
    assert_int_equal(e.job, 4000000000u);
    assert_int_equal(e.arg, 17);
    assert_int_equal(e.gen, 99);
    assert_int_equal(e.slot, 5);
    queue_free(&q);
}

static bool before(const sim_event *a, const sim_event *b)
{
    return a->t_us < b->t_us || (a->t_us == b->t_us && a->order < b->order);
}

/* Random pushes, never earlier than the last pop, interleaved with pops,
 * to the heap and to lanes that sometimes get an out-of-order time: every
 * event comes out once, in strictly increasing (t, seq). */
static void random_mix_comes_out_sorted(void **state)
{
    (void)state;
    tb_gen r;
    tb_gen_seed(&r, 99);
    sim_queue q;
    queue_init(&q);
    uint32_t n = 200000, pushed = 0, popped = 0;
    bool *seen = calloc(n, sizeof *seen);
    assert_non_null(seen);
    sim_event prev = {-1, 0, 0, 0, 0, 0}, e;
    int64_t now = 0;
    while (pushed < n || queue_size(&q) > 0) {
        if (pushed < n) {
            int lane = (int)tb_gen_below(&r, QUEUE_LANES + 1) - 1;
            /* lanes mostly get a constant delay; sometimes a random one */
            int64_t delay = lane >= 0 && tb_gen_chance(&r, 0.9) ? 100 * (lane + 1)
                                                                : (int64_t)tb_gen_below(&r, 1000);
            queue_push(&q, lane, now + delay, (unsigned)tb_gen_below(&r, 12), pushed++, 0, 0, 0);
            if (!tb_gen_chance(&r, 0.45))
                continue;
        }
        assert_true(queue_pop(&q, &e));
        assert_true(before(&prev, &e));
        assert_false(seen[e.job]);
        seen[e.job] = true;
        prev = e;
        now = e.t_us;
        popped++;
    }
    assert_int_equal(popped, n);
    assert_false(q.oom);
    free(seen);
    queue_free(&q);
}

/* Pops come out in (t, seq) order even across lanes and the heap. */
static void pops_are_sorted(void **state)
{
    (void)state;
    tb_gen r;
    tb_gen_seed(&r, 5);
    sim_queue q;
    queue_init(&q);
    for (int i = 0; i < 50000; i++) {
        int lane = (int)tb_gen_below(&r, QUEUE_LANES + 1) - 1;
        queue_push(&q, lane, (int64_t)tb_gen_below(&r, 2000), 0, (uint32_t)i, 0, 0, 0);
    }
    sim_event prev, e;
    assert_true(queue_pop(&q, &prev));
    int n = 1;
    while (queue_pop(&q, &e)) {
        assert_true(before(&prev, &e));
        prev = e;
        n++;
    }
    assert_int_equal(n, 50000);
    queue_free(&q);
}

static void clear_restarts_the_sequence(void **state)
{
    (void)state;
    sim_queue q;
    queue_init(&q);
    for (uint32_t i = 0; i < 1000; i++)
        queue_push(&q, (int)(i % 2), i, 1, i, 0, 0, 0);
    queue_clear(&q);
    assert_int_equal(queue_size(&q), 0);
    queue_push(&q, 0, 5, 1, 42, 0, 0, 0);
    sim_event e;
    assert_true(queue_pop(&q, &e));
    assert_int_equal(e.job, 42);
    assert_true(e.order >> 8 == 0);
    assert_false(queue_pop(&q, &e));
    queue_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_queue_pops_nothing),    cmocka_unit_test(earliest_first),
        cmocka_unit_test(ties_go_in_insertion_order),  cmocka_unit_test(fields_round_trip),
        cmocka_unit_test(random_mix_comes_out_sorted), cmocka_unit_test(pops_are_sorted),
        cmocka_unit_test(clear_restarts_the_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

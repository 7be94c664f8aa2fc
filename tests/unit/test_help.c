/* test_help.c — the author's reference covers every row of the tables it is
 * read from: each board, traffic, part and link key (a setting's line is in
 * its schema.h row), part kind, protocol, idempotency policy, measure and
 * directive has its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "help.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static void every_row_has_its_line(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    size_t n = help_missing(&b);
    if (n)
        fprintf(stderr,
                "the reference has no line (generator/help.c, or the row in sim-core/schema.h) "
                "for:\n%s",
                b.data);
    assert_int_equal(n, 0);
    buf_free(&b);
}

static void reference_names_every_measure_and_kind(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    help_reference(&b, NULL);
    static const char *const want[] = {"| `errors` | count | Jobs given up",
                                       "### `payment-provider`",
                                       "| `{{ compare ID ID ... [rows: [MEASURE, ...]] }}` |",
                                       "| `lose_reply_of` |", "| `repeat_share` |"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_non_null(strstr(b.data, want[i]));
    /* without a catalog there are no defaults to show */
    assert_null(strstr(b.data, "default (catalog)"));
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_has_its_line),
        cmocka_unit_test(reference_names_every_measure_and_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

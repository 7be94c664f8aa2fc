/* test_units.c — quantities with units: durations, money, probabilities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "load/units.h"

#include <string.h>

static diag_note err;

/* err as the terminal says it, its hint included */
static const char *said(void)
{
    static char text[sizeof err.msg + sizeof err.hint + 4];
    diag_note_text(&err, text, sizeof text);
    return text;
}
static size_t col;

static int64_t dur(const char *s)
{
    int64_t us = -1;
    assert_int_equal(units_duration(s, &us, &err, &col), 0);
    return us;
}

static void durations(void **state)
{
    (void)state;
    assert_int_equal(dur("150 ms"), 150000);
    assert_int_equal(dur("10 s"), 10000000);
    assert_int_equal(dur("1.5 s"), 1500000);
    assert_int_equal(dur("5 min"), 300000000);
    assert_int_equal(dur("24 h"), 86400000000LL);
    assert_int_equal(dur("7 d"), 604800000000LL);
    assert_int_equal(dur("250 us"), 250);
    assert_int_equal(dur("0.5ms"), 500);
    assert_int_equal(dur("0 s"), 0);
}

static void duration_errors(void **state)
{
    (void)state;
    int64_t us;
    assert_int_equal(units_duration("150", &us, &err, &col), -1);
    assert_string_equal(said(),
                        "duration '150' needs a unit (us, ms, s, min, h or d), e.g. '150 s'");
    assert_int_equal(col, 3);
    assert_int_equal(units_duration("10 sec", &us, &err, &col), -1);
    assert_string_equal(said(), "unknown duration unit 'sec'; did you mean 's' (seconds)?");
    assert_string_equal(err.msg, "unknown duration unit 'sec'"); /* the hint apart */
    assert_string_equal(err.hint, "did you mean 's' (seconds)?");
    assert_int_equal(col, 3);
    /* minutes, not a misspelt "ms" */
    assert_int_equal(units_duration("1m", &us, &err, &col), -1);
    assert_string_equal(said(), "unknown duration unit 'm'; did you mean 'min' (minutes)?");
    assert_int_equal(col, 1);
    assert_int_equal(units_duration("2 days", &us, &err, &col), -1);
    assert_string_equal(said(), "unknown duration unit 'days'; did you mean 'd' (days)?");
    assert_int_equal(units_duration("10 parsecs", &us, &err, &col), -1);
    assert_string_equal(said(), "unknown duration unit 'parsecs' (expected 'us', 'ms', 's', 'min', "
                                "'h' or 'd')");
    assert_int_equal(units_duration("fast", &us, &err, &col), -1);
    assert_string_equal(said(), "expected a number, found 'fast'");
    assert_int_equal(col, 0);
    assert_int_equal(units_duration("-3 s", &us, &err, &col), -1);
    assert_string_equal(said(), "duration '-3 s' is negative");
    assert_int_equal(units_duration("1. s", &us, &err, &col), -1);
    assert_int_equal(units_duration("99999999999999 d", &us, &err, &col), -1);
    assert_string_equal(said(), "duration '99999999999999 d' is too long");
}

static void forever(void **state)
{
    (void)state;
    int64_t us = 0;
    assert_int_equal(units_duration_or_forever("forever", &us, &err, &col), 0);
    assert_true(us == INT64_MAX);
    assert_int_equal(units_duration_or_forever("5 min", &us, &err, &col), 0);
    assert_int_equal(us, 300000000);
    assert_int_equal(units_duration("forever", &us, &err, &col), -1);
}

static void money(void **state)
{
    (void)state;
    double usd = -1;
    assert_int_equal(units_money("12 USD", &usd, &err, &col), 0);
    assert_true(usd == 12.0);
    assert_int_equal(units_money("0.25 USD", &usd, &err, &col), 0);
    assert_true(usd == 0.25);
    assert_int_equal(units_money("12", &usd, &err, &col), -1);
    assert_string_equal(said(), "amount '12' needs a currency, e.g. '12 USD'");
    assert_int_equal(units_money("12 usd", &usd, &err, &col), -1);
    assert_string_equal(said(), "unknown currency 'usd'; did you mean 'USD'?");
    assert_int_equal(units_money("12 EUR", &usd, &err, &col), -1);
    assert_string_equal(said(), "unknown currency 'EUR' (expected 'USD')");
    assert_int_equal(col, 3);
}

static void probabilities(void **state)
{
    (void)state;
    double p = -1;
    assert_int_equal(units_probability("0.2", &p, &err, &col), 0);
    assert_true(p == 0.2);
    assert_int_equal(units_probability("20%", &p, &err, &col), 0);
    assert_true(p == 0.2);
    assert_int_equal(units_probability("0", &p, &err, &col), 0);
    assert_true(p == 0.0);
    assert_int_equal(units_probability("100%", &p, &err, &col), 0);
    assert_true(p == 1.0);
    assert_int_equal(units_probability("1.2", &p, &err, &col), -1);
    assert_string_equal(said(), "probability '1.2' is outside 0 to 1 (0% to 100%)");
    assert_int_equal(units_probability("-0.1", &p, &err, &col), -1);
    assert_int_equal(units_probability("20 %", &p, &err, &col), 0);
    assert_int_equal(units_probability("0.2 s", &p, &err, &col), -1);
    assert_string_equal(said(), "probability '0.2 s' takes no unit but '%' (write 0.2 or 20%)");
}

static void counts_and_numbers(void **state)
{
    (void)state;
    int64_t n = 0;
    double x = 0;
    assert_int_equal(units_count("1000", &n, &err, &col), 0);
    assert_int_equal(n, 1000);
    assert_int_equal(units_count("-5", &n, &err, &col), 0);
    assert_int_equal(n, -5);
    assert_int_equal(units_count("10.5", &n, &err, &col), -1);
    assert_string_equal(said(), "expected a whole number, found '10.5'");
    assert_int_equal(col, 2);
    assert_int_equal(units_count("99999999999999999999", &n, &err, &col), -1);
    assert_string_equal(said(), "number '99999999999999999999' is too large");
    assert_int_equal(units_number("1.5", &x, &err, &col), 0);
    assert_true(x == 1.5);
    assert_int_equal(units_number("2", &x, &err, &col), 0);
    assert_true(x == 2.0);
    assert_int_equal(units_number("2 vcpu", &x, &err, &col), -1);
    assert_string_equal(said(), "expected a number, found '2 vcpu'");
}

static void scan_is_exact(void **state)
{
    (void)state;
    double x = 0;
    assert_int_equal(units_scan_number("0.1", &x), 3);
    assert_true(x == 0.1);
    assert_int_equal(units_scan_number("123.456xyz", &x), 7);
    assert_true(x == 123.456);
    assert_int_equal(units_scan_number("0.000001", &x), 8);
    assert_true(x == 0.000001);
    assert_int_equal(units_scan_number(".5", &x), 2);
    assert_true(x == 0.5);
    assert_int_equal(units_scan_number("1234567890123456", &x), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(durations),     cmocka_unit_test(duration_errors),
        cmocka_unit_test(forever),       cmocka_unit_test(money),
        cmocka_unit_test(probabilities), cmocka_unit_test(counts_and_numbers),
        cmocka_unit_test(scan_is_exact),
    };
    return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}

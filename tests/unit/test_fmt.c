/* test_fmt.c — numbers as pages and results.json show them, in every locale. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/fmt.h"
#include "gen_testlib.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*fmt_fn)(buf *, double);

static void check(fmt_fn fn, double x, const char *want, const char *expr)
{
    buf b;
    buf_init(&b);
    fn(&b, x);
    if (!b.data || strcmp(b.data, want) != 0)
        fail_msg("%s(%.17g) gave \"%s\", want \"%s\"", expr, x, b.data ? b.data : "", want);
    buf_free(&b);
}

#define EQ(fn, x, want) check(fn, x, want, #fn)

static void measure_eq(sim_measure m, double v, const char *want)
{
    buf b;
    buf_init(&b);
    fmt_measure(&b, m, v);
    if (strcmp(b.data, want) != 0)
        fail_msg("fmt_measure(%s, %.17g) gave \"%s\", want \"%s\"", sim_measure_name(m), v, b.data,
                 want);
    buf_free(&b);
}

static void duration_us_eq(int64_t us, const char *want)
{
    buf b;
    buf_init(&b);
    fmt_duration_us(&b, us);
    assert_string_equal(b.data, want);
    buf_free(&b);
}

static void numbers(void **state)
{
    (void)state;
    EQ(fmt_number, 200, "200");
    EQ(fmt_number, 0, "0");
    EQ(fmt_number, -0.0, "0");
    EQ(fmt_number, 1200.4, "1200.4");
    EQ(fmt_number, 1200.04, "1200");
    EQ(fmt_number, 1200.96, "1201");
    EQ(fmt_number, 243.14, "243.1");
    EQ(fmt_number, -3.25, "-3.2");
    EQ(fmt_number, 0.04, "0.04");
    EQ(fmt_number, 0.35, "0.35");
    EQ(fmt_number, 0.0001234, "0.00012");
    EQ(fmt_number, 0.99999, "1");
    EQ(fmt_number, 2.0000000001, "2");
    EQ(fmt_number, -0.0000000001, "0");
    EQ(fmt_number, 1e15, "1000000000000000");
    EQ(fmt_number, 1e15 - 1, "999999999999999");
    EQ(fmt_number, 1e15 + 0.5, "1000000000000000.5");
    /* Far beyond any count, still every digit and no exponent. */
    buf b;
    buf_init(&b);
    fmt_number(&b, 1e300);
    assert_in_range(b.len, 300, 301);
    assert_int_equal(strspn(b.data, "0123456789"), b.len);
    assert_true(strtod(b.data, NULL) == 1e300);
    buf_free(&b);
}

static void seconds(void **state)
{
    (void)state;
    EQ(fmt_seconds, 0, "0 s");
    EQ(fmt_seconds, 0.00025, "250 µs");
    EQ(fmt_seconds, 0.0000025, "2.5 µs");
    EQ(fmt_seconds, 0.15, "150 ms");
    EQ(fmt_seconds, 0.0015, "1.5 ms");
    EQ(fmt_seconds, 0.002, "2 ms");
    EQ(fmt_seconds, 10.1, "10.1 s");
    EQ(fmt_seconds, 10.14, "10.1 s");
    EQ(fmt_seconds, 10, "10 s");
    EQ(fmt_seconds, 1, "1 s");
    EQ(fmt_seconds, 90, "1.5 min");
    EQ(fmt_seconds, 300, "5 min");
    EQ(fmt_seconds, 3600, "1 h");
    EQ(fmt_seconds, 86400, "24 h");
    EQ(fmt_seconds, 36 * 3600.0, "36 h");
    EQ(fmt_seconds, 2 * 86400.0, "2 d");
    EQ(fmt_seconds, 7 * 86400.0, "7 d");
    /* A value that rounds up to the next unit is written in that unit. */
    EQ(fmt_seconds, 0.0009997, "1 ms");
    EQ(fmt_seconds, 0.9996, "1 s");
    EQ(fmt_seconds, 59.96, "1 min");
    EQ(fmt_seconds, 3599.0, "1 h");
    EQ(fmt_seconds, 47.99 * 3600, "2 d");
    duration_us_eq(150000, "150 ms");
    duration_us_eq(86400000000LL, "24 h");
    duration_us_eq(INT64_MAX, "forever");
}

static void ratios(void **state)
{
    (void)state;
    EQ(fmt_ratio, 0, "0%");
    EQ(fmt_ratio, -0.0, "0%");
    EQ(fmt_ratio, 0.00032, "0.032%");
    EQ(fmt_ratio, 0.003, "0.3%");
    EQ(fmt_ratio, 0.2, "20%");
    EQ(fmt_ratio, 0.125, "12.5%");
    EQ(fmt_ratio, 1, "100%");
    EQ(fmt_ratio, 0.015, "1.5%");
    EQ(fmt_ratio, 0.0000015, "0.00015%");
}

static void money(void **state)
{
    (void)state;
    EQ(fmt_usd_month, 12, "12 USD/mo");
    EQ(fmt_usd_month, 12.5, "12.50 USD/mo");
    EQ(fmt_usd_month, 0, "0 USD/mo");
    EQ(fmt_usd_month, -0.0, "0 USD/mo");
    EQ(fmt_usd_month, 11.999, "12 USD/mo");
    EQ(fmt_usd_month, 12.004, "12 USD/mo");
    EQ(fmt_usd_month, 0.25, "0.25 USD/mo");
    EQ(fmt_usd, 3, "3 USD");
    EQ(fmt_usd, 0.25, "0.25 USD");
}

static void words_before_eq(const char *words, int64_t us, const char *want)
{
    buf b;
    buf_init(&b);
    fmt_words_before(&b, words, us);
    if (strcmp(b.data ? b.data : "", want) != 0)
        fail_msg("fmt_words_before(\"%s\", %lld) gave \"%s\", want \"%s\"", words,
                 (long long)us, b.data ? b.data : "", want);
    buf_free(&b);
}

/* No "for forever": an unbounded duration drops the "for" or "within"
 * before it, a bounded one keeps it; and a number's unit is known as one. */
static void words_and_units(void **state)
{
    (void)state;
    words_before_eq("keeps keys for", INT64_MAX, "keeps keys");
    words_before_eq("keeps keys for", 86400000000, "keeps keys for");
    words_before_eq("drops repeated IDs for ", INT64_MAX, "drops repeated IDs ");
    words_before_eq(" drops a repeated message ID within ", INT64_MAX,
                    " drops a repeated message ID ");
    words_before_eq("holds a claimed key for", 30000000, "holds a claimed key for");
    words_before_eq("waits for a response", INT64_MAX, "waits for a response");
    words_before_eq("before", INT64_MAX, "before");
    words_before_eq("for", INT64_MAX, "for");
    assert_string_equal(fmt_closing_tie("keeps keys for"), "for");
    assert_string_equal(fmt_closing_tie("drops IDs within "), "within");
    assert_null(fmt_closing_tie("platform"));
    static const char *const units[] = {"s", "ms", "min", "h", "d", "µs", "%", "USD/mo",
                                        "USD", "vCPU", "GB", "tries", "RTT", "s,", "s)"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!fmt_unit_word(units[i], strlen(units[i])))
            fail_msg("fmt_unit_word(\"%s\") is false", units[i]);
    static const char *const words[] = {"lost", "payment", "seconds", "sx", ",", ""};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (fmt_unit_word(words[i], strlen(words[i])))
            fail_msg("fmt_unit_word(\"%s\") is true", words[i]);
}

static void like_eq(double s, double like, const char *want)
{
    buf b;
    buf_init(&b);
    fmt_seconds_like(&b, s, like);
    if (strcmp(b.data, want) != 0)
        fail_msg("fmt_seconds_like(%g, %g) gave \"%s\", want \"%s\"", s, like, b.data, want);
    buf_free(&b);
}

/* A spread in its mean's unit: "1.7 s ± 0.7 s", never "± 676 ms". */
static void spread_in_the_means_unit(void **state)
{
    (void)state;
    like_eq(0.676, 1.7, "0.7 s");
    like_eq(0.052, 0.214, "52 ms");
    like_eq(0.0045, 0.150, "4.5 ms");
    like_eq(0.004, 1.7, "4 ms"); /* "0 s" would say there is no spread */
    like_eq(5, 75, "0.1 min");
    like_eq(0.676, 0, "676 ms");
}

static void measures_by_unit(void **state)
{
    (void)state;
    measure_eq(SIM_M_DUPLICATES, 243.14, "243.1");
    measure_eq(SIM_M_JOBS, 1000, "1000");
    measure_eq(SIM_M_ERROR_RATE, 0.00015, "0.015%");
    measure_eq(SIM_M_COMPLETION_TIME, 26.5, "26.5 s");
    measure_eq(SIM_M_LATENCY_P50, 0.15, "150 ms");
    measure_eq(SIM_M_LATENCY_P99, 0.0015, "1.5 ms");
    measure_eq(SIM_M_MONTHLY_COST, 12, "12 USD/mo");
    measure_eq(SIM_M_EVENTS, 123456, "123456");
}

static void json_numbers(void **state)
{
    (void)state;
    EQ(fmt_json_number, 0, "0");
    EQ(fmt_json_number, -0.0, "0");
    EQ(fmt_json_number, 42, "42");
    EQ(fmt_json_number, -7, "-7");
    EQ(fmt_json_number, 9007199254740993.0, "9007199254740992");
    EQ(fmt_json_number, 1e15, "1000000000000000");
    EQ(fmt_json_number, 1e20, "100000000000000000000");
    EQ(fmt_json_number, 0.5, "0.5");
    EQ(fmt_json_number, 26.123456789, "26.123457");
    EQ(fmt_json_number, 0.1, "0.1");
    EQ(fmt_json_number, 1e-7, "0");
    EQ(fmt_json_number, -1e-7, "0");
    EQ(fmt_json_number, 0.000015, "0.000015");
    EQ(fmt_json_number, NAN, "null");
    EQ(fmt_json_number, INFINITY, "null");
    EQ(fmt_json_number, -INFINITY, "null");
    /* No exponent and no lost digits, however large. */
    buf b;
    buf_init(&b);
    fmt_json_number(&b, 1e60);
    assert_in_range(b.len, 60, 61); /* the double nearest 1e60 may lie just below it */
    assert_int_equal(strspn(b.data, "0123456789"), b.len);
    assert_true(strtod(b.data, NULL) == 1e60);
    buf_clear(&b);
    fmt_json_number(&b, -1.5e300);
    assert_int_equal(b.data[0], '-');
    assert_int_equal(strspn(b.data + 1, "0123456789"), b.len - 1);
    assert_true(strtod(b.data, NULL) == -1.5e300);
    buf_free(&b);
}

/* Everything a page shows, formatted in the current locale. */
static void check_all_shown(void)
{
    EQ(fmt_seconds, 10.1, "10.1 s");
    EQ(fmt_seconds, 0.0015, "1.5 ms");
    EQ(fmt_number, 1200.4, "1200.4");
    EQ(fmt_number, 0.35, "0.35");
    EQ(fmt_ratio, 0.125, "12.5%");
    EQ(fmt_ratio, 0.00032, "0.032%");
    EQ(fmt_usd_month, 12.5, "12.50 USD/mo");
    EQ(fmt_json_number, 26.123456789, "26.123457");
    EQ(fmt_json_number, 0.5, "0.5");
}

/* A locale whose decimal separator is ',': de_DE.UTF-8 if installed, else
 * generated into dir with localedef and found through LOCPATH. */
static bool comma_locale(const char *dir)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (setlocale(LC_ALL, names[i]))
            return true;
    char *cmd = xasprintf("localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1", dir);
    int rc = system(cmd);
    (void)rc; /* localedef exits non-zero on mere warnings; setlocale decides */
    free(cmd);
    setenv("LOCPATH", dir, 1);
    bool ok = setlocale(LC_ALL, "de_DE.UTF-8") != NULL;
    return ok;
}

static void locale_independent(void **state)
{
    (void)state;
    assert_non_null(setlocale(LC_ALL, "C"));
    check_all_shown();

    char *dir = gt_tempdir();
    if (comma_locale(dir)) {
        /* The locale really does write ',' ... */
        char probe[32];
        snprintf(probe, sizeof probe, "%.1f", 10.1);
        assert_string_equal(probe, "10,1");
        /* ... and the formatters still write '.'. */
        check_all_shown();
    } else {
        print_message("note: no locale with a decimal comma could be made; "
                      "checked the \"C\" locale only\n");
    }
    assert_non_null(setlocale(LC_ALL, "C"));
    unsetenv("LOCPATH");
    gt_rm_rf(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers),
        cmocka_unit_test(seconds),
        cmocka_unit_test(ratios),
        cmocka_unit_test(money),
        cmocka_unit_test(words_and_units),
        cmocka_unit_test(spread_in_the_means_unit),
        cmocka_unit_test(measures_by_unit),
        cmocka_unit_test(json_numbers),
        cmocka_unit_test(locale_independent),
    };
    return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}

/* test_draw_chart.c — line charts: legend entries, ticks, XML, checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/draw_internal.h"
#include "test_draw_fixtures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double rate[] = {0, 0.1, 0.2, 0.3};
static const double none[] = {0, 111, 249, 428};
static const double after[] = {0, 1, 2, 3};
static const double tx[] = {0, 0, 0, 0};

static void legend_axes_ticks(void **state)
{
    (void)state;
    draw_series s[] = {{"no ID check", 4, rate, none},
                       {"ID check after effect", 4, rate, after},
                       {"ID check in transaction", 4, rate, tx}};
    draw_chart c = {"Duplicates against ack loss",
                    "acks lost",
                    "duplicate charges",
                    true,
                    false,
                    false,
                    false,
                    s,
                    3};
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_true(fx_wellformed(&svg));
    for (size_t i = 0; i < 3; i++) {
        char *want = xasprintf(">%s</text>", s[i].name);
        assert_non_null(strstr(svg.data, want));
        free(want);
    }
    assert_non_null(strstr(svg.data, ">acks lost</text>"));
    assert_non_null(strstr(svg.data, "rotate(-90")); /* the y-axis label */
    assert_non_null(strstr(svg.data, ">30%</text>"));
    assert_non_null(strstr(svg.data, ">500</text>"));
    assert_null(strstr(svg.data, ">-0"));
    assert_non_null(strstr(alt.data, "no ID check: 0% → 0, 10% → 111"));
    buf again, alt2;
    buf_init(&again);
    buf_init(&alt2);
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &again, &alt2, err, sizeof err), 0);
    assert_string_equal(svg.data, again.data);
    buf_free(&again);
    buf_free(&alt2);
    buf_free(&svg);
    buf_free(&alt);
}

/* The narrow chart: DRAW_NARROW_W wide, its legend above the plot, a long
 * title wrapped, x labels that never touch, no text under DRAW_MIN_TEXT;
 * goldens of the narrow and the dark chart. */
static void narrow_and_dark(void **state)
{
    (void)state;
    static const double x[] = {0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3};
    static const double y0[] = {0, 55, 111, 180, 249, 330, 428}, y1[] = {0, 0, 0, 0, 0, 0, 0};
    draw_series s[] = {{"No check", 7, x, y0}, {"ID checked and saved with the charge", 7, x, y1}};
    draw_chart c = {"Duplicate charges as more acknowledgments are lost",
                    "Acknowledgments lost",
                    "Duplicates",
                    true,
                    false,
                    false,
                    false,
                    s,
                    2};
    for (int k = 0; k < DRAW_LOOKS; k++) {
        draw_look look = draw_look_at(k);
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        char err[256];
        assert_int_equal(draw_chart_svg(&c, look, &svg, &alt, err, sizeof err), 0);
        assert_true(fx_wellformed(&svg));
        for (const char *p = strstr(svg.data, "font-size=\""); p; p = strstr(p + 1, "font-size=\""))
            assert_true(strtod(p + 11, NULL) >= DRAW_MIN_TEXT);
        if (look.layout == DRAW_NARROW) {
            assert_non_null(strstr(svg.data, "width=\"288px\""));
            /* the legend above the plot: its baseline in the top quarter */
            const char *legend = strstr(svg.data, ">No check</text>");
            assert_non_null(legend);
            const char *y = legend;
            while (y > svg.data && strncmp(y, " y=\"", 4) != 0)
                y--;
            assert_true(strtod(y + 4, NULL) < 340 / 4);
            /* every second x label: 0%, 10%, 20%, 30% and not 5% */
            assert_non_null(strstr(svg.data, ">10%</text>"));
            assert_null(strstr(svg.data, ">5%</text>"));
            char *name = xasprintf("chart%s", draw_look_suffix(look));
            fx_golden(name, svg.data);
            free(name);
        } else if (look.theme == DRAW_DARK) {
            fx_golden("chart-dark", svg.data);
        }
        buf_free(&svg);
        buf_free(&alt);
    }
}

static void flat_and_single_points(void **state)
{
    (void)state;
    double one_x[] = {0.5}, one_y[] = {7};
    draw_series s[] = {{"one point", 1, one_x, one_y}, {"flat", 4, rate, tx}};
    draw_chart c = {NULL, "x", "y", false, true, false, false, s, 2};
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_true(fx_wellformed(&svg));
    assert_non_null(strstr(svg.data, "<title>Line chart</title>"));
    buf_free(&svg);
    buf_free(&alt);
}

/* Durations on the x axis tick at round durations written with units. */
static void duration_axis(void **state)
{
    (void)state;
    static const double ttl[] = {60, 300, 900, 1800};
    static const double dups[] = {50, 20, 2, 0};
    draw_series s[] = {{"redelivery after 10 min", 4, ttl, dups}};
    draw_chart c = {NULL, "key kept for", "duplicates", false, false, true, false, s, 1};
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), 0);
    assert_non_null(strstr(svg.data, ">10 min</text>"));
    assert_non_null(strstr(svg.data, ">30 min</text>"));
    assert_null(strstr(svg.data, ">600</text>"));
    buf_free(&svg);
    buf_free(&alt);
}

static void bad_charts(void **state)
{
    (void)state;
    double bad_y[] = {0, NAN, 1, 2};
    draw_series s[] = {{"ok", 4, rate, none}, {"bad", 4, rate, bad_y}};
    draw_chart c = {"t", "x", "y", false, false, false, false, s, 2};
    buf svg, alt;
    buf_init(&svg);
    buf_init(&alt);
    char err[256];
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "y of point 2 in series 2 is not a finite number");
    s[1].y = tx;
    s[1].name = "bad \xE2\x82";
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "the name of series 2 is not valid UTF-8 (bad byte at offset 4)");
    c.n_series = 0;
    assert_int_equal(draw_chart_svg(&c, FX_LOOK, &svg, &alt, err, sizeof err), -1);
    assert_string_equal(err, "a chart needs 1 to 12 series, not 0");
    assert_int_equal(svg.len, 0);
    buf_free(&svg);
    buf_free(&alt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(legend_axes_ticks),
        cmocka_unit_test(narrow_and_dark),
        cmocka_unit_test(flat_and_single_points),
        cmocka_unit_test(duration_axis),
        cmocka_unit_test(bad_charts),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    draw_shutdown();
    return rc;
}

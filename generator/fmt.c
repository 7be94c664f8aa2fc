/* fmt.c — locale-independent number formatting for pages and JSON.
 * boardpress never calls setlocale(), so printf's "%f" uses '.'; these
 * helpers also trim trailing zeros so "10.0 s" reads "10 s". */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Print x with at most `decimals` decimals, trailing zeros trimmed. */
static void put_trimmed(buf *b, double x, int decimals)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, x);
    char *dot = strchr(tmp, '.');
    if (dot) {
        char *end = tmp + strlen(tmp) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(tmp, "-0") == 0)
        strcpy(tmp, "0");
    buf_puts(b, tmp);
}

/* Decimals that show two significant digits of a number below 1. */
static int small_decimals(double ax)
{
    int d = 1 - (int)floor(log10(ax));
    return d < 1 ? 1 : d > 9 ? 9 : d;
}

void fmt_number(buf *b, double x)
{
    double ax = fabs(x);
    if (ax < 1e15 && fabs(x - round(x)) < 1e-9) {
        buf_printf(b, "%.0f", round(x) == 0 ? 0.0 : round(x));
        return;
    }
    if (ax < 1.0)
        put_trimmed(b, x, small_decimals(ax));
    else
        put_trimmed(b, x, 1);
}

void fmt_seconds(buf *b, double s)
{
    double as = fabs(s);
    if (as == 0) {
        buf_puts(b, "0 s");
    } else if (as < 1e-3) {
        put_trimmed(b, s * 1e6, as * 1e6 < 10 ? 1 : 0);
        buf_puts(b, " µs");
    } else if (as < 1.0) {
        put_trimmed(b, s * 1e3, as * 1e3 < 10 ? 1 : 0);
        buf_puts(b, " ms");
    } else if (as < 60.0) {
        put_trimmed(b, s, 1);
        buf_puts(b, " s");
    } else if (as < 3600.0) {
        put_trimmed(b, s / 60.0, 1);
        buf_puts(b, " min");
    } else if (as < 2 * 86400.0) { /* "24 h" and "36 h" read better than days */
        put_trimmed(b, s / 3600.0, 1);
        buf_puts(b, " h");
    } else {
        put_trimmed(b, s / 86400.0, 1);
        buf_puts(b, " d");
    }
}

void fmt_duration_us(buf *b, int64_t us)
{
    if (us == INT64_MAX)
        buf_puts(b, "forever");
    else
        fmt_seconds(b, (double)us / 1e6);
}

void fmt_ratio(buf *b, double r)
{
    double pct = r * 100.0;
    if (pct == 0) {
        buf_puts(b, "0%");
        return;
    }
    if (fabs(pct) >= 1.0)
        put_trimmed(b, pct, 1);
    else
        put_trimmed(b, pct, small_decimals(fabs(pct)));
    buf_putc(b, '%');
}

void fmt_usd(buf *b, double usd)
{
    if (fabs(usd - round(usd)) < 1e-9)
        buf_printf(b, "%.0f USD", round(usd));
    else
        buf_printf(b, "%.2f USD", usd);
}

void fmt_usd_month(buf *b, double usd)
{
    fmt_usd(b, usd);
    buf_puts(b, "/mo");
}

void fmt_measure(buf *b, sim_measure m, double v)
{
    switch (sim_measure_unit(m)) {
    case SIM_UNIT_RATIO:
        fmt_ratio(b, v);
        break;
    case SIM_UNIT_SECONDS:
        fmt_seconds(b, v);
        break;
    case SIM_UNIT_USD_MONTH:
        fmt_usd_month(b, v);
        break;
    case SIM_UNIT_COUNT:
        fmt_number(b, v);
        break;
    }
}

void fmt_json_number(buf *b, double x)
{
    if (!isfinite(x)) {
        buf_puts(b, "null");
        return;
    }
    if (fabs(x) < 1e15 && x == round(x)) {
        buf_printf(b, "%.0f", x == 0 ? 0.0 : x);
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.6f", x);
    char *end = tmp + strlen(tmp) - 1;
    while (*end == '0')
        *end-- = '\0';
    if (*end == '.')
        *end = '\0';
    if (strcmp(tmp, "-0") == 0)
        strcpy(tmp, "0");
    buf_puts(b, tmp);
}

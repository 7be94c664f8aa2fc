/* fmt.c — locale-independent number formatting for pages and JSON.
 * printf's "%f" follows LC_NUMERIC, so every number goes through fixed(),
 * which writes '.' whatever the locale; trailing zeros are trimmed so
 * "10.0 s" reads "10 s". */
#include "base/fmt.h"
#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Room for "%.9f" of the largest double (309 integer digits). */
#define FIXED_MAX 340

/* x with exactly `decimals` decimals, the decimal point always '.', never
 * an exponent. printf writes [-]digits[SEP digits] with SEP the locale's
 * decimal point (possibly several bytes); anything not a digit becomes '.'. */
static void fixed(char *out, double x, int decimals)
{
    char tmp[FIXED_MAX];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, x);
    size_t o = 0;
    bool sep = false;
    for (const char *p = tmp; *p; p++) {
        if ((*p >= '0' && *p <= '9') || (p == tmp && *p == '-')) {
            out[o++] = *p;
        } else if (!sep) {
            out[o++] = '.';
            sep = true;
        }
    }
    out[o] = '\0';
}

/* x with at most `decimals` decimals, trailing zeros trimmed, never "-0". */
static void trimmed(char *out, double x, int decimals)
{
    fixed(out, x, decimals);
    char *dot = strchr(out, '.');
    if (dot) {
        char *end = out + strlen(out) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
}

static void put_trimmed(buf *b, double x, int decimals)
{
    char tmp[FIXED_MAX];
    trimmed(tmp, x, decimals);
    buf_puts(b, tmp);
}

/* Decimals that show two significant digits of a number below 1 (one for
 * NaN, which no measure is, but whose log10 must not reach the int cast). */
static int small_decimals(double ax)
{
    if (isnan(ax))
        return 1;
    int d = 1 - (int)floor(log10(ax));
    return d < 1 ? 1 : d > 9 ? 9 : d;
}

void fmt_number(buf *b, double x)
{
    double ax = fabs(x);
    if (ax < 1e15 && fabs(x - round(x)) < 1e-9) {
        put_trimmed(b, round(x), 0);
        return;
    }
    if (ax < 1.0)
        put_trimmed(b, x, small_decimals(ax));
    else
        put_trimmed(b, x, 1);
}

/* Duration units from small to large; a value is written in the first
 * unit where it stays below `below` once rounded, so 999.7 ms is "1 s",
 * not "1000 ms". Hours go up to 48 so a day reads "24 h", as people (and
 * the catalog) write it. */
static const struct {
    double seconds;
    const char *name;
    double below;
} duration_units[] = {
    {1e-6, "µs", 1000}, {1e-3, "ms", 1000}, {1, "s", 60},
    {60, "min", 60},    {3600, "h", 48},    {86400, "d", INFINITY},
};

/* The unit fmt_seconds writes s in (an index of duration_units) and its
 * decimals. */
static size_t seconds_unit(double s, int *decimals)
{
    size_t n = sizeof duration_units / sizeof duration_units[0];
    for (size_t i = 0; i < n; i++) {
        double av = fabs(s / duration_units[i].seconds);
        /* µs and ms: one decimal below 10 ("1.5 ms"), whole above ("150 ms");
         * larger units one decimal ("10.1 s", "1.5 min"). */
        *decimals = i < 2 && av >= 10 ? 0 : 1;
        double scale = *decimals ? 10.0 : 1.0;
        if (i + 1 < n && round(av * scale) / scale >= duration_units[i].below)
            continue;
        return i;
    }
    return n - 1;
}

static void put_seconds_in(buf *b, double s, size_t unit, int decimals)
{
    put_trimmed(b, s / duration_units[unit].seconds, decimals);
    buf_putc(b, ' ');
    buf_puts(b, duration_units[unit].name);
}

void fmt_seconds(buf *b, double s)
{
    if (s == 0) {
        buf_puts(b, "0 s");
        return;
    }
    int decimals;
    size_t unit = seconds_unit(s, &decimals);
    put_seconds_in(b, s, unit, decimals);
}

void fmt_seconds_like(buf *b, double s, double like)
{
    if (like == 0 || s == 0) {
        fmt_seconds(b, s);
        return;
    }
    int decimals;
    size_t unit = seconds_unit(like, &decimals);
    double v = s / duration_units[unit].seconds, scale = decimals ? 10.0 : 1.0;
    if (decimals == 0 && fabs(v) < 10)
        decimals = 1, scale = 10.0; /* "150 ms ± 4.5 ms" */
    if (round(fabs(v) * scale) == 0) { /* would read "± 0 s": its own unit */
        fmt_seconds(b, s);
        return;
    }
    put_seconds_in(b, s, unit, decimals);
}

/* The settings' units, from the schema (NULL where a setting has none). */
#define UNIT_NONE(member, wire, ctype, aux)
#define UNIT_OF(member, wire, ctype, aux, key, load, kinds, min, max, label, unit, ...) unit,
static const char *const setting_units[] = {
    SIM_PART_FIELDS(UNIT_NONE, UNIT_OF) SIM_LINK_FIELDS(UNIT_NONE, UNIT_OF)
        SIM_BOARD_FIELDS(UNIT_NONE, UNIT_OF)};
#undef UNIT_NONE
#undef UNIT_OF

bool fmt_unit_word(const char *w, size_t n)
{
    while (n > 0 && w[n - 1] && strchr(",;:.)", w[n - 1]))
        n--;
    if (n == 0)
        return false;
    static const char *const money[] = {"USD/mo", "USD", "%"};
    for (size_t i = 0; i < sizeof money / sizeof money[0]; i++)
        if (strlen(money[i]) == n && memcmp(w, money[i], n) == 0)
            return true;
    for (size_t i = 0; i < sizeof duration_units / sizeof duration_units[0]; i++)
        if (strlen(duration_units[i].name) == n && memcmp(w, duration_units[i].name, n) == 0)
            return true;
    for (size_t i = 0; i < sizeof setting_units / sizeof setting_units[0]; i++)
        if (setting_units[i] && strlen(setting_units[i]) == n && memcmp(w, setting_units[i], n) == 0)
            return true;
    return false;
}

void fmt_duration_us(buf *b, int64_t us)
{
    if (us == INT64_MAX)
        buf_puts(b, "forever");
    else
        fmt_seconds(b, (double)us / 1e6);
}

const char *fmt_closing_tie(const char *words)
{
    static const char *const ties[] = {"for", "within"};
    size_t end = strlen(words);
    while (end > 0 && words[end - 1] == ' ')
        end--;
    for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++) {
        size_t t = strlen(ties[i]);
        if (end > t && words[end - t - 1] == ' ' && memcmp(words + end - t, ties[i], t) == 0)
            return ties[i];
    }
    return NULL;
}

void fmt_words_before(buf *b, const char *words, int64_t us)
{
    const char *tie = us == INT64_MAX ? fmt_closing_tie(words) : NULL;
    if (!tie) {
        buf_puts(b, words);
        return;
    }
    size_t n = strlen(words), sp = n > 0 && words[n - 1] == ' ';
    buf_put(b, words, n - sp - strlen(tie) - 1);
    if (sp)
        buf_putc(b, ' ');
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
    /* Whole when it rounds to whole cents: 11.999 is "12 USD", not "12.00 USD". */
    double cents = round(usd * 100.0);
    char tmp[FIXED_MAX];
    if (fmod(cents, 100.0) == 0)
        trimmed(tmp, cents / 100.0, 0);
    else
        fixed(tmp, cents / 100.0, 2);
    buf_puts(b, tmp);
    buf_puts(b, " USD");
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

void fmt_measure_like(buf *b, sim_measure m, double v, double like)
{
    if (sim_measure_unit(m) == SIM_UNIT_SECONDS)
        fmt_seconds_like(b, v, like);
    else
        fmt_measure(b, m, v);
}

void fmt_json_number(buf *b, double x)
{
    if (!isfinite(x)) {
        buf_puts(b, "null");
        return;
    }
    put_trimmed(b, x, fabs(x) < 1e15 && x == round(x) ? 0 : 6);
}

const char *fmt_measure_label(sim_measure m)
{
    static const char *const labels[SIM_M_COUNT] = {
        "Arrivals",
        "Deliveries",
        "Effects",
        "Duplicates",
        "Charged more than once",
        "Lost writes",
        "Errors",
        "Error rate",
        "Completion time",
        "Latency, median",
        "Latency, 99th percentile",
        "Monthly cost",
        "Events",
        "Lost events",
        "Ghost events",
        "Deliveries downstream",
        "Effects downstream",
        "Duplicates downstream",
        "Lost writes downstream",
        "Errors downstream",
        "Dead-lettered",
        "Time to the dead-letter queue",
    };
    return (int)m >= 0 && m < SIM_M_COUNT ? labels[m] : "";
}

void fmt_json_significant(buf *b, double x)
{
    double ax = fabs(x);
    if (!isfinite(x) || ax >= 1 || ax == 0) {
        fmt_json_number(b, x);
        return;
    }
    int d = 5 - (int)floor(log10(ax)); /* 0.00012345 -> 9 decimals: 6 digits */
    put_trimmed(b, x, d > 20 ? 20 : d);
}

/* Labels in drawings: into a fixed array, fewer decimals than pages keep. */
void fmt_label_number(char *dst, size_t n, double v)
{
    long long m = llround(v * 1000.0);
    bool neg = m < 0;
    if (neg)
        m = -m;
    char frac[8] = "";
    int f = (int)(m % 1000);
    if (f) {
        snprintf(frac, sizeof frac, ".%03d", f);
        size_t l = strlen(frac);
        while (l > 1 && frac[l - 1] == '0')
            frac[--l] = '\0';
    }
    snprintf(dst, n, "%s%lld%s", neg ? "-" : "", m / 1000, frac);
}

void fmt_label_percent(char *dst, size_t n, double p)
{
    char num[48];
    double v = p * 100.0;
    /* at most one decimal above 1%, more below so 0.05% does not read as 0% */
    double r = fabs(v) >= 1 ? round(v * 10) / 10 : round(v * 1000) / 1000;
    fmt_label_number(num, sizeof num, r);
    snprintf(dst, n, "%s%%", num);
}

void fmt_label_duration(char *dst, size_t n, int64_t us)
{
    buf b;
    buf_init(&b);
    fmt_duration_us(&b, us);
    snprintf(dst, n, "%s", b.data);
    buf_free(&b);
}

/* units.c — locale-independent parsing of quantities with units. */
#include "load/units.h"
#include "base/diag.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const double pow10_table[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

size_t units_scan_number(const char *s, double *v)
{
    size_t i = 0;
    bool neg = false;
    if (s[i] == '-' || s[i] == '+') {
        neg = s[i] == '-';
        i++;
    }
    uint64_t mant = 0;
    int digits = 0, frac = 0;
    bool any = false, dot = false;
    for (;; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = true;
            if (mant == 0 && c == '0') {
                if (dot)
                    frac++;
                continue;
            }
            if (digits >= 15)
                return 0; /* more precision than a board needs */
            mant = mant * 10 + (uint64_t)(c - '0');
            digits++;
            if (dot)
                frac++;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (!any || s[i - 1] == '.')
        return 0;
    if (frac > 22)
        return 0;
    double x = (double)mant / pow10_table[frac];
    *v = neg ? -x : x;
    return i;
}

static size_t skip_spaces(const char *s, size_t i)
{
    while (s[i] == ' ')
        i++;
    return i;
}

/* Split "NUMBER [UNIT]": returns 0 with the number and the unit's offset. */
static int split(const char *s, double *num, size_t *unit_at, diag_note *err, size_t *col_off)
{
    size_t n = units_scan_number(s, num);
    if (n == 0) {
        diag_note_set(err, "expected a number, found '%s'", s);
        *col_off = 0;
        return -1;
    }
    *unit_at = skip_spaces(s, n);
    return 0;
}

typedef struct {
    const char *name;
    double us;
} unit_def;

static const unit_def duration_units[] = {
    {"us", 1.0}, {"ms", 1e3}, {"s", 1e6}, {"min", 60e6}, {"h", 3600e6}, {"d", 86400e6},
};

/* Units written as words or as other tools write them: the one meant and
 * its name. Checked before spelling, so "1m" is minutes, not "ms". */
static const struct {
    const char *word, *unit, *name;
} duration_words[] = {
    {"m", "min", "minutes"},
    {"mn", "min", "minutes"},
    {"mins", "min", "minutes"},
    {"minute", "min", "minutes"},
    {"minutes", "min", "minutes"},
    {"sec", "s", "seconds"},
    {"secs", "s", "seconds"},
    {"second", "s", "seconds"},
    {"seconds", "s", "seconds"},
    {"hr", "h", "hours"},
    {"hrs", "h", "hours"},
    {"hour", "h", "hours"},
    {"hours", "h", "hours"},
    {"day", "d", "days"},
    {"days", "d", "days"},
    {"msec", "ms", "milliseconds"},
    {"msecs", "ms", "milliseconds"},
    {"millisecond", "ms", "milliseconds"},
    {"milliseconds", "ms", "milliseconds"},
    {"usec", "us", "microseconds"},
    {"\xc2\xb5s", "us", "microseconds"},
};

/* What a unit of another kind of quantity is ("a currency" for USD), or
 * NULL: said instead of a near spelling ("USD" is not a misspelt "us"). */
static const char *other_kind(const char *unit, bool duration)
{
    if (strcmp(unit, "%") == 0)
        return "a percentage";
    if (duration)
        return strcmp(unit, "USD") == 0 ? "a currency" : NULL;
    for (size_t i = 0; i < sizeof duration_units / sizeof duration_units[0]; i++)
        if (strcmp(unit, duration_units[i].name) == 0)
            return "a duration unit";
    return NULL;
}

int units_duration(const char *s, int64_t *us, diag_note *err, size_t *col_off)
{
    double x;
    size_t u;
    if (split(s, &x, &u, err, col_off) != 0)
        return -1;
    if (s[u] == '\0') {
        diag_note_set(err, "duration '%s' needs a unit (us, ms, s, min, h or d), e.g. '%s s'", s,
                      s);
        *col_off = u;
        return -1;
    }
    const char *names[sizeof duration_units / sizeof duration_units[0]];
    for (size_t i = 0; i < sizeof duration_units / sizeof duration_units[0]; i++) {
        names[i] = duration_units[i].name;
        if (strcmp(s + u, duration_units[i].name) == 0) {
            double v = x * duration_units[i].us;
            if (x < 0) {
                diag_note_set(err, "duration '%s' is negative", s);
                *col_off = 0;
                return -1;
            }
            if (v > 9.2e18) {
                diag_note_set(err, "duration '%s' is too long", s);
                *col_off = 0;
                return -1;
            }
            *us = (int64_t)llround(v);
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof duration_words / sizeof duration_words[0]; i++)
        if (strcmp(s + u, duration_words[i].word) == 0) {
            diag_note_set(err, "unknown duration unit '%s'", s + u);
            diag_note_hint(err, false, "did you mean '%s' (%s)?", duration_words[i].unit,
                           duration_words[i].name);
            *col_off = u;
            return -1;
        }
    const char *kind = other_kind(s + u, true);
    if (kind)
        diag_note_set(err, "'%s' is %s, not a duration: write one in us, ms, s, min, h or d", s + u,
                      kind);
    else
        diag_note_unknown(err, "duration unit", s + u, names, sizeof names / sizeof names[0]);
    *col_off = u;
    return -1;
}

int units_duration_or_forever(const char *s, int64_t *us, diag_note *err, size_t *col_off)
{
    if (strcmp(s, "forever") == 0) {
        *us = INT64_MAX;
        return 0;
    }
    return units_duration(s, us, err, col_off);
}

int units_money(const char *s, double *usd, diag_note *err, size_t *col_off)
{
    double x;
    size_t u;
    if (split(s, &x, &u, err, col_off) != 0)
        return -1;
    if (s[u] == '\0') {
        diag_note_set(err, "amount '%s' needs a currency, e.g. '%s USD'", s, s);
        *col_off = u;
        return -1;
    }
    static const char *const names[] = {"USD"};
    if (strcmp(s + u, "USD") != 0) {
        const char *kind = other_kind(s + u, false);
        if (kind)
            diag_note_set(err, "'%s' is %s, not a currency: write an amount in USD", s + u, kind);
        else
            diag_note_unknown(err, "currency", s + u, names, 1);
        *col_off = u;
        return -1;
    }
    if (x < 0) {
        diag_note_set(err, "amount '%s' is negative", s);
        *col_off = 0;
        return -1;
    }
    *usd = x;
    return 0;
}

int units_probability(const char *s, double *p, diag_note *err, size_t *col_off)
{
    double x;
    size_t u;
    if (split(s, &x, &u, err, col_off) != 0)
        return -1;
    if (s[u] == '%' && s[u + 1] == '\0') {
        x /= 100.0;
    } else if (s[u] != '\0') {
        diag_note_set(err, "probability '%s' takes no unit but '%%' (write 0.2 or 20%%)", s);
        *col_off = u;
        return -1;
    }
    if (x < 0 || x > 1) {
        diag_note_set(err, "probability '%s' is outside 0 to 1 (0%% to 100%%)", s);
        *col_off = 0;
        return -1;
    }
    *p = x;
    return 0;
}

int units_count(const char *s, int64_t *v, diag_note *err, size_t *col_off)
{
    size_t i = 0;
    bool neg = s[0] == '-';
    if (neg || s[0] == '+')
        i++;
    int64_t x = 0;
    size_t start = i;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        if (x > (INT64_MAX - 9) / 10) {
            diag_note_set(err, "number '%s' is too large", s);
            *col_off = 0;
            return -1;
        }
        x = x * 10 + (s[i] - '0');
    }
    if (i == start || s[i] != '\0') {
        diag_note_set(err, "expected a whole number, found '%s'", s);
        *col_off = i == start ? 0 : i;
        return -1;
    }
    *v = neg ? -x : x;
    return 0;
}

int units_number(const char *s, double *v, diag_note *err, size_t *col_off)
{
    double x;
    size_t n = units_scan_number(s, &x);
    if (n == 0 || s[n] != '\0') {
        diag_note_set(err, "expected a number, found '%s'", s);
        *col_off = n;
        return -1;
    }
    *v = x;
    return 0;
}

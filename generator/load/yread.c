/* yread.c — typed readers over ydoc nodes with positioned errors. */
#include "load/yread.h"
#include "load/units.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Column of byte offset off inside a scalar (quoted scalars start one
 * column later than their opening quote). */
static int col_at(const ynode *n, size_t off)
{
    size_t chars = 0;
    for (size_t i = 0; i < off && i < n->len; i++)
        if (((unsigned char)n->s[i] & 0xC0) != 0x80)
            chars++;
    return n->col + (int)chars + (n->plain ? 0 : 1);
}

static int need_scalar(const char *path, const ynode *n, const char *what, const char *expected,
                       diag *d)
{
    if (n->type == YN_SCALAR)
        return 0;
    diag_error(d, YPATH(path, n), n->line, n->col, "%s must be %s, found %s", what, expected,
               ynode_kind(n));
    return -1;
}

int yexpect(const char *path, const ynode *n, yn_type type, const char *what, diag *d)
{
    if (n->type == type)
        return 0;
    const char *want = type == YN_MAP ? "a mapping" : type == YN_SEQ ? "a list" : "a value";
    if (n->type == YN_SCALAR && n->len == 0)
        diag_error(d, YPATH(path, n), n->line, n->col, "%s must be %s, found nothing", what, want);
    else if (n->type == YN_SCALAR)
        diag_error(d, YPATH(path, n), n->line, n->col, "%s must be %s, found '%s'", what, want,
                   n->s);
    else
        diag_error(d, YPATH(path, n), n->line, n->col, "%s must be %s, found %s", what, want,
                   ynode_kind(n));
    return -1;
}

int yread_text(const char *path, const ynode *n, const char *what, char **out, diag *d)
{
    if (need_scalar(path, n, what, "text", d) != 0)
        return -1;
    if (n->len == 0) {
        diag_error(d, YPATH(path, n), n->line, n->col, "%s is empty", what);
        return -1;
    }
    *out = xstrdup(n->s);
    return 0;
}

int yread_id(const char *path, const ynode *n, const char *what, char **out, diag *d)
{
    if (need_scalar(path, n, what, "an id", d) != 0)
        return -1;
    if (n->len == 0 || n->len > 64) {
        diag_error(d, YPATH(path, n), n->line, n->col,
                   "%s must be 1 to 64 characters of a-z, 0-9 and '-'", what);
        return -1;
    }
    for (size_t i = 0; i < n->len; i++) {
        char c = n->s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
            diag_error(d, YPATH(path, n), n->line, col_at(n, i),
                       "%s '%s' may only use a-z, 0-9 and '-'", what, n->s);
            return -1;
        }
    }
    *out = xstrdup(n->s);
    return 0;
}

/* Report a unit parser's failure. off is read here, after the parser (an
 * argument beside it) has run: C leaves the order of argument evaluation
 * open, so passing the offset by value could pass it before it is set. */
static int parse_with(const char *path, const ynode *n, const char *what, int rc, diag_note *err,
                      const size_t *off, diag *d)
{
    if (rc == 0)
        return 0;
    diag_note_lead(err, what);
    diag_error_note(d, YPATH(path, n), n->line, col_at(n, *off), err);
    return -1;
}

int yread_int(const char *path, const ynode *n, const char *what, int64_t min, int64_t max,
              int64_t *out, diag *d)
{
    if (need_scalar(path, n, what, "a whole number", d) != 0)
        return -1;
    diag_note err;
    size_t off = 0;
    int64_t v;
    if (parse_with(path, n, what, units_count(n->s, &v, &err, &off), &err, &off, d) != 0)
        return -1;
    if (v < min || v > max) {
        if (max == INT64_MAX)
            diag_error(d, YPATH(path, n), n->line, n->col, "%s must be at least %lld, found %s",
                       what, (long long)min, n->s);
        else
            diag_error(d, YPATH(path, n), n->line, n->col,
                       "%s must be between %lld and %lld, found %s", what, (long long)min,
                       (long long)max, n->s);
        return -1;
    }
    *out = v;
    return 0;
}

int yread_number(const char *path, const ynode *n, const char *what, double min, double max,
                 double *out, diag *d)
{
    if (need_scalar(path, n, what, "a number", d) != 0)
        return -1;
    diag_note err;
    size_t off = 0;
    double v;
    if (parse_with(path, n, what, units_number(n->s, &v, &err, &off), &err, &off, d) != 0)
        return -1;
    if (v < min || v > max) {
        diag_error(d, YPATH(path, n), n->line, n->col, "%s must be between %g and %g, found %s",
                   what, min, max, n->s);
        return -1;
    }
    *out = v;
    return 0;
}

int yread_prob(const char *path, const ynode *n, const char *what, double *out, diag *d)
{
    if (need_scalar(path, n, what, "a probability", d) != 0)
        return -1;
    diag_note err;
    size_t off = 0;
    return parse_with(path, n, what, units_probability(n->s, out, &err, &off), &err, &off, d);
}

int yread_duration(const char *path, const ynode *n, const char *what, bool positive, int64_t *out,
                   diag *d)
{
    if (need_scalar(path, n, what, "a duration", d) != 0)
        return -1;
    diag_note err;
    size_t off = 0;
    if (parse_with(path, n, what, units_duration(n->s, out, &err, &off), &err, &off, d) != 0)
        return -1;
    if (positive && *out <= 0) {
        diag_error(d, YPATH(path, n), n->line, n->col, "%s must be longer than zero, found %s",
                   what, n->s);
        return -1;
    }
    return 0;
}

int yread_money(const char *path, const ynode *n, const char *what, double *out, diag *d)
{
    if (need_scalar(path, n, what, "an amount", d) != 0)
        return -1;
    diag_note err;
    size_t off = 0;
    return parse_with(path, n, what, units_money(n->s, out, &err, &off), &err, &off, d);
}

int yread_bool(const char *path, const ynode *n, const char *what, bool *out, diag *d)
{
    if (need_scalar(path, n, what, "true or false", d) != 0)
        return -1;
    if (n->plain && strcmp(n->s, "true") == 0) {
        *out = true;
        return 0;
    }
    if (n->plain && strcmp(n->s, "false") == 0) {
        *out = false;
        return 0;
    }
    diag_error(d, YPATH(path, n), n->line, n->col, "%s must be true or false, found '%s'", what,
               n->s);
    return -1;
}

int yread_enum(const char *path, const ynode *n, const char *what, const char *const *names,
               size_t count, int *out, diag *d)
{
    if (need_scalar(path, n, what, "a name", d) != 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(n->s, names[i]) == 0) {
            *out = (int)i;
            return 0;
        }
    }
    diag_unknown(d, YPATH(path, n), n->line, n->col, what, n->s, names, count);
    return -1;
}

int ycheck_keys(const char *path, const ynode *map, const char *what, const char *const *allowed,
                size_t n_allowed, diag *d)
{
    int unknown = 0;
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode *k = map->kids[i];
        bool ok = false;
        for (size_t j = 0; j < n_allowed && !ok; j++)
            ok = strcmp(k->s, allowed[j]) == 0;
        if (!ok) {
            diag_unknown(d, YPATH(path, k), k->line, k->col, what, k->s, allowed, n_allowed);
            unknown++;
        }
    }
    return unknown;
}

void ymissing(const char *path, const ynode *map, const char *key, const char *in_what, diag *d)
{
    diag_error(d, YPATH(path, map), map->line, map->col, "%s needs '%s'", in_what, key);
}

bool yread_valid_day(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return false;
    int y = atoi(s), m = atoi(s + 5), day = atoi(s + 8);
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1900 || m < 1 || m > 12 || day < 1)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return day <= days[m - 1] + (m == 2 && leap);
}

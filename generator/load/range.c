/* range.c — a level choice's range: the setting's kind of value, the bounds
 * and step read as exact integers (counts, microseconds, or billionths for
 * probabilities, numbers and money), so min + k × step never drifts, and
 * one option per value: its --set text and the page's label for it. */
#include "load/range.h"
#include "base/fmt.h"
#include "load/fields.h"
#include "load/units.h"
#include "load/yread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the values of a setting are. */
typedef enum { RK_NONE, RK_INT, RK_NUMBER, RK_PROB, RK_DURATION, RK_WINDOW, RK_MONEY } range_kind;

typedef struct {
    range_kind kind;
    int64_t min, max;  /* what the setting takes: RK_INT a count, RK_NUMBER in 1e-9 */
    const char *units; /* RK_INT, RK_NUMBER: the word after the value ("tries") */
    const char *before; /* RK_NUMBER: the sign before it ("×" for a back-off factor) */
} range_field;

#define NANO 1000000000LL /* RK_NUMBER, RK_PROB, RK_MONEY values are in 1e-9 */

/* A count's word for one of it: "1 try", "1 delivery". */
static const char *singular(const char *units)
{
    static const char *const pairs[][2] = {
        {"tries", "try"}, {"deliveries", "delivery"}, {"jobs", "job"}, {"runs", "run"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (strcmp(units, pairs[i][0]) == 0)
            return pairs[i][1];
    return units;
}

static range_kind kind_of(field_type t)
{
    switch (t) {
    case FT_INT:
        return RK_INT;
    case FT_NUMBER:
        return RK_NUMBER;
    case FT_PROB:
        return RK_PROB;
    case FT_DURATION:
    case FT_BACKOFF:
    case FT_TTL:
        return RK_DURATION;
    case FT_WINDOW:
        return RK_WINDOW;
    case FT_MONEY:
        return RK_MONEY;
    default:
        return RK_NONE;
    }
}

/* The kind of the setting a set path names; RK_NONE after reporting. */
static range_field field_of(const char *path, const bp_choice *ch, diag *d)
{
    range_field rf = {RK_NONE, 0, INT64_MAX, NULL, NULL};
    char *copy = xstrdup(ch->set);
    char *segs[5];
    size_t n = fields_split_path(copy, segs);
    const field_def *table = NULL, *f = NULL;
    size_t nt = 0;
    const char *field = segs[n - 1];
    if (n == 1 && strcmp(segs[0], "seed") == 0) {
        rf.kind = RK_INT;
    } else if (n == 1 && strcmp(segs[0], "replications") == 0) {
        rf = (range_field){RK_INT, 1, 1000, "runs", NULL};
    } else if (n == 2 && strcmp(segs[0], "traffic") == 0) {
        const field_def *tt = fields_traffic(&nt);
        if (!(f = fields_find(tt, nt, field))) {
            const char *names[16];
            for (size_t i = 0; i < nt && i < 16; i++)
                names[i] = tt[i].name;
            diag_unknown(d, path, ch->set_pos.line, ch->set_pos.col, "traffic setting for a range",
                         field, names, nt < 16 ? nt : 16);
            goto out;
        }
        rf = (range_field){kind_of(f->type), f->min, f->type == FT_INT ? f->max : INT64_MAX,
                           f->unit, NULL};
    } else if (n == 3 && strcmp(segs[0], "parts") == 0) {
        table = fields_part(&nt);
    } else if (n == 4 && strcmp(segs[0], "parts") == 0) {
        diag_note why;
        const field_key *k = fields_part_key(segs[1], segs[2], field, &why);
        if (!k)
            diag_error_note(d, path, ch->set_pos.line, ch->set_pos.col, &why);
        else if (k->names)
            diag_error(d, path, ch->set_pos.line, ch->set_pos.col,
                       "'%s' takes a name, not a number: give it options, not a range", field);
        else
            rf = (range_field){kind_of(k->type), (int64_t)(k->min * NANO),
                               k->max > 0 ? (int64_t)(k->max * NANO) : INT64_MAX, NULL,
                               strcmp(field, "factor") == 0 ? "×" : NULL};
        goto out;
    } else if (n == 4 && strcmp(segs[0], "links") == 0) {
        table = fields_link(&nt);
    } else {
        diag_error(d, path, ch->set_pos.line, ch->set_pos.col,
                   "cannot set '%s': write " FIELDS_PATH_FORMS, ch->set);
        goto out;
    }
    if (table) {
        if (!(f = fields_find(table, nt, field))) {
            const char *names[64];
            for (size_t i = 0; i < nt && i < 64; i++)
                names[i] = table[i].name;
            diag_unknown(d, path, ch->set_pos.line, ch->set_pos.col, "setting", field, names,
                         nt < 64 ? nt : 64);
            goto out;
        }
        rf.kind = kind_of(f->type);
        rf.units = f->unit;
        if (f->type == FT_INT) {
            rf.min = f->min;
            rf.max = f->max;
        }
        if (rf.kind == RK_NONE)
            diag_error(d, path, ch->set_pos.line, ch->set_pos.col,
                       "'%s' takes a name or true/false, not a number: give it options, not a "
                       "range",
                       field);
    }
out:
    free(copy);
    return rf;
}

/* The digits of a number ("12.5") as an integer of 1e-9 units, its value
 * scaled by 10^shift first (-2 for a percentage). -1 when it needs more
 * decimals than that (reported). */
static int exact_nano(const char *path, const ynode *v, const char *what, const char *s, int shift,
                      int64_t *out, diag *d)
{
    int64_t mant = 0;
    int frac = 0;
    bool dot = false;
    if (*s == '+')
        s++;
    for (const char *p = s; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
        if (*p == '.') {
            dot = true;
            continue;
        }
        mant = mant * 10 + (*p - '0');
        frac += dot;
    }
    int scale = 9 + shift - frac;
    if (scale < 0) {
        diag_error(d, YPATH(path, v), v->line, v->col,
                   "%s '%s' has more decimals than a range can step by (at most %d)", what, s,
                   9 + shift);
        return -1;
    }
    for (int i = 0; i < scale; i++)
        mant *= 10;
    *out = mant;
    return 0;
}

/* v in 1e-9 as a decimal: "0.015", "12.5". */
static void put_nano(buf *b, int64_t v)
{
    buf_printf(b, "%lld", (long long)(v / NANO));
    int64_t f = v % NANO;
    if (f) {
        char digits[16];
        snprintf(digits, sizeof digits, "%09lld", (long long)f);
        size_t n = strlen(digits);
        while (n > 0 && digits[n - 1] == '0')
            digits[--n] = '\0';
        buf_printf(b, ".%s", digits);
    }
}

/* One bound (or the step, or a start) as an exact integer: a count, a
 * duration in µs, or a number, probability or amount in 1e-9. percent gets
 * whether it was written with '%'. */
static int read_value(const char *path, const ynode *v, const char *what, const range_field *rf,
                      bool step, int64_t *out, bool *percent, diag *d)
{
    double x;
    switch (rf->kind) {
    case RK_INT:
        return yread_int(path, v, what, step ? 1 : rf->min, rf->max, out, d);
    case RK_DURATION:
    case RK_WINDOW:
        return yread_duration(path, v, what, rf->kind == RK_DURATION || step, out, d);
    case RK_PROB:
        if (yread_prob(path, v, what, &x, d) != 0)
            return -1;
        *percent = strchr(v->s, '%') != NULL;
        return exact_nano(path, v, what, v->s, *percent ? -2 : 0, out, d);
    case RK_NUMBER:
        if (yread_number(path, v, what, 0, 1e6, &x, d) != 0 ||
            exact_nano(path, v, what, v->s, 0, out, d) != 0)
            return -1;
        if (!step && (*out < rf->min || *out > rf->max)) {
            buf lo, hi;
            buf_init(&lo);
            buf_init(&hi);
            put_nano(&lo, rf->min);
            put_nano(&hi, rf->max);
            diag_error(d, YPATH(path, v), v->line, v->col, "%s must be between %s and %s, found %s",
                       what, lo.data, hi.data, v->s);
            buf_free(&lo);
            buf_free(&hi);
            return -1;
        }
        return 0;
    case RK_MONEY:
        if (yread_money(path, v, what, &x, d) != 0)
            return -1;
        if (x > 1e6) {
            diag_error(d, YPATH(path, v), v->line, v->col,
                       "%s must be at most 1000000 USD, found %s", what, v->s);
            return -1;
        }
        return exact_nano(path, v, what, v->s, 0, out, d);
    case RK_NONE:
        break;
    }
    return -1;
}

/* The value as --set and a board file take it. Durations in the largest
 * unit that keeps them whole ("1500 ms", "2 s"), so the text reads back
 * as exactly these microseconds. */
static void put_value(buf *b, const range_field *rf, int64_t v, bool percent)
{
    static const struct {
        int64_t us;
        const char *name;
    } units[] = {{86400000000LL, "d"}, {3600000000LL, "h"}, {60000000LL, "min"},
                 {1000000LL, "s"},     {1000LL, "ms"},      {1, "us"}};
    switch (rf->kind) {
    case RK_INT:
        buf_printf(b, "%lld", (long long)v);
        break;
    case RK_DURATION:
    case RK_WINDOW:
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
            if (v % units[i].us == 0) {
                buf_printf(b, "%lld %s", (long long)(v / units[i].us), units[i].name);
                break;
            }
        }
        break;
    case RK_PROB:
        put_nano(b, percent ? v * 100 : v);
        if (percent)
            buf_putc(b, '%');
        break;
    case RK_NUMBER:
        put_nano(b, v);
        break;
    case RK_MONEY:
        put_nano(b, v);
        buf_puts(b, " USD");
        break;
    case RK_NONE:
        break;
    }
}

/* The value as the page shows it, read back from its text the way the
 * board reads it: "20%", "1.5 s", "5 tries", "1 try". */
static void put_label(buf *b, const range_field *rf, const char *text, int64_t v)
{
    diag_note err;
    size_t off;
    double x = 0;
    switch (rf->kind) {
    case RK_INT:
        buf_printf(b, "%lld", (long long)v);
        if (rf->units)
            buf_printf(b, " %s", v == 1 ? singular(rf->units) : rf->units);
        break;
    case RK_WINDOW:
        if (v == 0) {
            buf_puts(b, "none");
            break;
        }
        fmt_duration_us(b, v);
        break;
    case RK_DURATION:
        fmt_duration_us(b, v);
        break;
    case RK_PROB:
        units_probability(text, &x, &err, &off);
        fmt_ratio(b, x);
        break;
    case RK_NUMBER:
        units_number(text, &x, &err, &off);
        if (rf->before)
            buf_puts(b, rf->before);
        fmt_number(b, x);
        if (rf->units)
            buf_printf(b, " %s", rf->units);
        break;
    case RK_MONEY:
        units_money(text, &x, &err, &off);
        fmt_usd_month(b, x);
        break;
    case RK_NONE:
        break;
    }
}

int range_read(const char *path, const ynode *r, const ynode *start, bp_choice *ch, diag *d)
{
    size_t mark = diag_mark(d);
    ch->range = true;
    ch->range_pos = (bp_pos){r->line, r->col};
    ch->start = -1;
    if (yexpect(path, r, YN_MAP, "range", d) != 0)
        return -1;
    static const char *const keys[] = {"min", "max", "step"};
    ycheck_keys(path, r, "range key", keys, 3, d);
    const ynode *vmin = ymap_get(r, "min"), *vmax = ymap_get(r, "max"),
                *vstep = ymap_get(r, "step");
    if (!vmin)
        ymissing(path, r, "min", "a range", d);
    if (!vmax)
        ymissing(path, r, "max", "a range", d);
    if (!vstep)
        ymissing(path, r, "step", "a range", d);
    if (!ch->set || diag_failed_since(d, mark))
        return -1;
    range_field rf = field_of(path, ch, d);
    if (rf.kind == RK_NONE)
        return -1;
    int64_t lo = 0, hi = 0, step = 0;
    bool pct_lo = false, pct_hi = false, pct = false;
    read_value(path, vmin, "range min", &rf, false, &lo, &pct_lo, d);
    read_value(path, vmax, "range max", &rf, false, &hi, &pct_hi, d);
    read_value(path, vstep, "range step", &rf, true, &step, &pct, d);
    if (diag_failed_since(d, mark))
        return -1;
    if (lo > hi) {
        diag_error(d, YPATH(path, vmax), vmax->line, vmax->col, "range max %s is below its min %s",
                   vmax->s, vmin->s);
        return -1;
    }
    if (step <= 0) {
        diag_error(d, YPATH(path, vstep), vstep->line, vstep->col,
                   "range step must be above zero, found %s", vstep->s);
        return -1;
    }
    if ((hi - lo) % step != 0) {
        diag_error(d, YPATH(path, vstep), vstep->line, vstep->col,
                   "range step %s does not divide %s to %s into whole steps: max must be min "
                   "plus a whole number of steps",
                   vstep->s, vmin->s, vmax->s);
        return -1;
    }
    int64_t count = (hi - lo) / step + 1;
    if (count > LEVEL_MAX_STEPS) {
        diag_error(d, path, r->line, r->col,
                   "the range from %s to %s by %s has %lld values; a slider takes at most %d: "
                   "take a bigger step",
                   vmin->s, vmax->s, vstep->s, (long long)count, LEVEL_MAX_STEPS);
        return -1;
    }
    ch->options = xcalloc((size_t)count, sizeof *ch->options);
    for (int64_t k = 0; k < count; k++) {
        bp_option *o = &ch->options[ch->n_options++];
        buf t;
        buf_init(&t);
        put_value(&t, &rf, lo + k * step, pct);
        o->value = buf_detach(&t);
        put_label(&t, &rf, o->value, lo + k * step);
        o->label = buf_detach(&t);
        o->pos = ch->range_pos;
    }
    if (start) {
        int64_t v = 0;
        bool pct_start = false;
        if (read_value(path, start, "start", &rf, false, &v, &pct_start, d) != 0)
            return -1;
        if (v < lo || v > hi || (v - lo) % step != 0) {
            diag_error(d, YPATH(path, start), start->line, start->col,
                       "start %s is not one of the range's values (%s to %s by %s)", start->s,
                       vmin->s, vmax->s, vstep->s);
            return -1;
        }
        ch->start = (int)((v - lo) / step);
    }
    return 0;
}

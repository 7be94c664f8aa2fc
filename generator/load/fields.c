/* fields.c — the part and link setting tables (see fields.h), made from
 * sim-core/schema.h's lists of a board's fields. */
#include "load/fields.h"
#include "schema.h"
#include "load/board.h"
#include "base/fmt.h"
#include "load/yread.h"

#include <stdio.h>
#include <string.h>

/* Enum fields are read and written as int (field_read, field_format). */
_Static_assert(sizeof(sim_idempotency) == sizeof(int) && sizeof(sim_delivery) == sizeof(int) &&
                   sizeof(sim_publish) == sizeof(int) && sizeof(sim_message_id) == sizeof(int),
               "enum fields are int-sized");
_Static_assert(SIM_IDEM_COUNT <= 8 && SIM_DELIVERY_COUNT <= 8 && SIM_PUBLISH_COUNT <= 8 &&
                   SIM_MESSAGE_ID_COUNT <= 8,
               "MAX_ENUM_NAMES holds every enum's names");

/* The settings of schema.h's lists, in their reading order. */
#define NOT_A_SETTING(m, wire, ctype, aux)
#define SETTING(T, m, key, load, kinds, min, max, label, unit, rank, order, help, def, def_source) \
    [order] = {key,   FT_##load, offsetof(T, m), kinds, min, max,                                  \
               label, unit,      rank,           help,  def, def_source},
#define PART_SETTING(m, wire, ctype, aux, ...) SETTING(sim_part, m, __VA_ARGS__)
#define LINK_SETTING(m, wire, ctype, aux, ...) SETTING(sim_link, m, __VA_ARGS__)
#define ONE_SETTING(m, wire, ctype, aux, ...) +1

static const field_def part_fields[] = {SIM_PART_FIELDS(NOT_A_SETTING, PART_SETTING)};
static const field_def link_fields[] = {SIM_LINK_FIELDS(NOT_A_SETTING, LINK_SETTING)};
/* An order said twice is a build error (an initializer overridden); one
 * left out makes a table longer than its settings: */
_Static_assert(sizeof part_fields / sizeof part_fields[0] ==
                   0 SIM_PART_FIELDS(NOT_A_SETTING, ONE_SETTING),
               "schema.h: the part settings' orders are 0, 1, 2, ... without a gap");
_Static_assert(sizeof link_fields / sizeof link_fields[0] ==
                   0 SIM_LINK_FIELDS(NOT_A_SETTING, ONE_SETTING),
               "schema.h: the link settings' orders are 0, 1, 2, ... without a gap");

/* The traffic's numbers (a level's range of one, fields_traffic): not read
 * through field_read (load_traffic reads the traffic), so only their names,
 * types, ranges and units are used. */
#define TRAFFIC_SETTING(m, wire, ctype, aux, key, load, kinds, min, max, label, unit, rank, order, \
                        help, def, def_source)                                                     \
    [order] = {key, FT_##load, 0, kinds, min, max, label, unit, rank, help, def, def_source},
static const field_def traffic_fields[] = {SIM_BOARD_FIELDS(NOT_A_SETTING, TRAFFIC_SETTING)};
_Static_assert(sizeof traffic_fields / sizeof traffic_fields[0] ==
                   0 SIM_BOARD_FIELDS(NOT_A_SETTING, ONE_SETTING),
               "schema.h: the traffic settings' orders are 0, 1, 2, ... without a gap");

/* The keys of a board file and of its traffic (board.h). */
static const char *const board_keys[] = {"id",    "title",   "short", "seed",   "replications",
                                         "parts", "links",   "traffic", "goals", "expect"};
static const char *const traffic_keys[] = {"from",     "jobs",         "over",  "op",
                                           "arrivals", "repeat_share", "poison", "noun",
                                           "verb"};

const char *const *board_top_keys(size_t *n)
{
    *n = sizeof board_keys / sizeof board_keys[0];
    return board_keys;
}

const char *const *board_traffic_keys(size_t *n)
{
    *n = sizeof traffic_keys / sizeof traffic_keys[0];
    return traffic_keys;
}

const field_def *fields_part(size_t *n)
{
    *n = sizeof part_fields / sizeof part_fields[0];
    return part_fields;
}

const field_def *fields_link(size_t *n)
{
    *n = sizeof link_fields / sizeof link_fields[0];
    return link_fields;
}

const field_def *fields_traffic(size_t *n)
{
    *n = sizeof traffic_fields / sizeof traffic_fields[0];
    return traffic_fields;
}

void fields_kinds_text(buf *out, unsigned bits)
{
    size_t n = 0, total = 0;
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        total += (bits & KIND_BIT(k)) != 0;
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        if (bits & KIND_BIT(k))
            buf_printf(out, "%s%s",
                       n++ == 0     ? ""
                       : n == total ? " and "
                                    : ", ",
                       sim_kind_name((sim_kind)k));
}

const field_def *fields_find(const field_def *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

const field_def *fields_of_path(const char *set)
{
    const char *last = strrchr(set, '.');
    size_t n = 0;
    const field_def *t = NULL;
    if (strncmp(set, "parts.", 6) == 0)
        t = fields_part(&n);
    else if (strncmp(set, "links.", 6) == 0)
        t = fields_link(&n);
    else if (strncmp(set, "traffic.", 8) == 0)
        t = fields_traffic(&n);
    return t && last ? fields_find(t, n, last + 1) : NULL;
}

static const bp_catalog_value *retention(const bp_catalog *cat, const char *name)
{
    if (!cat)
        return NULL;
    for (size_t i = 0; i < cat->n_values; i++)
        if (strcmp(cat->values[i].section, "retention") == 0 &&
            strcmp(cat->values[i].field, name) == 0)
            return &cat->values[i];
    return NULL;
}

/* A retention: a duration, "forever", a catalog retention name and, for
 * a window (allow_zero), zero or "none". */
static int read_ttl(const char *path, const ynode *v, const char *what, bool allow_zero,
                    int64_t *out, const bp_catalog *cat, diag *d)
{
    if (v->type == YN_SCALAR && v->plain && strcmp(v->s, "forever") == 0) {
        *out = SIM_FOREVER;
        return 0;
    }
    if (allow_zero && v->type == YN_SCALAR && v->plain && strcmp(v->s, "none") == 0) {
        *out = 0;
        return 0;
    }
    if (v->type == YN_SCALAR && v->len > 0 && v->s[0] >= 'a' && v->s[0] <= 'z') {
        const bp_catalog_value *r = retention(cat, v->s);
        if (r) {
            *out = (int64_t)(r->value * 1e6 + 0.5);
            return 0;
        }
        if (cat) {
            const char *names[64];
            size_t n = 0;
            for (size_t i = 0; i < cat->n_values && n < 62; i++) /* two left for the words */
                if (strcmp(cat->values[i].section, "retention") == 0)
                    names[n++] = cat->values[i].field;
            names[n++] = "forever";
            if (allow_zero)
                names[n++] = "none";
            diag_unknown(d, YPATH(path, v), v->line, v->col,
                         allow_zero ? "window" : "key retention", v->s, names, n);
            return -1;
        }
    }
    return yread_duration(path, v, what, !allow_zero, out, d);
}

/* The enum fields: what to call a value in messages, how many there are and
 * their names (adapters, so one table can hold every name function). */
static const char *idem_name(int i)
{
    return sim_idempotency_name((sim_idempotency)i);
}
static const char *delivery_name(int i)
{
    return sim_delivery_name((sim_delivery)i);
}
static const char *publish_name(int i)
{
    return sim_publish_name((sim_publish)i);
}
static const char *message_id_name(int i)
{
    return sim_message_id_name((sim_message_id)i);
}

static const struct {
    field_type type;
    const char *what;
    int count;
    const char *(*name)(int);
} enum_fields[] = {
    {FT_IDEM, "idempotency policy", SIM_IDEM_COUNT, idem_name},
    {FT_DELIVERY, "delivery", SIM_DELIVERY_COUNT, delivery_name},
    {FT_PUBLISH, "publish order", SIM_PUBLISH_COUNT, publish_name},
    {FT_MSGID, "message_id", SIM_MESSAGE_ID_COUNT, message_id_name},
};

#define MAX_ENUM_NAMES FIELDS_MAX_ENUM_NAMES

size_t fields_enum_names(field_type t, const char **names, const char **what)
{
    for (size_t e = 0; e < sizeof enum_fields / sizeof enum_fields[0]; e++) {
        if (enum_fields[e].type != t)
            continue;
        *what = enum_fields[e].what;
        for (int i = 0; i < enum_fields[e].count && i < MAX_ENUM_NAMES; i++)
            names[i] = enum_fields[e].name(i);
        return (size_t)enum_fields[e].count;
    }
    *what = "";
    return 0;
}

/* redelivery_after's keys, in the order read_backoff and messages use. */
static const char *const jitter_names[] = {"none", "full"};
static const field_key backoff_keys[] = {
    {"first", FT_DURATION, 0, 0, NULL, 0},
    {"factor", FT_NUMBER, 1, 1000, NULL, 0},
    {"max", FT_DURATION, 0, 0, NULL, 0},
    {"jitter", FT_BOOL, 0, 0, jitter_names, 2},
};
#define BACKOFF_KEYS (sizeof backoff_keys / sizeof backoff_keys[0])

const field_key *fields_map_keys(const field_def *f, size_t *n)
{
    *n = f && f->type == FT_BACKOFF ? BACKOFF_KEYS : 0;
    return *n ? backoff_keys : NULL;
}

const field_key *fields_part_key(const char *part_id, const char *setting, const char *key,
                                 diag_note *err)
{
    size_t nf, nk;
    const field_def *table = fields_part(&nf), *f = fields_find(table, nf, setting);
    const field_key *keys = fields_map_keys(f, &nk);
    const char *names[64];
    if (!f) {
        for (size_t i = 0; i < nf && i < 64; i++)
            names[i] = table[i].name;
        diag_note_unknown(err, "setting|of a part", setting, names, nf < 64 ? nf : 64);
        return NULL;
    }
    if (!keys) {
        buf with; /* the settings that take keys */
        buf_init(&with);
        for (size_t i = 0; i < nf; i++)
            if (fields_map_keys(&table[i], &nk))
                buf_printf(&with, "%s%s", with.len ? ", " : "", table[i].name);
        diag_note_set(err,
                      "'%s' takes one value, not keys: set parts.%s.%s itself (only %s takes keys)",
                      setting, part_id, setting, with.data ? with.data : "none");
        buf_free(&with);
        return NULL;
    }
    for (size_t i = 0; i < nk; i++)
        if (strcmp(keys[i].name, key) == 0)
            return &keys[i];
    for (size_t i = 0; i < nk && i < 64; i++)
        names[i] = keys[i].name;
    char what[96];
    snprintf(what, sizeof what, "key|in %s", setting);
    diag_note_unknown(err, what, key, names, nk);
    return NULL;
}

/* redelivery_after (FT_BACKOFF, sim_part only): a duration, every wait
 * the same; or {first, factor, max, jitter}, each wait factor times the one
 * before, at most max, and with full jitter drawn below it. first left out
 * keeps the wait already there (the catalog's); factor is 2, max none. */
static int read_backoff(const char *path, const ynode *v, sim_part *p, diag *d)
{
    if (v->type != YN_MAP) {
        if (yread_duration(path, v, "redelivery_after", true, &p->redelivery_after_us, d) != 0)
            return -1;
        p->backoff_factor = 0;
        p->backoff_max_us = 0;
        p->backoff_jitter = false;
        return 0;
    }
    const char *keys[BACKOFF_KEYS];
    for (size_t i = 0; i < BACKOFF_KEYS; i++)
        keys[i] = backoff_keys[i].name;
    const ynode *first = ymap_get(v, "first"), *factor = ymap_get(v, "factor");
    const ynode *max = ymap_get(v, "max"), *jitter = ymap_get(v, "jitter");
    const field_key *kf = &backoff_keys[1], *kj = &backoff_keys[3];
    int64_t first_us = p->redelivery_after_us, max_us = 0;
    double x = 2;
    int j = 0, rc = ycheck_keys(path, v, "key|in redelivery_after", keys, BACKOFF_KEYS, d) ? -1 : 0;
    if (first)
        rc |= yread_duration(path, first, "first", true, &first_us, d);
    else if (first_us <= 0) {
        ymissing(path, v, "first", "redelivery_after", d);
        rc = -1;
    }
    if (factor)
        rc |= yread_number(path, factor, "factor", kf->min, kf->max, &x, d);
    if (max && !(max->type == YN_SCALAR && max->plain && strcmp(max->s, "none") == 0))
        rc |= yread_duration(path, max, "max", true, &max_us, d);
    if (jitter)
        rc |= yread_enum(path, jitter, "jitter", kj->names, kj->n_names, &j, d);
    if (rc == 0 && max_us > 0 && max_us < first_us) {
        buf a, b;
        buf_init(&a);
        buf_init(&b);
        fmt_duration_us(&a, max_us);
        fmt_duration_us(&b, first_us);
        diag_error(d, YPATH(path, max), max->line, max->col,
                   "max (%s) is shorter than first (%s); the longest wait is at least the first",
                   a.data, b.data);
        buf_free(&a);
        buf_free(&b);
        rc = -1;
    }
    if (rc != 0)
        return -1;
    /* factor 1 waits first every time (a max is at least first): the board
     * of a plain wait, and the simulator receives it as that board, byte
     * for byte, so a level's factor 1 is the board's own fixed wait */
    bool fixed = x == 1;
    p->redelivery_after_us = first_us;
    p->backoff_factor = fixed ? 0 : x;
    p->backoff_max_us = fixed ? 0 : max_us;
    p->backoff_jitter = j == 1;
    return 0;
}

int field_read(const char *path, const ynode *v, const field_def *f, void *target,
               const bp_catalog *cat, diag *d)
{
    char *base = target;
    void *at = base + f->offset;
    switch (f->type) {
    case FT_INT: {
        int64_t x;
        if (yread_int(path, v, f->name, f->min, f->max, &x, d) != 0)
            return -1;
        *(int *)at = (int)x;
        return 0;
    }
    case FT_NUMBER:
        return yread_number(path, v, f->name, 0, 1e6, (double *)at, d);
    case FT_PROB:
        return yread_prob(path, v, f->name, (double *)at, d);
    case FT_DURATION:
        return yread_duration(path, v, f->name, true, (int64_t *)at, d);
    case FT_BACKOFF:
        return read_backoff(path, v, target, d);
    case FT_TTL:
    case FT_WINDOW:
        return read_ttl(path, v, f->name, f->type == FT_WINDOW, (int64_t *)at, cat, d);
    case FT_MONEY:
        return yread_money(path, v, f->name, (double *)at, d);
    case FT_BOOL:
        return yread_bool(path, v, f->name, (bool *)at, d);
    case FT_IDEM:
    case FT_DELIVERY:
    case FT_PUBLISH:
    case FT_MSGID: {
        const char *names[MAX_ENUM_NAMES], *what;
        size_t n = fields_enum_names(f->type, names, &what);
        int x;
        if (yread_enum(path, v, what, names, n, &x, d) != 0)
            return -1;
        /* every enum field is a C enum: int-sized */
        *(int *)at = x;
        return 0;
    }
    }
    return -1;
}

void field_format(buf *b, const field_def *f, const void *target)
{
    const char *at = (const char *)target + f->offset;
    switch (f->type) {
    case FT_INT:
        buf_printf(b, "%d", *(const int *)at);
        if (f->unit)
            buf_printf(b, " %s", f->unit);
        break;
    case FT_NUMBER:
        fmt_number(b, *(const double *)at);
        if (f->unit)
            buf_printf(b, " %s", f->unit);
        break;
    case FT_PROB:
        fmt_ratio(b, *(const double *)at);
        break;
    case FT_WINDOW:
        if (*(const int64_t *)at == 0) {
            buf_puts(b, "none");
            break;
        }
        fmt_duration_us(b, *(const int64_t *)at);
        break;
    case FT_DURATION:
    case FT_TTL:
        fmt_duration_us(b, *(const int64_t *)at);
        break;
    case FT_BACKOFF:
        fields_backoff_text(b, target);
        break;
    case FT_MONEY:
        fmt_usd_month(b, *(const double *)at);
        break;
    case FT_BOOL:
        buf_puts(b, *(const bool *)at ? "yes" : "no");
        break;
    case FT_IDEM:
    case FT_DELIVERY:
    case FT_PUBLISH:
    case FT_MSGID: {
        const char *names[MAX_ENUM_NAMES], *what;
        size_t n = fields_enum_names(f->type, names, &what);
        int x = *(const int *)at;
        buf_puts(b, x >= 0 && (size_t)x < n ? names[x] : "unknown");
        break;
    }
    }
}

void fields_backoff_text(buf *b, const sim_part *p)
{
    fmt_duration_us(b, p->redelivery_after_us);
    if (p->backoff_factor > 1) {
        buf_puts(b, ", then ×");
        fmt_number(b, p->backoff_factor);
        buf_puts(b, " each try");
        if (p->backoff_max_us > 0) {
            buf_puts(b, " up to ");
            fmt_duration_us(b, p->backoff_max_us);
        }
    }
    if (p->backoff_jitter)
        buf_puts(b, ", full jitter");
}

size_t fields_split_path(char *path, char *segs[5])
{
    size_t n = 0;
    for (char *p = path; n < 5;) {
        segs[n++] = p;
        char *dot = strchr(p, '.');
        if (!dot)
            break;
        *dot = '\0';
        p = dot + 1;
    }
    return n;
}

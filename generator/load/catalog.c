/* catalog.c — content/catalog.yaml: every default the simulator uses, per
 * part kind and per protocol, plus prices, traffic defaults and named key
 * retention windows (content/catalog.yaml). Nothing in the model has a
 * default in C: a setting a section leaves out comes from its schema.h
 * row's default, written and read as a catalog value with its source. */
#include "load/board.h"
#include "load/fields.h"
#include "base/fmt.h"
#include "base/util.h"
#include "load/yread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void add_value(bp_catalog *c, size_t *cap, const char *section, const char *field,
                      char *text, char *label, double value, const ynode *at)
{
    c->values = xgrow(c->values, sizeof *c->values, cap, c->n_values + 1);
    bp_catalog_value *v = &c->values[c->n_values++];
    v->section = xstrdup(section);
    v->field = xstrdup(field);
    v->text = text;
    v->label = label;
    v->value = value;
    v->source = BP_SOURCE_EXAMPLE;
    v->sources = NULL;
    v->n_sources = 0;
    v->pos.line = at->line;
    v->pos.col = at->col;
}

/* Sources (the catalog's `sources:` maps, a retention entry's `source:`).
 * A source is "example", "example: WHY" or "measurement: WHAT", or a map
 * that names one kind (documentation, measurement, example, compare: a
 * real system's value beside ours) with its page's `url` and the day it
 * was `checked`, which documentation and compare need; a list gives
 * several. */

#define MAX_SOURCES 8

static const struct {
    const char *name;
    bp_source_kind kind;
} source_kinds[] = {{"documentation", BP_SOURCE_DOCS},
                    {"measurement", BP_SOURCE_MEASURED},
                    {"example", BP_SOURCE_EXAMPLE},
                    {"compare", BP_SOURCE_COMPARE}};
#define N_SOURCE_KINDS (sizeof source_kinds / sizeof source_kinds[0])

/* A web address: http(s)://, then no space, quote or angle bracket. */
static bool valid_url(const char *s)
{
    const char *rest = strncmp(s, "https://", 8) == 0  ? s + 8
                       : strncmp(s, "http://", 7) == 0 ? s + 7
                                                       : NULL;
    if (!rest || !*rest)
        return false;
    for (; *rest; rest++)
        if ((unsigned char)*rest <= ' ' || strchr("\"'<>\\", *rest))
            return false;
    return true;
}

static bp_source *add_source(bp_catalog_value *v, const char *path, const ynode *at, diag *d)
{
    if (v->n_sources == MAX_SOURCES) {
        diag_error(d, YPATH(path, at), at->line, at->col,
                   "a value has at most %d sources; keep the ones a reader needs", MAX_SOURCES);
        return NULL;
    }
    v->sources = xrealloc(v->sources, (v->n_sources + 1) * sizeof *v->sources);
    bp_source *s = &v->sources[v->n_sources++];
    memset(s, 0, sizeof *s);
    return s;
}

/* The short form: "example", "example: WHY" or "measurement: WHAT". */
static void read_source_text(const char *path, const ynode *n, bp_catalog_value *v, diag *d)
{
    char *text = NULL;
    if (yread_text(path, n, "source", &text, d) != 0)
        return;
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    const char *what = colon ? colon + 1 : "";
    while (*what == ' ')
        what++;
    int k = -1;
    for (size_t i = 0; i < N_SOURCE_KINDS; i++)
        if (strlen(source_kinds[i].name) == len && strncmp(text, source_kinds[i].name, len) == 0)
            k = (int)i;
    bool dated = k >= 0 && (source_kinds[k].kind == BP_SOURCE_DOCS ||
                            source_kinds[k].kind == BP_SOURCE_COMPARE);
    if (dated && *what)
        diag_error(d, YPATH(path, n), n->line, n->col,
                   "a %s source needs the day it was checked: write {%s: %s, url: ADDRESS, "
                   "checked: YYYY-MM-DD}",
                   source_kinds[k].name, source_kinds[k].name, what);
    else if (k < 0 || dated || (source_kinds[k].kind == BP_SOURCE_MEASURED && !*what) ||
             (colon && !*what))
        diag_error(d, YPATH(path, n), n->line, n->col,
                   "a source is 'example', 'example: WHY', 'measurement: WHAT' or a map such as "
                   "{documentation: WHICH, url: ADDRESS, checked: YYYY-MM-DD}, not '%s'",
                   text);
    else {
        bp_source *s = add_source(v, path, n, d);
        if (s) {
            s->kind = source_kinds[k].kind;
            s->text = *what ? xstrdup(what) : NULL;
        }
    }
    free(text);
}

/* The long form: one kind, its text, url and checked. */
static void read_source_map(const char *path, const ynode *n, bp_catalog_value *v, diag *d)
{
    static const char *const keys[] = {"documentation", "measurement", "example",
                                       "compare",       "url",         "checked"};
    ycheck_keys(path, n, "key|in a source", keys, 6, d);
    int k = -1;
    const ynode *kn = NULL;
    for (size_t i = 0; i < N_SOURCE_KINDS; i++) {
        const ynode *x = ymap_get(n, source_kinds[i].name);
        if (x && kn) {
            diag_error(d, YPATH(path, n), n->line, n->col,
                       "a source is one of documentation, measurement, example or compare; "
                       "give each its own entry in a list");
            return;
        }
        if (x) {
            k = (int)i;
            kn = x;
        }
    }
    if (!kn) {
        diag_error(d, YPATH(path, n), n->line, n->col,
                   "a source needs 'documentation', 'measurement', 'example' or 'compare'");
        return;
    }
    bp_source_kind kind = source_kinds[k].kind;
    const ynode *un = ymap_get(n, "url"), *cn = ymap_get(n, "checked");
    char *text = NULL, *url = NULL, *checked = NULL;
    bool ok = yread_text(path, kn, source_kinds[k].name, &text, d) == 0;
    if (un && yread_text(path, un, "url", &url, d) == 0 && !valid_url(url)) {
        diag_error(d, YPATH(path, un), un->line, un->col,
                   "a source's url is a web address starting with https://, not '%s'", url);
        ok = false;
    }
    if (cn) {
        if (yread_text(path, cn, "checked", &checked, d) != 0)
            ok = false;
        else if (!yread_valid_day(checked)) {
            diag_error(d, YPATH(path, cn), cn->line, cn->col,
                       "checked '%s' is not a day: write the day the source was checked as "
                       "YYYY-MM-DD, such as 2026-12-02",
                       checked);
            ok = false;
        }
    } else if (kind == BP_SOURCE_DOCS || kind == BP_SOURCE_COMPARE) {
        char in_what[64];
        snprintf(in_what, sizeof in_what, "a %s source", source_kinds[k].name);
        diag_error(d, YPATH(path, n), n->line, n->col,
                   "%s needs 'checked', the day someone checked it (YYYY-MM-DD)", in_what);
        ok = false;
    }
    bp_source *s = ok ? add_source(v, path, n, d) : NULL;
    if (s) {
        s->kind = kind;
        s->text = text;
        s->url = url;
        if (checked)
            memcpy(s->checked, checked, sizeof s->checked);
        text = url = NULL;
    }
    free(text);
    free(url);
    free(checked);
}

/* A value's source or list of sources; the value's own origin is its first
 * source that is not a comparison. */
static void read_source(const char *path, const ynode *n, bp_catalog_value *v, diag *d)
{
    if (n->type == YN_SEQ) {
        if (n->n == 0)
            diag_error(d, YPATH(path, n), n->line, n->col, "a list of sources is empty");
        for (size_t i = 0; i < n->n; i++)
            if (n->kids[i]->type == YN_SEQ)
                diag_error(d, YPATH(path, n->kids[i]), n->kids[i]->line, n->kids[i]->col,
                           "a source in a list is text or a map, not another list");
            else
                read_source(path, n->kids[i], v, d);
    } else if (n->type == YN_MAP) {
        read_source_map(path, n, v, d);
    } else {
        read_source_text(path, n, v, d);
    }
    v->source = BP_SOURCE_EXAMPLE;
    for (size_t i = v->n_sources; i-- > 0;)
        if (v->sources[i].kind != BP_SOURCE_COMPARE)
            v->source = v->sources[i].kind;
}

/* A section's `sources:` map: the source of each value it names. */
static void load_sources(bp_catalog *c, const char *path, const ynode *sec, const char *section,
                         diag *d)
{
    const ynode *src = ymap_get(sec, "sources");
    if (!src)
        return;
    char what[96];
    snprintf(what, sizeof what, "the sources of catalog section '%s'", section);
    if (yexpect(path, src, YN_MAP, what, d) != 0)
        return;
    for (size_t i = 0; i + 1 < src->n; i += 2) {
        const ynode *k = src->kids[i];
        bp_catalog_value *v = NULL;
        for (size_t j = 0; j < c->n_values && k->type == YN_SCALAR; j++)
            if (strcmp(c->values[j].section, section) == 0 && strcmp(c->values[j].field, k->s) == 0)
                v = &c->values[j];
        if (!v) {
            diag_error(d, path, k->line, k->col,
                       "'%s' is not a value of catalog section '%s' (a source belongs to one)",
                       k->type == YN_SCALAR ? k->s : "?", section);
            continue;
        }
        read_source(path, src->kids[i + 1], v, d);
    }
}

/* The number behind a field, for bp_catalog_value.value (seconds for
 * durations, INFINITY for forever). */
static double field_number(const field_def *f, const void *target)
{
    const char *at = (const char *)target + f->offset;
    switch (f->type) {
    case FT_INT:
        return *(const int *)at;
    case FT_NUMBER:
    case FT_PROB:
    case FT_MONEY:
        return *(const double *)at;
    case FT_DURATION:
    case FT_BACKOFF:
    case FT_TTL:
    case FT_WINDOW: {
        int64_t us = *(const int64_t *)at;
        return us == SIM_FOREVER ? INFINITY : (double)us / 1e6;
    }
    case FT_BOOL:
        return *(const bool *)at ? 1 : 0;
    case FT_IDEM:
    case FT_DELIVERY:
    case FT_PUBLISH:
    case FT_MSGID:
        return 0;
    }
    return 0;
}

/* Field f of a section, as read into target, as the catalog's value. */
static bp_catalog_value *add_field_value(bp_catalog *c, size_t *cap, const char *section,
                                         const field_def *f, const void *target,
                                         const char *section_label, const ynode *at)
{
    buf text;
    buf_init(&text);
    field_format(&text, f, target);
    double number = field_number(f, target);
    buf label; /* "Consumer keeps keys for" 24 h, "Consumer keeps keys" forever */
    buf_init(&label);
    buf_puts(&label, section_label ? section_label : section);
    buf_putc(&label, ' ');
    fmt_words_before(&label, f->label, isinf(number) ? INT64_MAX : 0);
    add_value(c, cap, section, f->name, buf_detach(&text), buf_detach(&label), number, at);
    return &c->values[c->n_values - 1];
}

/* A setting the section leaves out whose row gives a default (schema.h):
 * the row's text read as a value of the catalog, its def_source as a
 * source of it, so pages and help trace it as any other. A section's
 * `sources:` may still name it. Errors are the row's (ROW_PATH). */
#define ROW_PATH "sim-core/schema.h"
static bp_catalog_value *row_default(bp_catalog *c, size_t *cap, const char *section,
                                     const field_def *f, void *target, diag *d)
{
    ynode value = {.type = YN_SCALAR, .s = (char *)f->def, .len = strlen(f->def), .plain = true};
    if (field_read(ROW_PATH, &value, f, target, c, d) != 0)
        return NULL;
    const char *label = NULL;
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        if (strcmp(section, sim_kind_name((sim_kind)k)) == 0)
            label = c->kind_label[k];
    for (int p = 0; p < SIM_PROTO_COUNT; p++)
        if (strcmp(section, sim_protocol_name((sim_protocol)p)) == 0)
            label = c->protocol_label[p];
    bp_catalog_value *v = add_field_value(c, cap, section, f, target, label, &value);
    ynode source = {.type = YN_SCALAR,
                    .s = (char *)(f->def_source ? f->def_source : ""),
                    .len = f->def_source ? strlen(f->def_source) : 0};
    size_t mark = diag_mark(d);
    read_source(ROW_PATH, &source, v, d);
    return diag_failed_since(d, mark) ? NULL : v;
}

const bp_catalog_value *catalog_row_default(bp_catalog *c, const char *section, const field_def *f,
                                            void *target, diag *d)
{
    size_t cap = c->n_values;
    return row_default(c, &cap, section, f, target, d);
}

/* A kind or protocol section: label plus every field that applies. */
static void load_fields(bp_catalog *c, size_t *cap, const char *path, const ynode *sec,
                        const char *section, const field_def *table, size_t n_table,
                        unsigned kind_bit, void *target, char **label_out, diag *d)
{
    const char *allowed[48];
    size_t n_allowed = 0;
    allowed[n_allowed++] = "label";
    for (size_t i = 0; i < n_table; i++)
        if (kind_bit == 0 || (table[i].kinds & kind_bit))
            allowed[n_allowed++] = table[i].name;
    allowed[n_allowed++] = "sources";
    char what[96];
    snprintf(what, sizeof what, "key|in catalog section '%s'", section);
    ycheck_keys(path, sec, what, allowed, n_allowed, d);

    char in_what[96];
    snprintf(in_what, sizeof in_what, "catalog section '%s'", section);
    const ynode *lab = ymap_get(sec, "label");
    if (!lab)
        ymissing(path, sec, "label", in_what, d);
    else
        yread_text(path, lab, "label", label_out, d);

    for (size_t i = 0; i < n_table; i++) {
        const field_def *f = &table[i];
        if (kind_bit != 0 && !(f->kinds & kind_bit))
            continue;
        const ynode *v = ymap_get(sec, f->name);
        if (!v && f->def) {
            row_default(c, cap, section, f, target, d);
            continue;
        }
        if (!v) {
            ymissing(path, sec, f->name, in_what, d);
            continue;
        }
        if (field_read(path, v, f, target, c, d) == 0)
            add_field_value(c, cap, section, f, target, *label_out, v);
    }
    load_sources(c, path, sec, section, d);
}

static void load_price(bp_catalog *c, size_t *cap, const char *path, const ynode *sec, diag *d)
{
    static const char *const keys[] = {"vcpu", "gb", "sources"};
    ycheck_keys(path, sec, "key|in catalog section 'price'", keys, 3, d);
    double *dst[2] = {&c->prices.vcpu_usd_month, &c->prices.gb_usd_month};
    static const char *const labels[] = {"Price per vCPU per month", "Price per GB per month"};
    for (size_t i = 0; i < 2; i++) {
        const ynode *v = ymap_get(sec, keys[i]);
        if (!v) {
            ymissing(path, sec, keys[i], "catalog section 'price'", d);
            continue;
        }
        if (yread_money(path, v, keys[i], dst[i], d) != 0)
            continue;
        buf t;
        buf_init(&t);
        fmt_usd_month(&t, *dst[i]);
        add_value(c, cap, "price", keys[i], buf_detach(&t), xstrdup(labels[i]), *dst[i], v);
    }
    load_sources(c, path, sec, "price", d);
}

static void load_traffic(bp_catalog *c, size_t *cap, const char *path, const ynode *sec, diag *d)
{
    static const char *const keys[] = {"op", "arrivals", "repeat_share", "poison", "sources"};
    ycheck_keys(path, sec, "key|in catalog section 'traffic'", keys, 5, d);
    for (size_t i = 0; i < 4; i++) {
        const ynode *v = ymap_get(sec, keys[i]);
        if (!v) {
            ymissing(path, sec, keys[i], "catalog section 'traffic'", d);
            continue;
        }
        int x = 0;
        buf t;
        buf_init(&t);
        if (i == 0) {
            const char *names[] = {sim_op_name(SIM_OP_CHARGE), sim_op_name(SIM_OP_SET)};
            if (yread_enum(path, v, "operation", names, SIM_OP_COUNT, &x, d) != 0)
                continue;
            c->traffic.op = (sim_op)x;
            buf_puts(&t, names[x]);
        } else if (i == 1) {
            const char *names[] = {sim_arrivals_name(SIM_ARRIVALS_POISSON),
                                   sim_arrivals_name(SIM_ARRIVALS_EVEN)};
            if (yread_enum(path, v, "arrivals", names, SIM_ARRIVALS_COUNT, &x, d) != 0)
                continue;
            c->traffic.arrivals = (sim_arrivals)x;
            buf_puts(&t, names[x]);
        } else {
            double *share = i == 2 ? &c->traffic.repeat_share : &c->traffic.poison;
            if (yread_prob(path, v, keys[i], share, d) != 0)
                continue;
            fmt_ratio(&t, *share);
        }
        static const char *const labels[] = {"Traffic operation", "Traffic arrivals",
                                             "Share of legitimate repeats",
                                             "Share of poison messages"};
        add_value(c, cap, "traffic", keys[i], buf_detach(&t), xstrdup(labels[i]), 0, v);
    }
    load_sources(c, path, sec, "traffic", d);
}

static void load_retention(bp_catalog *c, size_t *cap, const char *path, const ynode *sec, diag *d)
{
    for (size_t i = 0; i + 1 < sec->n; i += 2) {
        const ynode *k = sec->kids[i], *v = sec->kids[i + 1];
        char *name = NULL;
        if (yread_id(path, k, "retention name", &name, d) != 0)
            continue;
        if (strcmp(name, "forever") == 0) {
            diag_error(d, path, k->line, k->col, "'forever' is a reserved retention name");
            free(name);
            continue;
        }
        if (yexpect(path, v, YN_MAP, "a retention entry", d) != 0) {
            free(name);
            continue;
        }
        static const char *const keys[] = {"ttl", "label", "source"};
        ycheck_keys(path, v, "key|in a retention entry", keys, 3, d);
        const ynode *ttl = ymap_get(v, "ttl"), *lab = ymap_get(v, "label");
        int64_t us = 0;
        char *label = NULL;
        int ok = 1;
        if (!ttl) {
            ymissing(path, v, "ttl", "a retention entry", d);
            ok = 0;
        } else if (yread_duration(path, ttl, "ttl", true, &us, d) != 0) {
            ok = 0;
        }
        if (!lab) {
            ymissing(path, v, "label", "a retention entry", d);
            ok = 0;
        } else if (yread_text(path, lab, "label", &label, d) != 0) {
            ok = 0;
        }
        if (ok) {
            buf t;
            buf_init(&t);
            fmt_duration_us(&t, us);
            add_value(c, cap, "retention", name, buf_detach(&t), label, (double)us / 1e6, ttl);
            const ynode *src = ymap_get(v, "source");
            if (src)
                read_source(path, src, &c->values[c->n_values - 1], d);
        } else {
            free(label);
        }
        free(name);
    }
}

bp_catalog *catalog_parse(const char *path, const char *text, size_t len, diag *d)
{
    size_t mark = diag_mark(d);
    bool empty = false;
    ynode *root = yaml_parse(path, text, len, 0, d, &empty);
    if (!root) {
        if (empty)
            diag_error(d, path, 1, 1, "the catalog is empty");
        return NULL;
    }
    bp_catalog *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    size_t cap = 0;
    if (yexpect(path, root, YN_MAP, "the catalog", d) != 0)
        goto done;

    /* Sections in a fixed order so retention names exist before kinds use them. */
    const char *sections[SIM_KIND_COUNT + SIM_PROTO_COUNT + 3];
    size_t n_sections = 0;
    sections[n_sections++] = "price";
    sections[n_sections++] = "traffic";
    sections[n_sections++] = "retention";
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        sections[n_sections++] = sim_kind_name((sim_kind)k);
    for (int p = 0; p < SIM_PROTO_COUNT; p++)
        sections[n_sections++] = sim_protocol_name((sim_protocol)p);
    ycheck_keys(path, root, "catalog section", sections, n_sections, d);

    for (size_t i = 0; i < n_sections; i++) {
        const ynode *sec = ymap_get(root, sections[i]);
        if (!sec) {
            /* a dead-letter-queue takes no settings: its section (a label) is optional */
            if (strcmp(sections[i], "retention") != 0 &&
                strcmp(sections[i], sim_kind_name(SIM_KIND_DLQ)) != 0)
                diag_error(d, path, root->line, root->col, "the catalog needs a '%s' section",
                           sections[i]);
            continue;
        }
        char what[96];
        snprintf(what, sizeof what, "catalog section '%s'", sections[i]);
        if (yexpect(path, sec, YN_MAP, what, d) != 0)
            continue;
        size_t n_table;
        if (i == 0) {
            load_price(c, &cap, path, sec, d);
        } else if (i == 1) {
            load_traffic(c, &cap, path, sec, d);
        } else if (i == 2) {
            load_retention(c, &cap, path, sec, d);
        } else if (i < 3 + SIM_KIND_COUNT) {
            sim_kind k = (sim_kind)(i - 3);
            const field_def *t = fields_part(&n_table);
            c->kinds[k].kind = k;
            load_fields(c, &cap, path, sec, sections[i], t, n_table, KIND_BIT(k), &c->kinds[k],
                        &c->kind_label[k], d);
        } else {
            sim_protocol p = (sim_protocol)(i - 3 - SIM_KIND_COUNT);
            const field_def *t = fields_link(&n_table);
            c->protocols[p].protocol = p;
            load_fields(c, &cap, path, sec, sections[i], t, n_table, 0, &c->protocols[p],
                        &c->protocol_label[p], d);
        }
    }
done:
    ynode_free(root);
    if (diag_failed_since(d, mark)) {
        catalog_free(c);
        return NULL;
    }
    return c;
}

bp_catalog *catalog_load(const char *path, diag *d)
{
    char *text;
    size_t len;
    if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0) {
        if (errno == ENOENT)
            diag_error(d, path, 0, 0,
                       "cannot read the catalog: no such file (every site needs a catalog.yaml "
                       "with every default the simulator uses; start from boardpress's "
                       "content/catalog.yaml)");
        else
            diag_read_error(d, path, 0, 0, path, "the catalog", errno, BP_MAX_FILE_BYTES);
        return NULL;
    }
    bp_catalog *c = catalog_parse(path, text, len, d);
    free(text);
    return c;
}

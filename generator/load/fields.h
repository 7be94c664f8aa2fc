/* fields.h — the schema of part and link settings: one table shared by the
 * catalog (which must give every field of every kind) and boards (which may
 * override any of them), plus their display form for pages. The tables
 * are made from sim-core/schema.h, the one list of a board's fields: a
 * new setting is a row there. */
#ifndef BP_FIELDS_H
#define BP_FIELDS_H

#include "base/util.h"
#include "load/ydoc.h"
#include "model/site.h"

#include <stddef.h>
#include <stdint.h>

typedef enum {
    FT_INT,      /* whole number in [min, max] */
    FT_NUMBER,   /* decimal number >= 0 */
    FT_PROB,     /* 0..1 or 0%..100% */
    FT_DURATION, /* "150 ms", longer than zero */
    FT_TTL,      /* a duration, "forever", or a catalog retention name */
    FT_WINDOW,   /* the same, and also zero or "none" (no window) */
    FT_MONEY,    /* "3 USD" */
    FT_BOOL,
    FT_IDEM,     /* sim_idempotency name */
    FT_DELIVERY, /* sim_delivery name */
    FT_PUBLISH,  /* sim_publish name */
    FT_MSGID,    /* sim_message_id name */
    FT_BACKOFF   /* a broker's redelivery_after: a duration, or {first, factor, max, jitter} */
} field_type;

typedef struct {
    const char *name; /* YAML key */
    field_type type;
    size_t offset;          /* into sim_part (part fields) or sim_link (link fields) */
    unsigned kinds;         /* part fields: bit (1u << kind) for each kind that takes it */
    int64_t min, max;       /* FT_INT range */
    const char *label;      /* key-numbers wording after the kind or protocol label */
    const char *unit;       /* display unit for FT_INT / FT_NUMBER ("tries") */
    int rank;               /* {{ key-numbers }} with no names lists the page's values of rank > 0,
                               lowest first: the settings that decide duplicates and losses */
    const char *help;       /* the author's line of help (boardpress help, docs/boards.md) */
    const char *def;        /* the row's default in the catalog's syntax, for a catalog section
                               that leaves the setting out; NULL: every section gives it */
    const char *def_source; /* where def comes from, as a catalog source */
} field_def;

#define KIND_BIT(k) (1u << (unsigned)(k)) /* schema.h's SIM_KB */

const field_def *fields_part(size_t *n);
const field_def *fields_link(size_t *n);
/* The traffic's numbers, which a level may give a range (jobs, over,
 * repeat_share, poison): name, type, range and unit only (offset 0; the
 * traffic is read by load_traffic). */
const field_def *fields_traffic(size_t *n);
/* "consumer and service": the kinds of kind bits, appended to out. */
void fields_kinds_text(buf *out, unsigned bits);
/* The field named name in the table, or NULL. */
const field_def *fields_find(const field_def *table, size_t n, const char *name);
/* The setting a --set path names by its first and last segments
 * ("parts.worker.fail", "links.a.b.rtt", "traffic.poison"), or NULL. */
const field_def *fields_of_path(const char *set);
/* A broker's redelivery_after as pages show it: "5 s", "1 s, then ×2 each
 * try up to 1 min, full jitter". */
void fields_backoff_text(buf *b, const sim_part *p);

/* A key of a setting written as a mapping: redelivery_after's first,
 * factor, max and jitter. A --set path, a level or a chart names one as
 * parts.ID.SETTING.KEY (override.c makes a plain value a mapping first). */
typedef struct {
    const char *name;
    field_type type;          /* FT_DURATION (max also takes none), FT_NUMBER; unused with names */
    double min, max;          /* FT_NUMBER's range */
    const char *const *names; /* a key that takes one of these names instead (jitter) */
    size_t n_names;
} field_key;

/* The keys field f takes as a mapping, or NULL (*n 0) for a field of one
 * value. */
const field_key *fields_map_keys(const field_def *f, size_t *n);
/* The key that a part path's SETTING.KEY segments name ("redelivery_after",
 * "factor"), or NULL with the reason and what to write in err: an unknown
 * setting, a setting of one value, an unknown key (near names suggested). */
const field_key *fields_part_key(const char *part_id, const char *setting, const char *key,
                                 diag_note *err);
/* The forms of a settable path, for "cannot set" messages. */
#define FIELDS_PATH_FORMS                                                                          \
    "parts.ID.FIELD, parts.ID.FIELD.KEY, links.FROM.TO.FIELD, traffic.FIELD, seed or replications"

/* A --set path ("parts.worker.tries") split in place at its dots into at
 * most 5 segments (the fifth keeps any dots left). Returns how many. */
size_t fields_split_path(char *path, char *segs[5]);

/* The names of an enum field's values (FT_IDEM ... FT_MSGID; at most
 * FIELDS_MAX_ENUM_NAMES) into names, and what to call one in messages into
 * *what. Returns how many; 0 for a field that is not an enum. */
#define FIELDS_MAX_ENUM_NAMES 8
size_t fields_enum_names(field_type t, const char **names, const char **what);

/* Read node v as field f into the struct at target. FT_TTL names are looked
 * up in the catalog's retention section (cat may be NULL while the catalog
 * itself is loading: then only durations and "forever"). */
int field_read(const char *path, const ynode *v, const field_def *f, void *target,
               const bp_catalog *cat, diag *d);

/* Display form of a field's value in the struct at target ("150 ms",
 * "5 tries", "ID check in transaction"). */
void field_format(buf *b, const field_def *f, const void *target);

#endif

/* wire.c — sim_wire_encode/decode: a resolved board as compact bytes, one
 * field table per struct (from schema.h's lists) drives both directions;
 * and the fixed-layout results encoding. The format is described in WIRE.md. */
#include "wire.h"
#include "schema.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ guards
 * sim_part, sim_link and sim_traffic are covered by their rows (schema.h
 * checks that every member has one). A field added to (or removed from)
 * another struct below changes its size and stops the build here: add the
 * field to its list in schema.h (the board encoding's version follows),
 * or to the results layout and bump SIM_WIRE_RESULT_VERSION, update
 * WIRE.md and tests/unit/test_sim_wire.c, then the sizes. A board holds its traffic,
 * so its size is counted without it. Checked on the ABIs we build for:
 * LP64 (x86-64, arm64) and wasm32. */
#if defined(__wasm32__)
#define WIRE_SIZES(lp64, wasm32) (wasm32)
#elif defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__))
#define WIRE_SIZES(lp64, wasm32) (lp64)
#endif
#ifdef WIRE_SIZES
#define WIRE_GUARD(T, lp64, wasm32)                                                                \
    _Static_assert(sizeof(T) == WIRE_SIZES(lp64, wasm32),                                          \
                   #T " changed: update schema.h (its list), the version, WIRE.md and the test")
WIRE_GUARD(sim_goal, 24, 24);
WIRE_GUARD(sim_prices, 16, 16);
_Static_assert(_Alignof(sim_traffic) == 8, "a board's size below counts its traffic as 8-aligned");
WIRE_GUARD(sim_board, 624 + sizeof(sim_traffic), 608 + sizeof(sim_traffic));
WIRE_GUARD(sim_limits, 40, 32);
WIRE_GUARD(sim_stat, 32, 32);
WIRE_GUARD(sim_goal_result, 24, 24);
WIRE_GUARD(sim_trace_entry, 48, 48);
WIRE_GUARD(sim_result, 1304, 1280);
#endif
/* Enums travel through an unsigned int (their C representation here). */
_Static_assert(sizeof(sim_kind) == sizeof(unsigned) && sizeof(sim_protocol) == sizeof(unsigned) &&
                   sizeof(sim_idempotency) == sizeof(unsigned) &&
                   sizeof(sim_delivery) == sizeof(unsigned) && sizeof(sim_op) == sizeof(unsigned) &&
                   sizeof(sim_arrivals) == sizeof(unsigned) &&
                   sizeof(sim_expect) == sizeof(unsigned) &&
                   sizeof(sim_publish) == sizeof(unsigned) &&
                   sizeof(sim_message_id) == sizeof(unsigned),
               "enums are not the size of unsigned int: wire.c must store them differently");

/* ------------------------------------------------------------------ tables */

typedef enum {
    W_BOOL, /* one byte, 0 or 1 */
    W_INT,  /* int, zigzag varint */
    W_ENUM, /* enum, varint below .values */
    W_I64,  /* int64_t, zigzag varint */
    W_U64,  /* uint64_t, varint */
    W_SIZE, /* size_t, varint */
    W_F64,  /* double: its IEEE-754 bits, bytes reversed, as a varint (put_real) */
    W_ID,   /* const char *: varint 0 for NULL, else length + 1, then the bytes (no NUL) */
    W_JOBS, /* const int64_t * with its size_t count at .at_n: varint count, zigzag varints */
} wire_type;

typedef struct {
    wire_type type;
    size_t at;       /* offset of the field in its struct */
    size_t at_n;     /* W_JOBS: offset of the count */
    unsigned values; /* W_ENUM: how many values there are */
    const char *name;
} wire_field;

/* A field's name, for the decoder's messages. The WebAssembly module
 * (SIM_TERSE_CHECKS) leaves the names out to keep small, and says "a
 * field" with the byte and the part or link: the build encoded the bytes
 * itself, so a module that refuses them has a stale or damaged copy. */
#ifdef SIM_TERSE_CHECKS
#define WIRE_NAME(m) NULL
#else
#define WIRE_NAME(m) #m
#endif

/* The field's offset, and a compile error unless it has type C (a
 * comparison of distinct pointer types is a constraint violation). */
#define AT(T, m, C) (offsetof(T, m) + 0 * sizeof(&((T *)0)->m == (C *)0))
/* One row of a schema.h list as a wire_field of struct T. */
#define W_AUX_BOOL(T, a) 0, 0
#define W_AUX_INT(T, a) 0, 0
#define W_AUX_ENUM(T, a) 0, (a)
#define W_AUX_I64(T, a) 0, 0
#define W_AUX_U64(T, a) 0, 0
#define W_AUX_SIZE(T, a) 0, 0
#define W_AUX_F64(T, a) 0, 0
#define W_AUX_ID(T, a) 0, 0
#define W_AUX_JOBS(T, a) AT(T, a, size_t), 0
#define WIRE_ROW(T, m, wire, ctype, aux)                                                           \
    {W_##wire, AT(T, m, ctype), W_AUX_##wire(T, aux), WIRE_NAME(m)},
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The order of each list (schema.h) is the order on the wire. */
#define REQUEST_W(m, wire, ctype, aux) WIRE_ROW(sim_wire_request, m, wire, ctype, aux)
#define REQUEST_S(m, wire, ctype, aux, ...) REQUEST_W(m, wire, ctype, aux)
static const wire_field request_fields[] = {SIM_REQUEST_FIELDS(REQUEST_W, REQUEST_S)};

/* sim_board's scalars, its traffic and prices; parts, links and goals follow. */
#define BOARD_W(m, wire, ctype, aux) WIRE_ROW(sim_board, m, wire, ctype, aux)
#define BOARD_S(m, wire, ctype, aux, ...) BOARD_W(m, wire, ctype, aux)
static const wire_field board_fields[] = {SIM_BOARD_FIELDS(BOARD_W, BOARD_S)};

#define PART_W(m, wire, ctype, aux) WIRE_ROW(sim_part, m, wire, ctype, aux)
#define PART_S(m, wire, ctype, aux, ...) PART_W(m, wire, ctype, aux)
static const wire_field part_fields[] = {SIM_PART_FIELDS(PART_W, PART_S)};

#define LINK_W(m, wire, ctype, aux) WIRE_ROW(sim_link, m, wire, ctype, aux)
#define LINK_S(m, wire, ctype, aux, ...) LINK_W(m, wire, ctype, aux)
static const wire_field link_fields[] = {SIM_LINK_FIELDS(LINK_W, LINK_S)};

/* ------------------------------------------------------------------ version
 * The board encoding's version comes from the tables above, that is from
 * schema.h's rows: an FNV-1a hash of every field's wire type and (for an
 * ENUM) number of values, list by list in wire order, and of the number of
 * measures the goals carry. A row added, removed, moved or given another
 * wire type, or an enum value added, changes it; no number is kept by hand.
 * The fields as version 6 had them keep the number 6 (their hash is
 * SCHEMA_OF_6), so boards encoded before still read; any other hash is the
 * version with its top bit set, above every version numbered by hand. The
 * names do not travel and are not hashed (the module has none); the
 * results cache keys on the simulator's sources as well. */
#define SCHEMA_OF_6 0x48e6b73au

static uint32_t fnv(uint32_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        h = (h ^ (uint8_t)v) * 16777619u;
    return h;
}

static uint32_t hash_fields(uint32_t h, const wire_field *t, size_t n)
{
    h = fnv(h, n);
    for (size_t i = 0; i < n; i++)
        h = fnv(fnv(h, t[i].type), t[i].values);
    return h;
}

uint64_t sim_wire_version(void)
{
    uint32_t h = 2166136261u;
    h = hash_fields(h, request_fields, COUNT(request_fields));
    h = hash_fields(h, board_fields, COUNT(board_fields));
    h = hash_fields(h, part_fields, COUNT(part_fields));
    h = hash_fields(h, link_fields, COUNT(link_fields));
    h = fnv(h, SIM_M_COUNT);
    return h == SCHEMA_OF_6 ? 6 : (uint64_t)h | 0x80000000u;
}

static const uint8_t board_magic[4] = {'B', 'P', 'S', 'W'};
static const uint8_t result_magic[4] = {'B', 'P', 'S', 'R'};

/* ------------------------------------------------------------------ writing */

/* Counts every byte; stores those that fit. */
typedef struct {
    uint8_t *out;
    size_t cap, len;
    bool blank_ids; /* every W_ID as absent (sim_wire_encode_blank) */
} writer;

static void put(writer *w, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++, w->len++)
        if (w->len < w->cap)
            w->out[w->len] = b[i];
}

static void put_u8(writer *w, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(w, &b, 1);
}

static void put_var(writer *w, uint64_t v)
{
    do {
        uint8_t b = (uint8_t)(v & 0x7f);
        v >>= 7;
        put_u8(w, v ? b | 0x80u : b);
    } while (v);
}

static void put_zig(writer *w, int64_t v)
{
    uint64_t u = (uint64_t)v << 1;
    put_var(w, v < 0 ? ~u : u);
}

static void put_le(writer *w, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        put_u8(w, (unsigned)(v >> (8 * i)) & 0xffu);
}

static void put_f64(writer *w, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    put_le(w, u, 8);
}

static uint64_t reverse_bytes(uint64_t u)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++, u >>= 8)
        r = r << 8 | (u & 0xff);
    return r;
}

/* A double's exact bits with the sign-exponent byte last, as a varint: 0
 * takes one byte, 1, 0.5, 5 or 1000 two or three (their low mantissa bytes
 * are zero), a probability like 0.2 ten. */
static void put_real(writer *w, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    put_var(w, reverse_bytes(u));
}

static void put_field(writer *w, const wire_field *f, const void *base)
{
    const char *p = (const char *)base + f->at;
    switch (f->type) {
    case W_BOOL: {
        bool v;
        memcpy(&v, p, sizeof v);
        put_u8(w, v ? 1 : 0);
        break;
    }
    case W_INT: {
        int v;
        memcpy(&v, p, sizeof v);
        put_zig(w, v);
        break;
    }
    case W_ENUM: {
        unsigned v;
        memcpy(&v, p, sizeof v);
        put_var(w, v);
        break;
    }
    case W_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        put_zig(w, v);
        break;
    }
    case W_U64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        put_var(w, v);
        break;
    }
    case W_SIZE: {
        size_t v;
        memcpy(&v, p, sizeof v);
        put_var(w, v);
        break;
    }
    case W_F64: {
        double v;
        memcpy(&v, p, sizeof v);
        put_real(w, v);
        break;
    }
    case W_ID: {
        const char *s;
        memcpy(&s, p, sizeof s);
        if (w->blank_ids)
            s = NULL;
        size_t n = s ? strlen(s) : 0;
        put_var(w, s ? (uint64_t)n + 1 : 0);
        put(w, s, n);
        break;
    }
    case W_JOBS: {
        const int64_t *v;
        size_t n;
        memcpy(&v, p, sizeof v);
        memcpy(&n, (const char *)base + f->at_n, sizeof n);
        if (!v)
            n = 0; /* a missing array travels as an empty one */
        put_var(w, n);
        for (size_t i = 0; i < n; i++)
            put_zig(w, v[i]);
        break;
    }
    }
}

static void put_fields(writer *w, const wire_field *t, size_t n, const void *base)
{
    for (size_t i = 0; i < n; i++)
        put_field(w, &t[i], base);
}

static size_t encode(const sim_board *b, const sim_limits *lim, bool want_trace, uint8_t *out,
                     size_t cap, bool blank_ids)
{
    writer w = {out, out ? cap : 0, 0, blank_ids};
    sim_wire_request req;
    memset(&req, 0, sizeof req);
    req.limits = lim ? *lim : sim_limits_default();
    req.want_trace = want_trace;
    put(&w, board_magic, sizeof board_magic);
    put_var(&w, sim_wire_version());
    put_fields(&w, request_fields, COUNT(request_fields), &req);
    put_fields(&w, board_fields, COUNT(board_fields), b);
    size_t np = b->parts ? b->n_parts : 0, nl = b->links ? b->n_links : 0;
    put_var(&w, np);
    for (size_t i = 0; i < np; i++)
        put_fields(&w, part_fields, COUNT(part_fields), &b->parts[i]);
    put_var(&w, nl);
    for (size_t i = 0; i < nl; i++)
        put_fields(&w, link_fields, COUNT(link_fields), &b->links[i]);
    /* goals: a flags byte per measure (1 max, 2 min), then the bounds set */
    put_var(&w, SIM_M_COUNT);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &b->goals[m];
        put_u8(&w, (g->has_max ? 1u : 0u) | (g->has_min ? 2u : 0u));
        if (g->has_max)
            put_real(&w, g->max);
        if (g->has_min)
            put_real(&w, g->min);
    }
    return w.len;
}

size_t sim_wire_encode(const sim_board *b, const sim_limits *lim, bool want_trace, uint8_t *out,
                       size_t cap)
{
    return encode(b, lim, want_trace, out, cap, false);
}

size_t sim_wire_encode_blank(const sim_board *b, const sim_limits *lim, bool want_trace,
                             uint8_t *out, size_t cap)
{
    return encode(b, lim, want_trace, out, cap, true);
}

/* ------------------------------------------------------------------ reading */

typedef struct {
    const uint8_t *p;
    size_t len, pos;
    size_t at; /* where the value being read starts, for messages */
    char *msg;
    size_t n;
    const char *where; /* "header", "the board", "part", "link", "goals" */
    size_t index;      /* 1-based part or link number, 0 for none */
} reader;

static int bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(reader *r, const char *fmt, ...)
{
    if (r->msg && r->n) {
        char what[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        if (r->index)
            snprintf(r->msg, r->n, "bad board bytes at byte %zu (%s %zu): %s", r->at, r->where,
                     r->index, what);
        else
            snprintf(r->msg, r->n, "bad board bytes at byte %zu (%s): %s", r->at, r->where, what);
    }
    return -1;
}

static size_t left(const reader *r)
{
    return r->len - r->pos;
}

static int get_u8(reader *r, const char *what, unsigned *v)
{
    if (left(r) < 1)
        return bad(r, "the bytes end inside %s", what);
    *v = r->p[r->pos++];
    return 0;
}

/* A varint in its one shortest form, at most 64 bits. */
static int get_var(reader *r, const char *what, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        unsigned b = 0;
        if (get_u8(r, what, &b) != 0)
            return -1;
        if (shift == 63 && b > 1)
            return bad(r, "%s does not fit in 64 bits", what);
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            if (b == 0 && shift > 0)
                return bad(r, "%s is not in its shortest form", what);
            *v = x;
            return 0;
        }
    }
}

static int get_zig(reader *r, const char *what, int64_t *v)
{
    uint64_t u;
    if (get_var(r, what, &u) != 0)
        return -1;
    uint64_t x = (u >> 1) ^ (0 - (u & 1));
    memcpy(v, &x, sizeof *v); /* two's complement, as put_zig wrote it */
    return 0;
}

static int get_real(reader *r, const char *what, double *d)
{
    uint64_t u;
    if (get_var(r, what, &u) != 0)
        return -1;
    u = reverse_bytes(u);
    memcpy(d, &u, sizeof *d);
    return 0;
}

/* A count of records of at least min_bytes each: never more than the bytes
 * left could hold, so a hostile count cannot make the decoder allocate. */
static int get_count(reader *r, const char *what, size_t min_bytes, size_t *n)
{
    uint64_t v;
    r->at = r->pos;
    if (get_var(r, what, &v) != 0)
        return -1;
    if (v > left(r) / min_bytes)
        return bad(r, "%s says %llu, more than the %zu bytes left can hold", what,
                   (unsigned long long)v, left(r));
    *n = (size_t)v;
    return 0;
}

static int get_field(reader *r, const wire_field *f, void *base)
{
    char *p = (char *)base + f->at;
    const char *what = f->name ? f->name : "a field";
    uint64_t u;
    int64_t s;
    r->at = r->pos;
    switch (f->type) {
    case W_BOOL: {
        unsigned b = 0;
        if (get_u8(r, what, &b) != 0)
            return -1;
        if (b > 1)
            return bad(r, "%s is %u, not 0 or 1", what, b);
        bool v = b == 1;
        memcpy(p, &v, sizeof v);
        return 0;
    }
    case W_INT: {
        if (get_zig(r, what, &s) != 0)
            return -1;
        if (s < INT_MIN || s > INT_MAX)
            return bad(r, "%s is %lld, out of range", what, (long long)s);
        int v = (int)s;
        memcpy(p, &v, sizeof v);
        return 0;
    }
    case W_ENUM: {
        if (get_var(r, what, &u) != 0)
            return -1;
        if (u >= f->values)
            return bad(r, "%s is %llu; it has %u values", what, (unsigned long long)u, f->values);
        unsigned v = (unsigned)u;
        memcpy(p, &v, sizeof v);
        return 0;
    }
    case W_I64:
        if (get_zig(r, what, &s) != 0)
            return -1;
        memcpy(p, &s, sizeof s);
        return 0;
    case W_U64:
        if (get_var(r, what, &u) != 0)
            return -1;
        memcpy(p, &u, sizeof u);
        return 0;
    case W_SIZE: {
        if (get_var(r, what, &u) != 0)
            return -1;
#if SIZE_MAX < UINT64_MAX
        if (u > SIZE_MAX)
            return bad(r, "%s is %llu, too large here", what, (unsigned long long)u);
#endif
        size_t v = (size_t)u;
        memcpy(p, &v, sizeof v);
        return 0;
    }
    case W_F64: {
        double d;
        if (get_real(r, what, &d) != 0)
            return -1;
        memcpy(p, &d, sizeof d);
        return 0;
    }
    case W_ID: {
        if (get_var(r, what, &u) != 0)
            return -1;
        char *str = NULL;
        if (u > 0) {
            if (u - 1 > left(r))
                return bad(r, "%s is %llu bytes long; %zu are left", what,
                           (unsigned long long)(u - 1), left(r));
            size_t n = (size_t)(u - 1);
            if (memchr(r->p + r->pos, '\0', n))
                return bad(r, "%s holds a NUL byte", what);
            str = malloc(n + 1);
            if (!str)
                return bad(r, "not enough memory for %s", what);
            memcpy(str, r->p + r->pos, n);
            str[n] = '\0';
            r->pos += n;
        }
        const char *v = str;
        memcpy(p, &v, sizeof v);
        return 0;
    }
    case W_JOBS: {
        size_t n;
        if (get_count(r, what, 1, &n) != 0)
            return -1;
        int64_t *v = n ? malloc(n * sizeof *v) : NULL;
        if (n && !v)
            return bad(r, "not enough memory for %s", what);
        /* stored first, so sim_wire_request_free finds it whatever follows */
        const int64_t *cv = v;
        memcpy(p, &cv, sizeof cv);
        for (size_t i = 0; i < n; i++)
            if (get_zig(r, what, &v[i]) != 0)
                return -1;
        memcpy((char *)base + f->at_n, &n, sizeof n);
        return 0;
    }
    }
    return bad(r, "unknown field type");
}

static int get_fields(reader *r, const wire_field *t, size_t n, void *base)
{
    for (size_t i = 0; i < n; i++)
        if (get_field(r, &t[i], base) != 0)
            return -1;
    return 0;
}

static int get_goals(reader *r, sim_goal *goals)
{
    uint64_t count;
    r->at = r->pos;
    if (get_var(r, "the number of measures", &count) != 0)
        return -1;
    if (count != SIM_M_COUNT)
        return bad(r, "goals for %llu measures; the simulator has %d", (unsigned long long)count,
                   SIM_M_COUNT);
    for (int m = 0; m < SIM_M_COUNT; m++) {
#ifdef SIM_TERSE_CHECKS
        const char *name = "a goal";
#else
        const char *name = sim_measure_name((sim_measure)m);
#endif
        sim_goal *g = &goals[m];
        unsigned flags = 0;
        r->at = r->pos;
        if (get_u8(r, name, &flags) != 0)
            return -1;
        if (flags > 3)
            return bad(r, "the goal flags of %s are %u; only 1 (max) and 2 (min) exist", name,
                       flags);
        g->has_max = flags & 1;
        g->has_min = (flags & 2) != 0;
        if (g->has_max && get_real(r, name, &g->max) != 0)
            return -1;
        if (g->has_min && get_real(r, name, &g->min) != 0)
            return -1;
    }
    return 0;
}

static int decode(reader *r, sim_wire_request *req)
{
    sim_board *b = &req->board;
    r->where = "header";
    if (left(r) < sizeof board_magic || memcmp(r->p, board_magic, sizeof board_magic) != 0)
        return bad(r, "not a boardpress board encoding (it starts with \"BPSW\")");
    r->pos = r->at = sizeof board_magic;
    uint64_t version;
    if (get_var(r, "the version", &version) != 0)
        return -1;
    if (version != sim_wire_version())
        return bad(r, "the board encoding is version %llu; this simulator reads version %llu",
                   (unsigned long long)version, (unsigned long long)sim_wire_version());
    r->where = "limits";
    if (get_fields(r, request_fields, COUNT(request_fields), req) != 0)
        return -1;
    r->where = "the board";
    if (get_fields(r, board_fields, COUNT(board_fields), b) != 0)
        return -1;

    /* every field takes at least a byte */
    if (get_count(r, "the number of parts", COUNT(part_fields), &b->n_parts) != 0)
        return -1;
    b->parts = b->n_parts ? calloc(b->n_parts, sizeof *b->parts) : NULL;
    if (b->n_parts && !b->parts) {
        b->n_parts = 0;
        return bad(r, "not enough memory for the parts");
    }
    r->where = "part";
    for (size_t i = 0; i < b->n_parts; i++) {
        r->index = i + 1;
        if (get_fields(r, part_fields, COUNT(part_fields), &b->parts[i]) != 0)
            return -1;
    }
    r->where = "the board";
    r->index = 0;
    if (get_count(r, "the number of links", COUNT(link_fields), &b->n_links) != 0)
        return -1;
    b->links = b->n_links ? calloc(b->n_links, sizeof *b->links) : NULL;
    if (b->n_links && !b->links) {
        b->n_links = 0;
        return bad(r, "not enough memory for the links");
    }
    r->where = "link";
    for (size_t i = 0; i < b->n_links; i++) {
        r->index = i + 1;
        if (get_fields(r, link_fields, COUNT(link_fields), &b->links[i]) != 0)
            return -1;
    }
    r->where = "goals";
    r->index = 0;
    if (get_goals(r, b->goals) != 0)
        return -1;
    r->where = "the end";
    r->at = r->pos;
    if (left(r) > 0)
        return bad(r, "the board ends here, but %zu more byte(s) follow", left(r));
    return 0;
}

int sim_wire_decode(const uint8_t *in, size_t len, sim_wire_request *req, char *msg, size_t n)
{
    memset(req, 0, sizeof *req);
    if (msg && n)
        msg[0] = '\0';
    reader r = {in, in ? len : 0, 0, 0, msg, n, "header", 0};
    if (decode(&r, req) == 0)
        return 0;
    sim_wire_request_free(req);
    return -1;
}

void sim_wire_request_free(sim_wire_request *req)
{
    if (!req)
        return;
    sim_board *b = &req->board;
    for (size_t i = 0; b->parts && i < b->n_parts; i++)
        free((void *)(uintptr_t)b->parts[i].id);
    for (size_t i = 0; b->links && i < b->n_links; i++)
        free((void *)(uintptr_t)b->links[i].lose_reply_of);
    free(b->parts);
    free(b->links);
    free((void *)(uintptr_t)b->id);
    memset(req, 0, sizeof *req);
}

/* ------------------------------------------------------------------ results */

size_t sim_wire_result_encode(const sim_result *r, uint8_t *out, size_t cap)
{
    writer w = {out, out ? cap : 0, 0, false};
    size_t nt = r->trace ? r->n_trace : 0;
    put(&w, result_magic, sizeof result_magic);
    put_le(&w, SIM_WIRE_RESULT_VERSION, 4);
    put_le(&w, SIM_M_COUNT, 4);
    put_le(&w, (uint32_t)r->replications, 4);
    put_le(&w,
           (r->all_goals_pass ? 1u : 0u) | (r->expect_ok ? 2u : 0u) |
               (r->trace_truncated ? 4u : 0u) | (r->deterministic ? 8u : 0u) |
               (r->until_met ? 16u : 0u),
           4);
    put_le(&w, nt, 4);
    put_le(&w, (uint64_t)r->latency_samples, 8);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        put_f64(&w, r->m[m].mean);
        put_f64(&w, r->m[m].min);
        put_f64(&w, r->m[m].max);
        put_f64(&w, r->m[m].ci95);
    }
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal_result *g = &r->goals[m];
        put_f64(&w, g->worst);
        put_le(&w, (g->present ? 1u : 0u) | (g->pass ? 2u : 0u), 4);
        put_le(&w, 0, 4);
    }
    for (size_t i = 0; i < nt; i++) {
        const sim_trace_entry *e = &r->trace[i];
        put_le(&w, (uint64_t)e->t_us, 8);
        put_le(&w, (uint64_t)e->job, 8);
        put_le(&w, (uint64_t)e->detail, 8);
        put_le(&w, (uint32_t)e->kind, 4);
        put_le(&w, (uint32_t)e->part, 4);
        put_le(&w, (uint32_t)e->peer, 4);
        put_le(&w, (uint32_t)e->copy, 4);
    }
    return w.len;
}

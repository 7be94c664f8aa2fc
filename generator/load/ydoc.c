/* ydoc.c — libyaml's event stream turned into a ynode tree, with the input
 * restrictions of yaml.h enforced on the events (so a hostile document is
 * stopped before it costs anything: libyaml 0.2.5 is quadratic in flow
 * nesting, and a tree walker could be made to visit aliases 10^8 times). */
#include "load/ydoc.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static void add_kid(ynode *parent, ynode *kid)
{
    parent->kids = xgrow(parent->kids, sizeof *parent->kids, &parent->cap, parent->n + 1);
    parent->kids[parent->n++] = kid;
}

static ynode *new_node(yn_type t, int line, int col)
{
    ynode *n = xcalloc(1, sizeof *n);
    n->type = t;
    n->line = line;
    n->col = col;
    return n;
}

ynode *yaml_parse_named(const char *path, const char *text, size_t len, const char *what, diag *d)
{
    bool empty = false;
    ynode *root = yaml_parse(path, text, len, 0, d, &empty);
    if (!root && empty)
        diag_error(d, path, 1, 1, "the %s file is empty", what);
    return root;
}

ynode *yaml_load(const char *path, const char *what, diag *d)
{
    char *text;
    size_t len;
    if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0) {
        char *the = xasprintf("the %s", what);
        diag_read_error(d, path, 0, 0, path, the, errno, BP_MAX_FILE_BYTES);
        free(the);
        return NULL;
    }
    ynode *root = yaml_parse_named(path, text, len, what, d);
    free(text);
    return root;
}

void ynode_free(ynode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++)
        ynode_free(n->kids[i]);
    free(n->kids);
    free(n->s);
    free(n);
}

ynode *ynode_clone(const ynode *n)
{
    if (!n)
        return NULL;
    ynode *c = xmalloc(sizeof *c);
    *c = *n;
    c->s = n->s ? xstrndup(n->s, n->len) : NULL;
    c->kids = n->n ? xmalloc(n->n * sizeof *c->kids) : NULL;
    c->cap = n->n;
    for (size_t i = 0; i < n->n; i++)
        c->kids[i] = ynode_clone(n->kids[i]);
    return c;
}

ynode *ynode_new_scalar(const char *s, int line, int col)
{
    ynode *n = new_node(YN_SCALAR, line, col);
    n->s = xstrdup(s);
    n->len = strlen(s);
    n->plain = true;
    return n;
}

ynode *ynode_new_map(int line, int col)
{
    return new_node(YN_MAP, line, col);
}

ynode *ymap_get(const ynode *map, const char *key)
{
    if (!map || map->type != YN_MAP)
        return NULL;
    for (size_t i = 0; i + 1 < map->n; i += 2)
        if (strcmp(map->kids[i]->s, key) == 0)
            return map->kids[i + 1];
    return NULL;
}

void ymap_set(ynode *map, const char *key, ynode *value, int line, int col)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        if (strcmp(map->kids[i]->s, key) == 0) {
            ynode_free(map->kids[i + 1]);
            map->kids[i + 1] = value;
            return;
        }
    }
    add_kid(map, ynode_new_scalar(key, line, col));
    add_kid(map, value);
}

const char *ynode_kind(const ynode *n)
{
    switch (n->type) {
    case YN_SCALAR:
        return "a value";
    case YN_SEQ:
        return "a list";
    case YN_MAP:
        return "a mapping";
    }
    return "a node";
}

typedef struct {
    const char *path;
    int line_offset;
    diag *d;
    ynode *stack[YAML_MAX_DEPTH + 1];
    strset keys[YAML_MAX_DEPTH + 1]; /* keys of each open mapping: duplicates in O(1) */
    int depth;
    size_t nodes;
    ynode *root;
    int documents;
} builder;

static void err_at(builder *b, yaml_mark_t m, const char *msg)
{
    diag_error(b->d, b->path, (int)m.line + 1 + b->line_offset, (int)m.column + 1, "%s", msg);
}

/* Attach a finished node to the current container; checks duplicate keys. */
static int attach(builder *b, ynode *n)
{
    if (b->depth == 0) {
        b->root = n;
        return 0;
    }
    ynode *parent = b->stack[b->depth - 1];
    if (parent->type == YN_MAP && parent->n % 2 == 0) {
        if (n->type != YN_SCALAR) {
            diag_error(b->d, b->path, n->line, n->col, "a mapping key must be plain text, not %s",
                       ynode_kind(n));
            ynode_free(n);
            return -1;
        }
        /* A set, not a scan of the keys so far: a 1 MiB file of 100,000
         * keys would otherwise cost 5·10^9 comparisons. */
        if (!strset_add(&b->keys[b->depth - 1], n->s)) {
            int first = 0;
            for (size_t i = 0; i < parent->n && !first; i += 2)
                if (strcmp(parent->kids[i]->s, n->s) == 0)
                    first = parent->kids[i]->line;
            diag_error(b->d, b->path, n->line, n->col,
                       "duplicate key '%s' (first given at line %d)", n->s, first);
            ynode_free(n);
            return -1;
        }
    }
    add_kid(parent, n);
    return 0;
}

/* The byte a mark points at. libyaml counts marks in characters, so the
 * byte offset is found from the line and column. */
static size_t mark_byte(const char *text, size_t len, yaml_mark_t m)
{
    size_t i = 0;
    for (size_t line = 0; line < m.line && i < len; i++)
        if (text[i] == '\n')
            line++;
    for (size_t col = 0; col < m.column && i < len; col++) {
        i++;
        while (i < len && ((unsigned char)text[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

/* The character at a mark, for messages ("found ']'"); '\0' past the end. */
static char char_at(const char *text, size_t len, yaml_mark_t m)
{
    size_t i = mark_byte(text, len, m);
    return i < len ? text[i] : '\0';
}

/* A mark for a byte offset (reader errors give only the offset). */
static yaml_mark_t mark_of_byte(const char *text, size_t len, size_t off)
{
    yaml_mark_t m = {0, 0, 0};
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            m.line++;
            m.column = 0;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            m.column++;
        }
    }
    m.index = off;
    return m;
}

/* libyaml's problem as a sentence that says what to do, and where it is:
 * an unclosed '[', '{' or quote is reported where it opens, not where the
 * parser gave up. */
static void describe_problem(const yaml_parser_t *p, const char *text, size_t len, int line_offset,
                             yaml_mark_t *at, char *msg, size_t n)
{
    const char *problem = p->problem ? p->problem : "syntax error";
    const char *context = p->context ? p->context : "";
    *at = p->problem_mark;
    char c = char_at(text, len, p->problem_mark);
    char found[32];
    if (c == '\0')
        snprintf(found, sizeof found, "the end of the file");
    else if (c == '\n' || c == '\r')
        snprintf(found, sizeof found, "the end of the line");
    else if ((unsigned char)c < 0x80)
        snprintf(found, sizeof found, "'%c'", c);
    else
        snprintf(found, sizeof found, "a non-ASCII character");
    int line = (int)p->problem_mark.line + 1 + line_offset, col = (int)p->problem_mark.column + 1;

    if (p->error == YAML_READER_ERROR) {
        *at = mark_of_byte(text, len, p->problem_offset);
        if (p->problem_value >= 0)
            snprintf(msg, n, "%s (byte 0x%02x)", problem, p->problem_value);
        else
            snprintf(msg, n, "%s", problem);
    } else if (strstr(problem, "tab character") || c == '\t') {
        snprintf(msg, n, "tab character: YAML is indented with spaces, not tabs");
    } else if (strcmp(problem, "found character that cannot start any token") == 0) {
        if (c == '`' || c == '@')
            snprintf(msg, n, "a value cannot start with '`' or '@'; put it in quotes");
        else
            snprintf(msg, n, "unexpected character; put the value in quotes");
    } else if (strstr(context, "flow sequence") || strstr(context, "flow mapping")) {
        bool seq = strstr(context, "flow sequence") != NULL;
        *at = p->context_mark;
        snprintf(msg, n,
                 "'%c' is not closed with '%c' (the parser expected ',' or '%c' at line %d, "
                 "column %d, and found %s)",
                 seq ? '[' : '{', seq ? ']' : '}', seq ? ']' : '}', line, col, found);
    } else if (strstr(context, "quoted scalar")) {
        *at = p->context_mark;
        char q = char_at(text, len, p->context_mark);
        if (strstr(problem, "end of stream"))
            snprintf(msg, n, "quoted value is not closed: no closing %c before the end of the file",
                     q == '\'' ? '\'' : '"');
        else if (strstr(problem, "unknown escape")) {
            *at = p->problem_mark;
            size_t bi = mark_byte(text, len, p->problem_mark) + 1;
            char e = bi < len && (unsigned char)text[bi] >= 0x20 && (unsigned char)text[bi] < 0x7f
                         ? text[bi]
                         : '?';
            snprintf(msg, n,
                     "unknown escape '\\%c' in a double-quoted value; write '\\\\' for a "
                     "backslash, or use single quotes",
                     e);
        } else {
            *at = p->problem_mark;
            snprintf(msg, n, "%s in a quoted value", problem);
        }
    } else if (strstr(problem, "could not find expected ':'")) {
        *at = p->context_mark;
        snprintf(msg, n, "expected 'key: value' here, but the line has no ':' after its key");
    } else if (strstr(problem, "mapping values are not allowed")) {
        snprintf(msg, n,
                 "unexpected ':' here: put a value that contains ': ' in quotes, or check "
                 "this line's indentation");
    } else if (strstr(problem, "did not find expected key")) {
        snprintf(msg, n, "expected the next 'key: value' here, found %s; check the indentation",
                 found);
    } else if (strstr(problem, "did not find expected '-' indicator")) {
        snprintf(msg, n,
                 "expected the next list item ('- ...') here, found %s; check the "
                 "indentation",
                 found);
    } else if (p->context) {
        snprintf(msg, n, "%s %s", problem, p->context);
    } else {
        snprintf(msg, n, "%s", problem);
    }
}

ynode *yaml_parse(const char *path, const char *text, size_t len, int line_offset, diag *d,
                  bool *empty)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.path = path;
    b.line_offset = line_offset;
    b.d = d;
    if (empty)
        *empty = false;
    size_t mark = diag_mark(d);

    size_t bad_at;
    if (!utf8_valid(text, len, &bad_at)) {
        int line, col;
        text_pos(text, bad_at, &line, &col);
        diag_error(d, path, line + line_offset, col, "%s",
                   text[bad_at] == '\0' ? "NUL byte in text (is this a UTF-16 or binary file?)"
                                        : "invalid UTF-8 (files must be UTF-8 encoded)");
        return NULL;
    }

    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        diag_error(d, path, 0, 0, "cannot start the YAML parser");
        return NULL;
    }
    yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);

    bool done = false;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            char msg[320];
            yaml_mark_t m;
            describe_problem(&p, text, len, line_offset, &m, msg, sizeof msg);
            err_at(&b, m, msg);
            break;
        }
        yaml_mark_t m = ev.start_mark;
        int line = (int)m.line + 1 + line_offset, col = (int)m.column + 1;
        ynode *n = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++b.documents > 1) {
                err_at(&b, m, "only one YAML document is allowed here (found a second '---')");
                done = true;
            }
            break;
        case YAML_ALIAS_EVENT:
            err_at(&b, m, "aliases ('*name') are not supported; write the value out");
            done = true;
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            const yaml_char_t *anchor = ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
                                        : ev.type == YAML_SEQUENCE_START_EVENT
                                            ? ev.data.sequence_start.anchor
                                            : ev.data.mapping_start.anchor;
            const yaml_char_t *tag = ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.tag
                                     : ev.type == YAML_SEQUENCE_START_EVENT
                                         ? ev.data.sequence_start.tag
                                         : ev.data.mapping_start.tag;
            if (anchor) {
                err_at(&b, m, "anchors ('&name') are not supported; write the value out");
                done = true;
                break;
            }
            if (tag) {
                char msg[300];
                snprintf(msg, sizeof msg, "tag '%.200s' is not supported; remove it",
                         (const char *)tag);
                err_at(&b, m, msg);
                done = true;
                break;
            }
            if (++b.nodes > YAML_MAX_NODES) {
                err_at(&b, m, "too many values in one file (limit 200000)");
                done = true;
                break;
            }
            if (ev.type == YAML_SCALAR_EVENT) {
                n = new_node(YN_SCALAR, line, col);
                n->s = xstrndup((const char *)ev.data.scalar.value, ev.data.scalar.length);
                n->len = ev.data.scalar.length;
                n->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
                if (strlen(n->s) != n->len) {
                    err_at(&b, m, "NUL character in a value");
                    ynode_free(n);
                    done = true;
                    break;
                }
                unsigned cp;
                if (text_control_at(n->s, n->len, &cp) < n->len) {
                    /* only an escape gets one past libyaml ("\x01", "\e") */
                    char msg[160];
                    snprintf(msg, sizeof msg,
                             "control character U+%04X in a value (from an escape in double "
                             "quotes?); text may not hold one: remove it",
                             cp);
                    err_at(&b, m, msg);
                    ynode_free(n);
                    done = true;
                    break;
                }
                if (attach(&b, n) != 0)
                    done = true;
                break;
            }
            if (b.depth >= YAML_MAX_DEPTH) {
                err_at(&b, m, "nesting deeper than 64 levels");
                done = true;
                break;
            }
            n = new_node(ev.type == YAML_MAPPING_START_EVENT ? YN_MAP : YN_SEQ, line, col);
            b.stack[b.depth++] = n;
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            n = b.stack[--b.depth];
            b.stack[b.depth] = NULL;
            strset_free(&b.keys[b.depth]);
            if (attach(&b, n) != 0)
                done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);

    /* Containers on the stack are not attached to anything until they end. */
    for (int i = 0; i < b.depth; i++) {
        ynode_free(b.stack[i]);
        strset_free(&b.keys[i]);
    }
    if (diag_failed_since(d, mark)) {
        ynode_free(b.root);
        return NULL;
    }
    if (!b.root && empty)
        *empty = true;
    return b.root;
}

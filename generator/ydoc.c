/* ydoc.c — libyaml's event stream turned into a ynode tree, with the input
 * restrictions of yaml.h enforced on the events (so a hostile document is
 * stopped before it costs anything: libyaml 0.2.5 is quadratic in flow
 * nesting, and a tree walker could be made to visit aliases 10^8 times). */
#include "ydoc.h"
#include "util.h"

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

/* 1-based line and character column of byte offset off in text. */
static void pos_of(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

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

static const char *parser_problem(const yaml_parser_t *p, char *tmp, size_t n)
{
    const char *problem = p->problem ? p->problem : "syntax error";
    if (p->problem_value >= 0 && p->error == YAML_READER_ERROR) {
        snprintf(tmp, n, "%s (byte 0x%02x)", problem, p->problem_value);
        return tmp;
    }
    if (strcmp(problem, "found character that cannot start any token") == 0 ||
        strcmp(problem, "found a tab character that violates indentation") == 0 ||
        strcmp(problem, "found a tab character where an indentation space is expected") == 0)
        return NULL; /* the caller looks at the character */
    if (p->context) {
        snprintf(tmp, n, "%s %s", problem, p->context);
        return tmp;
    }
    return problem;
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
    int errors_before = d->errors;

    size_t bad_at;
    if (!utf8_valid(text, len, &bad_at)) {
        int line, col;
        pos_of(text, bad_at, &line, &col);
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
            char tmp[256];
            const char *msg = parser_problem(&p, tmp, sizeof tmp);
            yaml_mark_t m = p.problem_mark;
            if (!msg) {
                char c = m.index < len ? text[m.index] : '\0';
                if (c == '\t')
                    msg = "tab character: YAML is indented with spaces, not tabs";
                else if (c == '`' || c == '@')
                    msg = "a value cannot start with '`' or '@'; put it in quotes";
                else
                    msg = "unexpected character; put the value in quotes";
            }
            if (p.error == YAML_READER_ERROR && p.problem_offset <= len) {
                /* the reader marks its problem by byte offset only */
                int line, col;
                pos_of(text, p.problem_offset, &line, &col);
                diag_error(d, path, line + line_offset, col, "%s", msg);
            } else {
                err_at(&b, m, msg);
            }
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
    if (d->errors != errors_before) {
        ynode_free(b.root);
        return NULL;
    }
    if (!b.root && empty)
        *empty = true;
    return b.root;
}

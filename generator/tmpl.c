/* tmpl.c — a small logic-light template engine (see tmpl.h), parsed once
 * per build into a node tree and rendered per page. */
#include "tmpl.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define TMPL_MAX_DEPTH 16 /* partial nesting */

typedef enum { TN_TEXT, TN_VAR, TN_PARTIAL, TN_IF, TN_EACH } tn_type;

typedef struct tnode {
    tn_type type;
    char *s; /* text, or variable / list name */
    size_t len;
    int line, col;
    const char *path;   /* template file (owned by the tmpl) */
    bool reported;      /* unknown-variable error already given */
    tmpl *partial;      /* TN_PARTIAL */
    struct tnode *body; /* TN_IF then-part, TN_EACH body */
    size_t n_body;
    struct tnode *alt; /* TN_IF else-part */
    size_t n_alt;
} tnode;

struct tmpl {
    char *path;
    tnode *nodes;
    size_t n;
};

typedef enum { TV_TEXT, TV_HTML, TV_LIST } tv_type;

typedef struct {
    char *name;
    tv_type type;
    char *s;
    tmpl_scope **items;
    size_t n_items, cap_items;
    /* a lazy list: n_items items made one at a time while rendering */
    tmpl_fill_fn fill;
    void *fill_ctx;
    const tmpl_scope *owner; /* the scope the variable belongs to */
} tvar;

struct tmpl_scope {
    const tmpl_scope *parent;
    tvar *vars;
    size_t n, cap;
};

/* ------------------------------------------------------------ scopes */

tmpl_scope *tmpl_scope_new(const tmpl_scope *parent)
{
    tmpl_scope *s = xcalloc(1, sizeof *s);
    s->parent = parent;
    return s;
}

void tmpl_scope_free(tmpl_scope *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->vars[i].name);
        free(s->vars[i].s);
        for (size_t k = 0; k < s->vars[i].n_items && !s->vars[i].fill; k++)
            tmpl_scope_free(s->vars[i].items[k]);
        free(s->vars[i].items);
    }
    free(s->vars);
    free(s);
}

static tvar *own_var(tmpl_scope *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->vars[i].name, name) == 0)
            return &s->vars[i];
    if (s->n == s->cap) { /* list items hold a few variables: start small */
        s->cap = s->cap ? s->cap * 2 : 4;
        s->vars = xrealloc(s->vars, s->cap * sizeof *s->vars);
    }
    tvar *v = &s->vars[s->n++];
    memset(v, 0, sizeof *v);
    v->name = xstrdup(name);
    v->owner = s;
    return v;
}

static void set_str(tmpl_scope *s, const char *name, const char *value, tv_type t)
{
    tvar *v = own_var(s, name);
    free(v->s);
    v->s = xstrdup(value ? value : "");
    v->type = t;
}

void tmpl_set_text(tmpl_scope *s, const char *name, const char *value)
{
    set_str(s, name, value, TV_TEXT);
}

void tmpl_set_html(tmpl_scope *s, const char *name, const char *value)
{
    set_str(s, name, value, TV_HTML);
}

void tmpl_list_declare(tmpl_scope *s, const char *name)
{
    own_var(s, name)->type = TV_LIST;
}

void tmpl_list_lazy(tmpl_scope *s, const char *name, size_t n, tmpl_fill_fn fill, void *ctx)
{
    tvar *v = own_var(s, name);
    for (size_t k = 0; k < v->n_items; k++)
        tmpl_scope_free(v->items[k]);
    free(v->items);
    v->items = NULL;
    v->cap_items = 0;
    v->type = TV_LIST;
    v->n_items = n;
    v->fill = fill;
    v->fill_ctx = ctx;
}

tmpl_scope *tmpl_list_add(tmpl_scope *s, const char *name)
{
    tvar *v = own_var(s, name);
    v->type = TV_LIST;
    if (v->fill) { /* items added to a lazy list: it becomes a plain one */
        v->fill = NULL;
        v->n_items = 0;
    }
    v->items = xgrow(v->items, sizeof *v->items, &v->cap_items, v->n_items + 1);
    tmpl_scope *item = tmpl_scope_new(s);
    v->items[v->n_items++] = item;
    return item;
}

/* What a name can mean while rendering: the scope given to tmpl_render
 * (with its parents), and inside {{#each}} the item, then whatever the
 * enclosing frame sees. An item's own parent is the scope holding the list,
 * which the enclosing frame already sees; walking frames instead means an
 * {{#each}} nested in another still sees the outer item. */
typedef struct frame {
    const tmpl_scope *scope;
    const struct frame *up; /* NULL for the outermost frame */
} frame;

/* The scopes a frame searches, in order: an item frame its own scope only,
 * the outermost frame its whole parent chain. Call with s = NULL first. */
static const tmpl_scope *frame_next(const frame **f, const tmpl_scope *s)
{
    if (s && !(*f)->up && s->parent)
        return s->parent;
    if (s)
        *f = (*f)->up;
    return *f ? (*f)->scope : NULL;
}

static const tvar *lookup(const frame *f, const char *name)
{
    for (const tmpl_scope *s = frame_next(&f, NULL); s; s = frame_next(&f, s))
        for (size_t i = 0; i < s->n; i++)
            if (strcmp(s->vars[i].name, name) == 0)
                return &s->vars[i];
    return NULL;
}

/* ------------------------------------------------------------ parsing */

typedef struct {
    const char *dir;
    const char *path;
    const char *text;
    size_t len, pos;
    int line, col;
    diag *d;
    int errors;
    int depth;               /* partial nesting */
    const char **chain;      /* partial names being loaded, for cycles */
    int stop_line, stop_col; /* where the closing tag that ended parse_nodes starts */
} parser;

static void advance(parser *p, size_t n)
{
    for (size_t i = 0; i < n && p->pos < p->len; i++, p->pos++) {
        if (p->text[p->pos] == '\n') {
            p->line++;
            p->col = 1;
        } else if (((unsigned char)p->text[p->pos] & 0xC0) != 0x80) {
            p->col++;
        }
    }
}

static void free_nodes(tnode *n, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(n[i].s);
        tmpl_free(n[i].partial);
        free_nodes(n[i].body, n[i].n_body);
        free_nodes(n[i].alt, n[i].n_alt);
    }
    free(n);
}

static bool valid_name(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return true;
}

static tmpl *load_partial(parser *p, const char *name, int line, int col);

/* Parse nodes until end of text or a closing tag; *stop gets "else",
 * "/if", "/each" or NULL at the end. */
static tnode *parse_nodes(parser *p, size_t *count, const char **stop)
{
    tnode *nodes = NULL;
    size_t n = 0, cap = 0;
    *stop = NULL;
    while (p->pos < p->len) {
        const char *open = strstr(p->text + p->pos, "{{");
        size_t text_end = open ? (size_t)(open - p->text) : p->len;
        if (text_end > p->pos) {
            nodes = xgrow(nodes, sizeof *nodes, &cap, n + 1);
            tnode *t = &nodes[n++];
            memset(t, 0, sizeof *t);
            t->type = TN_TEXT;
            t->s = xstrndup(p->text + p->pos, text_end - p->pos);
            t->len = text_end - p->pos;
            advance(p, text_end - p->pos);
        }
        if (!open)
            break;
        int line = p->line, col = p->col;
        const char *close = strstr(open + 2, "}}");
        if (!close) {
            diag_error(p->d, p->path, line, col, "unterminated '{{' in template");
            p->errors++;
            advance(p, p->len - p->pos);
            break;
        }
        const char *in = open + 2, *end = close;
        while (in < end && *in == ' ')
            in++;
        while (end > in && end[-1] == ' ')
            end--;
        size_t in_len = (size_t)(end - in);
        advance(p, (size_t)(close + 2 - open));
        char sigil = in_len ? in[0] : '\0';
        if (sigil == '!')
            continue;
        if (sigil == '/' || (in_len == 4 && memcmp(in, "else", 4) == 0)) {
            *stop = in_len == 4 && memcmp(in, "else", 4) == 0    ? "else"
                    : in_len == 3 && memcmp(in, "/if", 3) == 0   ? "/if"
                    : in_len == 5 && memcmp(in, "/each", 5) == 0 ? "/each"
                                                                 : "?";
            if (**stop == '?') {
                diag_error(p->d, p->path, line, col, "unknown closing tag '%.*s'", (int)in_len, in);
                p->errors++;
            }
            p->stop_line = line;
            p->stop_col = col;
            break;
        }
        const char *name = in;
        size_t name_len = in_len;
        tn_type type = TN_VAR;
        if (sigil == '>' || sigil == '#') {
            name = in + 1;
            while (*name == ' ')
                name++;
            if (sigil == '>') {
                type = TN_PARTIAL;
            } else if (strncmp(name, "if ", 3) == 0) {
                type = TN_IF;
                name += 3;
            } else if (strncmp(name, "each ", 5) == 0) {
                type = TN_EACH;
                name += 5;
            } else {
                diag_error(
                    p->d, p->path, line, col,
                    "unknown block '{{#%.*s}}' (expected '{{#if NAME}}' or '{{#each NAME}}')",
                    (int)(end - name), name);
                p->errors++;
                continue;
            }
            while (*name == ' ')
                name++;
            name_len = (size_t)(end - name);
        }
        if (!valid_name(name, name_len)) {
            diag_error(p->d, p->path, line, col, "'{{ %.*s }}' is not a template variable name",
                       (int)in_len, in);
            p->errors++;
            continue;
        }
        nodes = xgrow(nodes, sizeof *nodes, &cap, n + 1);
        tnode *t = &nodes[n++];
        memset(t, 0, sizeof *t);
        t->type = type;
        t->s = xstrndup(name, name_len);
        t->line = line;
        t->col = col;
        t->path = p->path;
        if (type == TN_PARTIAL) {
            t->partial = load_partial(p, t->s, line, col);
        } else if (type == TN_IF || type == TN_EACH) {
            const char *inner_stop;
            t->body = parse_nodes(p, &t->n_body, &inner_stop);
            if (type == TN_IF && inner_stop && strcmp(inner_stop, "else") == 0)
                t->alt = parse_nodes(p, &t->n_alt, &inner_stop);
            /* A misplaced {{else}}: say so, and read on to the closing tag
             * rather than report the block unclosed and its end stray. */
            while (inner_stop && strcmp(inner_stop, "else") == 0) {
                if (type == TN_IF)
                    diag_error(p->d, p->path, p->stop_line, p->stop_col,
                               "'{{#if %s}}' has a second '{{else}}'", t->s);
                else
                    diag_error(p->d, p->path, p->stop_line, p->stop_col,
                               "'{{else}}' belongs to an '{{#if}}', not to '{{#each %s}}'", t->s);
                p->errors++;
                size_t n_more;
                tnode *more = parse_nodes(p, &n_more, &inner_stop);
                free_nodes(more, n_more);
            }
            const char *want = type == TN_IF ? "/if" : "/each";
            if (!inner_stop || strcmp(inner_stop, want) != 0) {
                diag_error(p->d, p->path, line, col, "'{{#%s %s}}' is not closed with '{{%s}}'",
                           type == TN_IF ? "if" : "each", t->s, want);
                p->errors++;
            }
        }
    }
    *count = n;
    return nodes;
}

static tmpl *parse_text(const char *dir, const char *path, const char *text, size_t len, diag *d,
                        int depth, const char **chain, int *errors)
{
    parser p = {dir, NULL, text, len, 0, 1, 1, d, 0, depth, chain, 0, 0};
    tmpl *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(path);
    p.path = t->path;
    const char *stop;
    t->nodes = parse_nodes(&p, &t->n, &stop);
    if (stop && *stop != '?') { /* an unknown closing tag was reported already */
        diag_error(d, t->path, p.stop_line, p.stop_col, "'{{%s}}' without an opening block", stop);
        p.errors++;
    }
    *errors += p.errors;
    return t;
}

/* True when path resolves to a file outside dir (through a symbolic link);
 * a path that does not resolve is left to the reader to report. */
static bool outside(const char *dir, const char *path)
{
    char real[PATH_MAX], root[PATH_MAX];
    if (!realpath(path, real) || !realpath(dir, root))
        return false;
    size_t n = strlen(root);
    return strncmp(real, root, n) != 0 || (real[n] != '/' && strcmp(root, "/") != 0);
}

static tmpl *load_file(const char *dir, const char *file, diag *d, int depth, const char **chain,
                       int *errors, const char *from_path, int line, int col)
{
    char *path = xasprintf("%s/%s", dir, file);
    char *text = NULL;
    size_t len = 0;
    tmpl *t = NULL;
    if (outside(dir, path)) {
        /* Its text would be published: refuse it like a static file. */
        if (from_path)
            diag_error(d, from_path, line, col,
                       "template '%s' leads outside the templates folder (a symbolic link?); "
                       "copy the file in",
                       path);
        else
            diag_error(d, path, 0, 0,
                       "leads outside the templates folder (a symbolic link?); copy the file in");
        (*errors)++;
    } else if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0) {
        char *what = from_path ? xasprintf("template '%s'", path) : xstrdup("the template");
        diag_read_error(d, from_path ? from_path : path, line, col, path, what, errno,
                        BP_MAX_FILE_BYTES);
        free(what);
        (*errors)++;
    } else {
        size_t bad;
        if (!utf8_valid(text, len, &bad)) {
            int bad_line = 1, bad_col = 1;
            for (size_t i = 0; i < bad; i++) {
                if (text[i] == '\n') {
                    bad_line++;
                    bad_col = 1;
                } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
                    bad_col++;
                }
            }
            diag_error(d, path, bad_line, bad_col, "template is not valid UTF-8 text");
            (*errors)++;
        } else {
            t = parse_text(dir, path, text, len, d, depth, chain, errors);
        }
    }
    free(text);
    free(path);
    return t;
}

static tmpl *load_partial(parser *p, const char *name, int line, int col)
{
    if (p->depth >= TMPL_MAX_DEPTH) {
        diag_error(p->d, p->path, line, col, "partials nest deeper than %d levels", TMPL_MAX_DEPTH);
        p->errors++;
        return NULL;
    }
    for (int i = 0; i < p->depth; i++) {
        if (strcmp(p->chain[i], name) == 0) {
            diag_error(p->d, p->path, line, col, "partial '%s' includes itself", name);
            p->errors++;
            return NULL;
        }
    }
    const char *chain[TMPL_MAX_DEPTH + 1];
    for (int i = 0; i < p->depth; i++)
        chain[i] = p->chain[i];
    chain[p->depth] = name;
    char *file = xasprintf("partials/%s.html", name);
    int errors = 0;
    tmpl *t = load_file(p->dir, file, p->d, p->depth + 1, chain, &errors, p->path, line, col);
    p->errors += errors;
    free(file);
    return t;
}

tmpl *tmpl_parse(const char *dir, const char *path, const char *text, size_t len, diag *d)
{
    int errors = 0;
    const char *chain[1] = {NULL};
    tmpl *t = parse_text(dir, path, text, len, d, 0, chain, &errors);
    if (errors) {
        tmpl_free(t);
        return NULL;
    }
    return t;
}

tmpl *tmpl_load(const char *dir, const char *name, diag *d)
{
    int errors = 0;
    char *file = xasprintf("%s.html", name);
    const char *chain[1] = {name};
    tmpl *t = load_file(dir, file, d, 0, chain, &errors, NULL, 0, 0);
    free(file);
    if (errors) {
        tmpl_free(t);
        return NULL;
    }
    return t;
}

void tmpl_free(tmpl *t)
{
    if (!t)
        return;
    free_nodes(t->nodes, t->n);
    free(t->path);
    free(t);
}

/* ------------------------------------------------------------ rendering */

/* Pages render on several threads: exactly one of them reports a node. */
static bool first_report(tnode *n)
{
    return !__atomic_exchange_n(&n->reported, true, __ATOMIC_RELAXED);
}

static void unknown(tnode *n, const frame *f, diag *d, const char *kind)
{
    if (!first_report(n))
        return;
    const char *names[128];
    size_t count = 0;
    for (const tmpl_scope *s = frame_next(&f, NULL); s; s = frame_next(&f, s))
        for (size_t i = 0; i < s->n && count < 128; i++) {
            bool seen = false; /* an item's name hides the page's: list it once */
            for (size_t k = 0; k < count && !seen; k++)
                seen = strcmp(names[k], s->vars[i].name) == 0;
            if (!seen)
                names[count++] = s->vars[i].name;
        }
    diag_unknown(d, n->path, n->line, n->col, kind, n->s, names, count);
}

static int render_nodes(tnode *nodes, size_t count, const frame *scope, buf *out, diag *d)
{
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        tnode *n = &nodes[i];
        const tvar *v = NULL;
        switch (n->type) {
        case TN_TEXT:
            buf_put(out, n->s, n->len);
            break;
        case TN_PARTIAL:
            if (n->partial && render_nodes(n->partial->nodes, n->partial->n, scope, out, d) != 0)
                rc = -1;
            break;
        case TN_VAR:
            v = lookup(scope, n->s);
            if (!v) {
                unknown(n, scope, d, "template variable");
                rc = -1;
            } else if (v->type == TV_LIST) {
                if (first_report(n)) {
                    diag_error(d, n->path, n->line, n->col,
                               "'%s' is a list: use {{#each %s}} ... {{/each}}", n->s, n->s);
                }
                rc = -1;
            } else if (v->type == TV_HTML) {
                buf_puts(out, v->s);
            } else {
                buf_html_s(out, v->s);
            }
            break;
        case TN_IF:
            v = lookup(scope, n->s);
            if (!v) {
                unknown(n, scope, d, "template variable");
                rc = -1;
                break;
            }
            if (v->type == TV_LIST ? v->n_items > 0 : v->s[0] != '\0') {
                if (render_nodes(n->body, n->n_body, scope, out, d) != 0)
                    rc = -1;
            } else if (render_nodes(n->alt, n->n_alt, scope, out, d) != 0) {
                rc = -1;
            }
            break;
        case TN_EACH:
            v = lookup(scope, n->s);
            if (!v || v->type != TV_LIST) {
                if (!v)
                    unknown(n, scope, d, "template list");
                else if (first_report(n)) {
                    diag_error(d, n->path, n->line, n->col, "'%s' is not a list", n->s);
                }
                rc = -1;
                break;
            }
            for (size_t k = 0; k < v->n_items && v->fill; k++) {
                /* one item at a time: a list of every page costs one item */
                tmpl_scope *it = tmpl_scope_new(v->owner);
                v->fill(v->fill_ctx, k, it);
                frame item = {it, scope};
                if (render_nodes(n->body, n->n_body, &item, out, d) != 0)
                    rc = -1;
                tmpl_scope_free(it);
            }
            for (size_t k = 0; k < v->n_items && !v->fill; k++) {
                frame item = {v->items[k], scope};
                if (render_nodes(n->body, n->n_body, &item, out, d) != 0)
                    rc = -1;
            }
            break;
        }
    }
    return rc;
}

int tmpl_render(tmpl *t, const tmpl_scope *scope, buf *out, diag *d)
{
    frame top = {scope, NULL};
    return render_nodes(t->nodes, t->n, &top, out, d);
}

/* tmpl.c — a small logic-light template engine (see tmpl.h). Every file of
 * a templates folder is parsed once per build into a node tree (a partial
 * that ten templates include, or one template includes ten times, too) and
 * rendered per page. */
#include "render/tmpl.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define TMPL_MAX_DEPTH 16 /* partial nesting */
/* Partials one rendering may show, counted on the tree (a partial inside an
 * {{#each}} once): partials that each include the next a few times multiply,
 * 4^11 from 11 files of 44 bytes. */
#define TMPL_MAX_INCLUDES 1000
/* HTML one rendering may write (an index listing every page of a site at
 * the page limit takes a few MiB). */
#define TMPL_MAX_OUTPUT ((size_t)64 << 20)

typedef enum { TN_TEXT, TN_VAR, TN_PARTIAL, TN_IF, TN_EACH } tn_type;

typedef struct tnode {
    tn_type type;
    char *s; /* text, or variable / list name */
    size_t len;
    int line, col;
    const char *path;   /* template file (owned by the tmpl) */
    bool reported;      /* unknown-variable error already given */
    tmpl *partial;      /* TN_PARTIAL (owned by the library) */
    struct tnode *body; /* TN_IF then-part, TN_EACH body */
    size_t n_body;
    struct tnode *alt; /* TN_IF else-part */
    size_t n_alt;
} tnode;

struct tmpl {
    char *path;
    tnode *nodes;
    size_t n;
    int height;      /* partial nesting below this file (0: includes none) */
    size_t includes; /* partials one rendering shows (see TMPL_MAX_INCLUDES) */
    bool too_large;  /* a rendering went past TMPL_MAX_OUTPUT (reported) */
    tmpl_lib *own;   /* the library tmpl_load/tmpl_parse made for it, or NULL */
};

/* One file of the folder, parsed at most once. */
typedef struct {
    char *file; /* relative to the folder: "page.html", "partials/head.html" */
    tmpl *t;    /* NULL while it loads and after it failed */
    bool loading, failed;
} lib_entry;

struct tmpl_lib {
    char *dir;
    lib_entry *files;
    size_t n, cap;
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
    tmpl_lib *lib;           /* where partials come from */
    tmpl *t;                 /* the template being parsed */
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
static void tmpl_free_nodes(tmpl *t);

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
                diag_note why;
                diag_note_set(&why, "unknown block '{{#%.*s}}'", (int)(end - name), name);
                diag_note_hint(&why, true, "expected '{{#if NAME}}' or '{{#each NAME}}'");
                diag_error_note(p->d, p->path, line, col, &why);
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

static tmpl *parse_text(tmpl_lib *lib, const char *path, const char *text, size_t len, diag *d,
                        int depth, int *errors)
{
    tmpl *t = xcalloc(1, sizeof *t);
    t->path = xstrdup(path);
    parser p = {lib->dir, t->path, text, len, 0, 1, 1, d, 0, depth, lib, t, 0, 0};
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

/* Read and parse lib's file (relative to its folder); problems of reading it
 * are reported at from_path:line:col when it was included from there. */
static tmpl *load_file(tmpl_lib *lib, const char *file, diag *d, int depth, int *errors,
                       const char *from_path, int line, int col)
{
    char *path = xasprintf("%s/%s", lib->dir, file);
    char *text = NULL;
    size_t len = 0;
    tmpl *t = NULL;
    if (outside(lib->dir, path)) {
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
            int bad_line, bad_col;
            text_pos(text, bad, &bad_line, &bad_col);
            diag_error(d, path, bad_line, bad_col, "template is not valid UTF-8 text");
            (*errors)++;
        } else {
            t = parse_text(lib, path, text, len, d, depth, errors);
        }
    }
    free(text);
    free(path);
    return t;
}

/* lib's file, loaded on first use; the same tmpl (or NULL) every time after.
 * *loading is set when the file is being parsed right now (an include
 * cycle). Problems are reported once, on the first load. */
static tmpl *lib_file(tmpl_lib *lib, const char *file, diag *d, int depth, const char *from_path,
                      int line, int col, bool *loading)
{
    *loading = false;
    for (size_t i = 0; i < lib->n; i++) {
        if (strcmp(lib->files[i].file, file) == 0) {
            *loading = lib->files[i].loading;
            return lib->files[i].t;
        }
    }
    lib->files = xgrow(lib->files, sizeof *lib->files, &lib->cap, lib->n + 1);
    size_t at = lib->n++;
    lib->files[at] = (lib_entry){xstrdup(file), NULL, true, false};
    int errors = 0;
    tmpl *t = load_file(lib, file, d, depth, &errors, from_path, line, col);
    if (errors) {
        tmpl_free_nodes(t);
        t = NULL;
    }
    lib->files[at].loading = false; /* lib->files may have moved meanwhile */
    lib->files[at].failed = t == NULL;
    lib->files[at].t = t;
    return t;
}

static tmpl *load_partial(parser *p, const char *name, int line, int col)
{
    char *file = xasprintf("partials/%s.html", name);
    bool loading;
    tmpl *t = NULL;
    if (p->depth >= TMPL_MAX_DEPTH) {
        diag_error(p->d, p->path, line, col, "partials nest deeper than %d levels", TMPL_MAX_DEPTH);
    } else {
        t = lib_file(p->lib, file, p->d, p->depth + 1, p->path, line, col, &loading);
        if (loading) {
            diag_error(p->d, p->path, line, col, "partial '%s' includes itself", name);
        } else if (t && p->depth + 1 + t->height > TMPL_MAX_DEPTH) {
            /* parsed before, from a shallower place */
            diag_error(p->d, p->path, line, col, "partials nest deeper than %d levels",
                       TMPL_MAX_DEPTH);
            t = NULL;
        } else if (t) {
            if (t->height + 1 > p->t->height)
                p->t->height = t->height + 1;
            size_t before = p->t->includes;
            p->t->includes += 1 + t->includes;
            if (before <= TMPL_MAX_INCLUDES && p->t->includes > TMPL_MAX_INCLUDES) {
                diag_error(p->d, p->path, line, col,
                           "with '{{> %s }}' (itself %zu partial%s), this template shows more "
                           "than %d partials: partials that include each other several times "
                           "multiply; include fewer",
                           name, t->includes, t->includes == 1 ? "" : "s", TMPL_MAX_INCLUDES);
                p->errors++;
            }
        }
    }
    if (!t)
        p->errors++; /* reported here, or where the partial failed to load */
    free(file);
    return t;
}

tmpl_lib *tmpl_lib_new(const char *dir)
{
    tmpl_lib *lib = xcalloc(1, sizeof *lib);
    lib->dir = xstrdup(dir);
    return lib;
}

void tmpl_lib_free(tmpl_lib *lib)
{
    if (!lib)
        return;
    for (size_t i = 0; i < lib->n; i++) {
        tmpl_free_nodes(lib->files[i].t);
        free(lib->files[i].file);
    }
    free(lib->files);
    free(lib->dir);
    free(lib);
}

tmpl *tmpl_lib_load(tmpl_lib *lib, const char *name, diag *d)
{
    char *file = xasprintf("%s.html", name);
    bool loading;
    tmpl *t = lib_file(lib, file, d, 0, NULL, 0, 0, &loading);
    free(file);
    return t;
}

tmpl *tmpl_parse(const char *dir, const char *path, const char *text, size_t len, diag *d)
{
    tmpl_lib *lib = tmpl_lib_new(dir);
    int errors = 0;
    tmpl *t = parse_text(lib, path, text, len, d, 0, &errors);
    if (errors) {
        tmpl_free_nodes(t);
        tmpl_lib_free(lib);
        return NULL;
    }
    t->own = lib;
    return t;
}

tmpl *tmpl_load(const char *dir, const char *name, diag *d)
{
    tmpl_lib *lib = tmpl_lib_new(dir);
    tmpl *t = tmpl_lib_load(lib, name, d);
    if (!t) {
        tmpl_lib_free(lib);
        return NULL;
    }
    /* t stays in lib's list; tmpl_free frees the library and so t */
    t->own = lib;
    return t;
}

/* A parsed file itself; the partials it includes belong to the library. */
static void tmpl_free_nodes(tmpl *t)
{
    if (!t)
        return;
    free_nodes(t->nodes, t->n);
    free(t->path);
    free(t);
}

void tmpl_free(tmpl *t)
{
    if (!t)
        return;
    if (!t->own)
        return; /* a library's template: tmpl_lib_free frees it */
    tmpl_lib *lib = t->own;
    bool listed = false;
    for (size_t i = 0; i < lib->n && !listed; i++)
        listed = lib->files[i].t == t;
    if (!listed)
        tmpl_free_nodes(t); /* tmpl_parse's text: not one of the folder's files */
    tmpl_lib_free(lib);
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

/* One rendering: where it writes, and where it must stop. */
typedef struct {
    buf *out;
    diag *d;
    size_t end; /* out->len may not pass this */
    bool over;
} render_ctx;

static int render_nodes(render_ctx *c, tnode *nodes, size_t count, const frame *scope)
{
    int rc = 0;
    buf *out = c->out;
    diag *d = c->d;
    for (size_t i = 0; i < count; i++) {
        if (out->len > c->end) {
            c->over = true;
            return -1;
        }
        tnode *n = &nodes[i];
        const tvar *v = NULL;
        switch (n->type) {
        case TN_TEXT:
            buf_put(out, n->s, n->len);
            break;
        case TN_PARTIAL:
            if (n->partial && render_nodes(c, n->partial->nodes, n->partial->n, scope) != 0)
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
                if (render_nodes(c, n->body, n->n_body, scope) != 0)
                    rc = -1;
            } else if (render_nodes(c, n->alt, n->n_alt, scope) != 0) {
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
            for (size_t k = 0; k < v->n_items && v->fill && !c->over; k++) {
                /* one item at a time: a list of every page costs one item */
                tmpl_scope *it = tmpl_scope_new(v->owner);
                v->fill(v->fill_ctx, k, it);
                frame item = {it, scope};
                if (render_nodes(c, n->body, n->n_body, &item) != 0)
                    rc = -1;
                tmpl_scope_free(it);
            }
            for (size_t k = 0; k < v->n_items && !v->fill && !c->over; k++) {
                frame item = {v->items[k], scope};
                if (render_nodes(c, n->body, n->n_body, &item) != 0)
                    rc = -1;
            }
            break;
        }
    }
    return rc;
}

int tmpl_render(tmpl *t, const tmpl_scope *scope, buf *out, diag *d)
{
    if (__atomic_load_n(&t->too_large, __ATOMIC_RELAXED))
        return -1; /* reported by the rendering that found it */
    frame top = {scope, NULL};
    render_ctx c = {out, d, out->len + TMPL_MAX_OUTPUT, false};
    int rc = render_nodes(&c, t->nodes, t->n, &top);
    if (c.over || out->len > c.end) {
        if (!__atomic_exchange_n(&t->too_large, true, __ATOMIC_RELAXED))
            diag_error(d, t->path, 0, 0,
                       "renders more than %zu MiB of HTML for one page; its lists or partials "
                       "repeat too much",
                       TMPL_MAX_OUTPUT >> 20);
        rc = -1;
    }
    return rc;
}

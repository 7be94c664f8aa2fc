/* markdown.c — the only user of cmark-gfm. Parses the page body, expands
 * placeholders in text nodes through a callback (so code spans and code
 * blocks keep `{{ x }}` exactly), gives headings stable ids, renders HTML. */
#include "markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const md_options *o;
    const char *text;
    size_t len;
    size_t *line_start; /* byte offset of each body line (0-based index) */
    size_t n_lines;
    diag *d;
    int errors;
    char **ids; /* heading ids used so far */
    size_t n_ids, cap_ids;
    char **snippets; /* expanded HTML standing in for marker text (see stand_in) */
    size_t n_snippets, cap_snippets;
    cmark_mem *mem; /* the document's allocator: cmark links only nodes of one */
} walker;

/* ------------------------------------------------------------ arena
 * cmark-gfm allocates every node, string and buffer of a page separately;
 * through this per-thread arena they are bump allocations, freed at once
 * when the page is done (about a third of the time Markdown took). cmark's
 * allocator has no context argument, hence thread-local state. Memory the
 * arena hands out never leaves md_render: the HTML is rendered with the
 * default allocator. */

typedef struct chunk {
    struct chunk *next;
    size_t size, used, last; /* last: offset of the newest block's header */
} chunk;

#define ARENA_CHUNK ((size_t)256 << 10)
#define ARENA_HDR ((size_t)16) /* a block: its size, padded to 16 bytes */

static _Thread_local chunk *arena_used;  /* current chunk first */
static _Thread_local chunk *arena_spare; /* kept for the next page */

static void *arena_alloc(size_t n)
{
    size_t need = ARENA_HDR + ((n + 15) & ~(size_t)15);
    if (need < n)
        return NULL;
    chunk *c = arena_used;
    if (!c || c->size - c->used < need) {
        if (arena_spare && arena_spare->size - sizeof(chunk) >= need) {
            c = arena_spare;
            arena_spare = c->next;
        } else {
            size_t size = need + sizeof(chunk) > ARENA_CHUNK ? need + sizeof(chunk) : ARENA_CHUNK;
            c = malloc(size);
            if (!c)
                return NULL;
            c->size = size;
        }
        c->used = sizeof(chunk);
        c->next = arena_used;
        arena_used = c;
    }
    char *block = (char *)c + c->used;
    memcpy(block, &n, sizeof n);
    c->last = c->used;
    c->used += need;
    return block + ARENA_HDR;
}

static void *arena_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = arena_alloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

static void *arena_realloc(void *p, size_t n)
{
    if (!p)
        return arena_alloc(n);
    char *block = (char *)p - ARENA_HDR;
    size_t old;
    memcpy(&old, block, sizeof old);
    chunk *c = arena_used;
    size_t need = ARENA_HDR + ((n + 15) & ~(size_t)15);
    if (c && block == (char *)c + c->last && need >= ARENA_HDR && c->last + need <= c->size) {
        c->used = c->last + need; /* the newest block grows (or shrinks) in place */
        memcpy(block, &n, sizeof n);
        return p;
    }
    void *q = arena_alloc(n);
    if (q)
        memcpy(q, p, old < n ? old : n);
    return q;
}

static void arena_free(void *p)
{
    chunk *c = arena_used;
    if (p && c && (char *)p - ARENA_HDR == (char *)c + c->last)
        c->used = c->last; /* the newest block: give it back */
}

/* Every block goes back at once; chunks are kept for the next page, except
 * one-off big ones. */
static void arena_reset(void)
{
    while (arena_used) {
        chunk *c = arena_used;
        arena_used = c->next;
        if (c->size > ARENA_CHUNK) {
            free(c);
        } else {
            c->next = arena_spare;
            arena_spare = c;
        }
    }
}

void md_release(void)
{
    arena_reset();
    while (arena_spare) {
        chunk *c = arena_spare;
        arena_spare = c->next;
        free(c);
    }
}

static cmark_mem arena_mem = {arena_calloc, arena_realloc, arena_free};
static _Thread_local int md_depth; /* md_render within md_render uses malloc */

/* 1-based character column of a byte column (1-based) on a body line. */
static int char_col(const walker *w, int line, int byte_col)
{
    if (line < 1 || (size_t)line > w->n_lines || byte_col < 1)
        return byte_col;
    size_t start = w->line_start[line - 1];
    int col = 1;
    for (size_t i = start; i < start + (size_t)(byte_col - 1) && i < w->len; i++)
        if (((unsigned char)w->text[i] & 0xC0) != 0x80)
            col++;
    return col;
}

static void report(walker *w, int line, int byte_col, const char *msg)
{
    diag_error(w->d, w->o->path, line + w->o->line_offset, char_col(w, line, byte_col), "%s", msg);
    w->errors++;
}

void md_slugify(buf *out, const char *text, size_t len)
{
    bool dash = false;
    size_t start = out->len;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (dash && out->len > start)
                buf_putc(out, '-');
            dash = false;
            buf_putc(out, c);
        } else if (!((unsigned char)c & 0x80) || ((unsigned char)c & 0xC0) == 0xC0) {
            dash = true;
        }
    }
    if (out->len == start)
        buf_puts(out, "section");
}

/* Plain text of an inline subtree, for heading ids. */
static void plain_text(cmark_node *n, buf *out)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        const char *lit = cmark_node_get_literal(c);
        cmark_node_type t = cmark_node_get_type(c);
        if ((t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) && lit)
            buf_puts(out, lit);
        else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
            buf_putc(out, ' ');
        else if (t == CMARK_NODE_CUSTOM_INLINE)
            ; /* expanded placeholders do not name the section */
        else
            plain_text(c, out);
    }
}

static const char *unique_id(walker *w, const char *base)
{
    char *id = xstrdup(base);
    for (int k = 2;; k++) {
        bool taken = w->o->ids && strset_has(w->o->ids, id);
        for (size_t i = 0; i < w->n_ids && !taken; i++)
            taken = strcmp(w->ids[i], id) == 0;
        if (!taken)
            break;
        free(id);
        id = xasprintf("%s-%d", base, k);
    }
    w->ids = xgrow(w->ids, sizeof *w->ids, &w->cap_ids, w->n_ids + 1);
    w->ids[w->n_ids++] = id;
    if (w->o->ids)
        strset_add(w->o->ids, id);
    return id;
}

/* Put expanded HTML before node. cmark-gfm's table cells refuse custom
 * inline nodes (its table extension lists the inline types a cell may
 * hold), so there the HTML goes in as a marker text "\xffN\xff" that
 * md_render swaps for snippet N after rendering: 0xFF never occurs in the
 * UTF-8 that cmark writes, so no author text can look like a marker. */
static void stand_in(walker *w, cmark_node *node, const char *html)
{
    cmark_node *ci = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, w->mem);
    cmark_node_set_on_enter(ci, html);
    if (cmark_node_insert_before(node, ci))
        return;
    cmark_node_free(ci);
    char marker[32];
    snprintf(marker, sizeof marker, "\xff%zu\xff", w->n_snippets);
    w->snippets = xgrow(w->snippets, sizeof *w->snippets, &w->cap_snippets, w->n_snippets + 1);
    w->snippets[w->n_snippets++] = xstrdup(html);
    cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, w->mem);
    cmark_node_set_literal(t, marker);
    cmark_node_insert_before(node, t);
}

/* html with every marker of stand_in replaced by its snippet, appended to out. */
static void put_snippets(buf *out, const char *html, size_t len, const walker *w)
{
    size_t i = 0;
    while (i < len) {
        const char *m = memchr(html + i, 0xff, len - i);
        if (!m) {
            buf_put(out, html + i, len - i);
            break;
        }
        size_t at = (size_t)(m - html);
        buf_put(out, html + i, at - i);
        char *end;
        unsigned long long k = strtoull(m + 1, &end, 10);
        if ((unsigned char)*end == 0xff && k < w->n_snippets) {
            buf_puts(out, w->snippets[k]);
            i = (size_t)(end + 1 - html);
        } else {
            buf_putc(out, *m);
            i = at + 1;
        }
    }
}

/* Byte column (1-based) of the k-th "{{" of a text node on its source line.
 * The node's literal has entities and backslash escapes decoded ("&amp;" is
 * "&"), so an offset into it can lie left of the source; counting
 * placeholders along the source line from the node's start does not.
 * Returns fallback when the source does not show k + 1 of them. */
static int source_col(const walker *w, int line, int col0, size_t k, int fallback)
{
    if (line < 1 || (size_t)line > w->n_lines || col0 < 1)
        return fallback;
    size_t ls = w->line_start[line - 1];
    size_t end = (size_t)line < w->n_lines ? w->line_start[line] : w->len;
    size_t seen = 0;
    for (size_t i = ls + (size_t)(col0 - 1); i + 1 < end;) {
        if (w->text[i] != '{' || w->text[i + 1] != '{') {
            i++;
            continue;
        }
        if (seen++ == k)
            return (int)(i - ls) + 1;
        size_t j = i + 2;
        while (j + 1 < end && !(w->text[j] == '}' && w->text[j + 1] == '}'))
            j++;
        i = j + 2;
    }
    return fallback;
}

/* Expand the placeholders of one text node, splitting it around them. */
static void expand_text(walker *w, cmark_node *node, bool alone_possible)
{
    const char *lit = cmark_node_get_literal(node);
    if (!lit || !strstr(lit, "{{"))
        return;
    char *s = xstrdup(lit);
    int line = cmark_node_get_start_line(node), col0 = cmark_node_get_start_column(node);
    size_t pos = 0, n = strlen(s), k = 0;
    buf before;
    buf_init(&before);
    while (pos < n) {
        char *open = strstr(s + pos, "{{");
        if (!open) {
            buf_puts(&before, s + pos);
            break;
        }
        size_t o = (size_t)(open - s);
        int byte_col = source_col(w, line, col0, k++, col0 + (int)o);
        buf_put(&before, s + pos, o - pos);
        char *close = strstr(open + 2, "}}");
        if (!close) {
            report(w, line, byte_col,
                   "unterminated placeholder: '{{' without '}}' on the same line");
            buf_puts(&before, s + o);
            break;
        }
        size_t c = (size_t)(close - s);
        /* Text before goes in its own node. */
        if (before.len) {
            cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, w->mem);
            cmark_node_set_literal(t, before.data);
            cmark_node_insert_before(node, t);
            buf_clear(&before);
        }
        bool alone = alone_possible && o == 0 && s[c + 2] == '\0';
        buf html;
        buf_init(&html);
        bool block = false;
        if (w->o->expand(w->o->ctx, open + 2, c - o - 2, line + w->o->line_offset,
                         char_col(w, line, byte_col), alone, &html, &block) != 0) {
            w->errors++;
        } else if (block) {
            cmark_node *para = cmark_node_parent(node);
            cmark_node *cb = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, w->mem);
            cmark_node_set_on_enter(cb, html.data);
            cmark_node_insert_before(para, cb);
            cmark_node_unlink(para);
            cmark_node_free(para); /* frees node too */
            buf_free(&html);
            buf_free(&before);
            free(s);
            return;
        } else {
            stand_in(w, node, html.data ? html.data : "");
        }
        buf_free(&html);
        pos = c + 2;
    }
    cmark_node_set_literal(node, before.data ? before.data : "");
    buf_free(&before);
    free(s);
}

static void check_table(walker *w, cmark_node *table)
{
    uint16_t cols = cmark_gfm_extensions_get_table_columns(table);
    if (cols > MD_MAX_TABLE_COLUMNS) {
        char msg[128];
        snprintf(msg, sizeof msg, "table has %u columns; the limit is %d", cols,
                 MD_MAX_TABLE_COLUMNS);
        report(w, cmark_node_get_start_line(table), cmark_node_get_start_column(table), msg);
    }
}

/* Give a heading an id and a self-link: render it alone and swap it for a
 * custom block with the id added. */
static cmark_node *heading_with_id(walker *w, cmark_node *h, cmark_llist *exts, int options)
{
    buf text, id;
    buf_init(&text);
    buf_init(&id);
    plain_text(h, &text);
    md_slugify(&id, text.data ? text.data : "", text.len);
    const char *uid = unique_id(w, id.data);
    char *rendered = cmark_render_html_with_mem(h, options, exts, cmark_get_default_mem_allocator());
    int level = cmark_node_get_heading_level(h);
    /* rendered is "<hN>...</hN>\n" */
    buf out;
    buf_init(&out);
    buf_printf(&out, "<h%d id=\"%s\">", level, uid);
    const char *inner = rendered + 4;
    const char *end = strstr(rendered, "</h");
    buf_put(&out, inner, end ? (size_t)(end - inner) : strlen(inner));
    buf_printf(
        &out,
        " <a class=\"bp-anchor\" href=\"#%s\" aria-label=\"Link to this section\">#</a></h%d>\n",
        uid, level);
    cmark_node *cb = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, w->mem);
    cmark_node_set_on_enter(cb, out.data);
    cmark_node_insert_before(h, cb);
    cmark_node_unlink(h);
    cmark_node_free(h);
    free(rendered);
    buf_free(&out);
    buf_free(&text);
    buf_free(&id);
    return cb;
}

static void add_ext(cmark_parser *p, const char *name)
{
    cmark_syntax_extension *e = cmark_find_syntax_extension(name);
    if (e)
        cmark_parser_attach_syntax_extension(p, e);
}

void md_init(void)
{
    cmark_gfm_core_extensions_ensure_registered();
}

int md_render(const char *text, size_t len, const md_options *o, buf *out, diag *d)
{
    walker w;
    memset(&w, 0, sizeof w);
    w.o = o;
    w.text = text;
    w.len = len;
    w.d = d;
    if (len > MD_MAX_BYTES) {
        /* rounded up: a body just over the limit must not read "256 KiB" */
        diag_error(d, o->path, o->line_offset + 1, 1, "page body is %zu KiB; the limit is %zu KiB",
                   (len + 1023) >> 10, MD_MAX_BYTES >> 10);
        return -1;
    }
    size_t cap = 0;
    w.line_start = xgrow(NULL, sizeof *w.line_start, &cap, 1);
    w.line_start[w.n_lines++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' && i + 1 <= len) {
            w.line_start = xgrow(w.line_start, sizeof *w.line_start, &cap, w.n_lines + 1);
            w.line_start[w.n_lines++] = i + 1;
        }
    }

    cmark_gfm_core_extensions_ensure_registered();
    int options = CMARK_OPT_DEFAULT | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE;
    if (o->unsafe_html)
        options |= CMARK_OPT_UNSAFE;
    cmark_mem *mem = md_depth++ == 0 ? &arena_mem : cmark_get_default_mem_allocator();
    cmark_parser *p = cmark_parser_new_with_mem(options, mem);
    w.mem = mem;
    add_ext(p, "table");
    add_ext(p, "autolink");
    add_ext(p, "strikethrough");
    if (o->unsafe_html)
        add_ext(p, "tagfilter");
    cmark_parser_feed(p, text, len);
    cmark_node *doc = cmark_parser_finish(p);
    cmark_llist *exts = cmark_parser_get_syntax_extensions(p);

    /* Collect first, then change: the iterator must not see edited nodes. */
    cmark_node **texts = NULL, **heads = NULL;
    size_t n_texts = 0, cap_texts = 0, n_heads = 0, cap_heads = 0;
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_TEXT) {
            texts = xgrow(texts, sizeof *texts, &cap_texts, n_texts + 1);
            texts[n_texts++] = n;
        } else if (t == CMARK_NODE_HEADING) {
            heads = xgrow(heads, sizeof *heads, &cap_heads, n_heads + 1);
            heads[n_heads++] = n;
        } else if (strcmp(cmark_node_get_type_string(n), "table") == 0) {
            check_table(&w, n);
        }
    }
    cmark_iter_free(it);
    if (w.errors == 0) {
        for (size_t i = 0; i < n_texts; i++) {
            cmark_node *parent = cmark_node_parent(texts[i]);
            bool alone = parent && cmark_node_get_type(parent) == CMARK_NODE_PARAGRAPH &&
                         cmark_node_first_child(parent) == texts[i] &&
                         cmark_node_last_child(parent) == texts[i] &&
                         cmark_node_get_type(cmark_node_parent(parent)) == CMARK_NODE_DOCUMENT;
            expand_text(&w, texts[i], alone);
        }
        for (size_t i = 0; i < n_heads; i++)
            heading_with_id(&w, heads[i], exts, options);
    }
    free(texts);
    free(heads);

    int rc = w.errors ? -1 : 0;
    if (rc == 0) {
        char *html = cmark_render_html_with_mem(doc, options, exts, cmark_get_default_mem_allocator());
        size_t hl = strlen(html);
        if (w.n_snippets) {
            buf full;
            buf_init(&full);
            put_snippets(&full, html, hl, &w);
            free(html);
            hl = full.len;
            html = buf_detach(&full);
        }
        if (hl > MD_MAX_HTML_BYTES) {
            diag_error(d, o->path, o->line_offset + 1, 1,
                       "page renders to %zu MiB of HTML; the limit is %zu MiB", hl >> 20,
                       MD_MAX_HTML_BYTES >> 20);
            rc = -1;
        } else {
            buf_put(out, html, hl);
        }
        free(html);
    }
    cmark_node_free(doc);
    cmark_parser_free(p);
    if (--md_depth == 0)
        arena_reset();
    for (size_t i = 0; i < w.n_ids; i++)
        free(w.ids[i]);
    free(w.ids);
    for (size_t i = 0; i < w.n_snippets; i++)
        free(w.snippets[i]);
    free(w.snippets);
    free(w.line_start);
    return rc;
}
